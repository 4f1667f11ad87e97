package endpoint

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/servers/rpc"
)

// session is a bridged session of server for the tests.
func session(id, server string) Bridged {
	return Bridged{
		ID: id, Server: server, Target: "npx -y some-server",
		Reported: Peer{Name: "some-server", Version: "1.0"},
		Host:     Peer{Name: "claude-ai", Title: untrusted.Text("Claude \u202eDesktop"), Version: "0.9"},
		Protocol: "2025-11-25",
		Since:    time.Date(2026, 11, 23, 10, 42, 0, 0, time.UTC),
	}
}

// dialClient connects a Client to path for the test.
func dialClient(t *testing.T, path string) *Client {
	t.Helper()
	c, err := Dial(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestElicit checks what the bridge gets back from bridge/elicit: the
// result as the app wrote it, the app's refusal whole (code, message and
// data), and a plain failure as the generic code.
func TestElicit(t *testing.T) {
	params := json.RawMessage(`{"message":"Pick \u202e one","requestedSchema":{"type":"object","properties":{}}}`)
	tests := []struct {
		server   string
		want     string // the result, when it succeeds
		wantCode int    // the *jsonrpc.Error's code, when refused
		wantData string
	}{
		{server: "echo", want: string(params)},
		{server: "refuse", wantCode: jsonrpc.CodeInvalidParams, wantData: refusalData},
		{server: "broken", wantCode: jsonrpc.CodeServer},
	}
	_, path, _ := startServer(t, defaultLimits())
	c := dialClient(t, path)
	for _, tt := range tests {
		t.Run(tt.server, func(t *testing.T) {
			res, err := c.Elicit(t.Context(), Question{Session: session("s1", tt.server), Params: params})
			if tt.wantCode == 0 {
				if err != nil || string(res) != tt.want {
					t.Errorf("Elicit = %s, %v; want %s", res, err, tt.want)
				}
				return
			}
			var e *jsonrpc.Error
			if !errors.As(err, &e) || e.Code != tt.wantCode || e.Message == "" || string(e.Data) != tt.wantData {
				t.Errorf("Elicit = %s, %#v; want the app's refusal with code %d and data %s", res, err, tt.wantCode, tt.wantData)
			}
			if errors.Is(err, ErrDisconnected) {
				t.Errorf("a refusal reads as a disconnection: %v", err)
			}
		})
	}
}

// TestQuestionRoundTrips checks that the handler gets the session and the
// server's params byte for byte, and that they come back so (compact
// params stay as they are: no HTML escaping, numbers and escapes as
// written, bytes not UTF-8 kept).
func TestQuestionRoundTrips(t *testing.T) {
	q := Question{Session: session("s1", "echo"), Params: json.RawMessage(`{"message":"<b>x</b> & \u003c\u202e` + "\xff" + `","big":12345678901234567890123,"mode":"url","url":"https://e.example/\u0000"}`)}
	_, path, _ := startServer(t, defaultLimits())
	if res, err := dialClient(t, path).Elicit(t.Context(), q); err != nil || string(res) != string(q.Params) {
		t.Errorf("Elicit through the echo server = %s, %v; want %s", res, err, q.Params)
	}
	got := roundTrip(t, q)
	if !got.Session.Since.Equal(q.Session.Since) || got.Session.Host != q.Session.Host || got.Session.Reported != q.Session.Reported {
		t.Errorf("session %+v, want %+v", got.Session, q.Session)
	}
	if string(got.Params) != string(q.Params) {
		t.Errorf("params %s, want %s as sent", got.Params, q.Params)
	}
}

// TestBridgedCut: a session's words arrive within their bounds, each cut
// with its mark, however long the bridge sent them; words that fit arrive
// as sent.
func TestBridgedCut(t *testing.T) {
	long := strings.Repeat("\u2028", untrusted.ProseBytes)
	sent := session("s1", long)
	sent.Target, sent.Protocol, sent.Reported.Name = long, long, untrusted.Text(long)
	got := roundTrip(t, sent)
	for _, w := range []struct {
		what string
		text string
		max  int
	}{
		{"server", got.Server, untrusted.NameBytes},
		{"target", got.Target, untrusted.ProseBytes},
		{"protocol", got.Protocol, untrusted.NameBytes},
		{"server's name", string(got.Reported.Name), untrusted.NameBytes},
	} {
		if b, _ := json.Marshal(w.text); len(b) > w.max+2 || !strings.Contains(w.text, "cut: ") {
			t.Errorf("the %s arrived with %d bytes of JSON, want it cut to %d", w.what, len(b)-2, w.max)
		}
	}
	if fits := session("s1", "echo"); roundTrip(t, fits) != fits {
		t.Errorf("a session that fits arrived as %+v, want it as sent", roundTrip(t, fits))
	}
}

// roundTrip is v as the other side of the endpoint reads it.
func roundTrip[T any](t *testing.T, v T) T {
	t.Helper()
	raw, err := rpc.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var got T
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	return got
}

// TestConcurrentElicits has many elicitations of one bridge connection in
// flight at once, each answer reaching its own caller.
func TestConcurrentElicits(t *testing.T) {
	_, path, h := startServer(t, defaultLimits())
	c := dialClient(t, path)
	const waiting = 10
	var slow sync.WaitGroup
	for range waiting {
		slow.Go(func() {
			res, err := c.Elicit(t.Context(), Question{Session: session("s", "wait"), Params: json.RawMessage(`{}`)})
			if err != nil || string(res) != `{"action":"decline"}` {
				t.Errorf("waiting Elicit = %s, %v", res, err)
			}
		})
	}
	for range waiting {
		await(t, h.started, "a waiting elicitation")
	}
	var wg sync.WaitGroup
	for n := range 30 {
		wg.Go(func() {
			want := fmt.Sprintf(`{"n":%d}`, n)
			res, err := c.Elicit(t.Context(), Question{Session: session(fmt.Sprint(n), "echo"), Params: json.RawMessage(want)})
			if err != nil || string(res) != want {
				t.Errorf("Elicit %d = %s, %v", n, res, err)
			}
		})
	}
	wg.Wait()
	close(h.release)
	slow.Wait()
}

// TestBridgeSession checks a session's life: the app has it from the
// request on, and its handler ends when the bridge cancels it or hangs up;
// Complete reaches the handler.
func TestBridgeSession(t *testing.T) {
	tests := []struct {
		name string
		end  func(cancel context.CancelFunc, c *Client)
	}{
		{"cancelled", func(cancel context.CancelFunc, _ *Client) { cancel() }},
		{"hung up", func(_ context.CancelFunc, c *Client) { c.Close() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, path, h := startServer(t, defaultLimits())
			c := dialClient(t, path)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			ended := make(chan error, 1)
			go func() { ended <- c.Bridge(ctx, session("s1", "files")) }()
			got := await(t, h.bridged, "the session in the app")
			if want := session("s1", "files"); got.ID != want.ID || got.Host != want.Host || !got.Since.Equal(want.Since) || got.Protocol != want.Protocol {
				t.Errorf("the app got %+v, want %+v", got, want)
			}
			if err := c.Complete(t.Context(), Completion{Session: "s1", Server: "files", ElicitationID: "e1"}); err != nil && tt.name == "cancelled" {
				t.Fatal(err)
			}
			if tt.name == "cancelled" {
				if c := await(t, h.completes, "the completion"); c.ElicitationID != "e1" || c.Server != "files" || c.Session != "s1" {
					t.Errorf("completion %+v", c)
				}
			}
			tt.end(cancel, c)
			if err := await(t, h.unbridged, "the end of the session in the app"); !errors.Is(err, context.Canceled) {
				t.Errorf("the session ended with %v", err)
			}
			err := await(t, ended, "Bridge's return")
			var e *jsonrpc.Error
			if err == nil || errors.As(err, &e) {
				t.Errorf("Bridge = %v, want the end of ctx or of the connection", err)
			}
		})
	}
}

// TestAppGoesAway checks that a call under way when the app quits fails
// as a disconnection, never as the app's refusal, and so does a call made
// afterwards.
func TestAppGoesAway(t *testing.T) {
	s, path, h := startServer(t, defaultLimits())
	c := dialClient(t, path)
	failed := make(chan error, 1)
	go func() {
		_, err := c.Elicit(t.Context(), Question{Session: session("s", "wait"), Params: json.RawMessage(`{}`)})
		failed <- err
	}()
	await(t, h.started, "the elicitation")
	s.Close()
	for _, err := range []error{
		await(t, failed, "Elicit's return"),
		c.Bridge(t.Context(), session("s2", "files")),
	} {
		var e *jsonrpc.Error
		if !errors.Is(err, ErrDisconnected) || errors.As(err, &e) {
			t.Errorf("err = %#v, want ErrDisconnected and no *Error", err)
		}
	}
}

// TestUnshown checks that bridge/unshown hands the app the elicitation as
// the bridge had it (the params byte for byte, the reason, the time), that
// an app that does not take it says so, and that one without a question
// is refused as invalid.
func TestUnshown(t *testing.T) {
	_, path, h := startServer(t, defaultLimits())
	c := dialClient(t, path)
	u := Unshown{
		Question: Question{Session: session("s1", "files"), Params: json.RawMessage(`{"message":"Pick \u202e one","requestedSchema":{"type":"object","properties":{}}}`)},
		Reason:   "no window can be shown: there is no display",
		At:       time.Date(2026, 11, 23, 10, 42, 1, 0, time.UTC),
	}
	if err := c.Unshown(t.Context(), u); err != nil {
		t.Fatal(err)
	}
	got := await(t, h.unshown, "the entry in the app")
	if string(got.Question.Params) != string(u.Question.Params) || got.Question.Session.ID != "s1" || got.Question.Session.Host != u.Question.Session.Host ||
		got.Reason != u.Reason || !got.At.Equal(u.At) {
		t.Errorf("the app got %+v, want %+v", got, u)
	}

	refused := u
	refused.Question.Session.Server = "refuse"
	var e *jsonrpc.Error
	if err := c.Unshown(t.Context(), refused); !errors.As(err, &e) || e.Code != jsonrpc.CodeServer {
		t.Errorf("Unshown to an app that does not take it = %#v, want its refusal", err)
	}
	if err := c.call(t.Context(), methodUnshown, Unshown{Reason: "no question"}, nil); !errors.As(err, &e) || e.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("Unshown without a question = %#v, want %d", err, jsonrpc.CodeInvalidParams)
	}
	select {
	case u := <-h.unshown:
		t.Errorf("the app took %+v", u)
	default:
	}
}
