package servers

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/servers/config"
	"github.com/elicitdesk/elicitdesk/servers/rpc"
)

func TestParseParams(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "params", "*.json"))
	if len(files) == 0 {
		t.Fatal("no cases")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var c struct {
				Params json.RawMessage `json:"params"`
				Mode   Mode            `json:"mode"`
				Code   int             `json:"code"`
				Reason string          `json:"reason"`
			}
			if err := json.Unmarshal(raw, &c); err != nil {
				t.Fatal(err)
			}
			p, err := ParseParams(c.Params)
			if c.Code == 0 {
				if err != nil || p.Mode != c.Mode {
					t.Fatalf("got %+v %v, want mode %s", p, err, c.Mode)
				}
				return
			}
			var rpc *jsonrpc.Error
			if !errors.As(err, &rpc) || rpc.Code != c.Code {
				t.Fatalf("got %v, want code %d", err, c.Code)
			}
			detail, _ := json.Marshal(rpc)
			if !strings.Contains(string(detail), c.Reason) {
				t.Errorf("error %s does not say %q", detail, c.Reason)
			}
		})
	}
}

func TestParseParamsKeepsSchemaBytes(t *testing.T) {
	raw := `{"message":"m","requestedSchema":{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"string"}}}}`
	p, err := ParseParams(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(p.Schema); got != `{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"string"}}}` {
		t.Errorf("schema bytes changed: %s", got)
	}
}

// TestParseParamsParsesSchema checks that form params carry the parsed
// schema, in the server's order, so no caller parses it again.
func TestParseParamsParsesSchema(t *testing.T) {
	p, err := ParseParams(json.RawMessage(`{"message":"m","requestedSchema":{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"string"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if p.Form == nil || len(p.Form.Fields) != 2 || p.Form.Fields[0].Name != "z" || p.Form.Fields[1].Name != "a" {
		t.Fatalf("parsed schema %+v, want fields z, a", p.Form)
	}
	r := newQueued(DefaultLimits)
	asked := make(chan struct{})
	go func() {
		defer close(asked)
		r.Ask(context.Background(), Identity{Name: "s"}, p)
	}()
	e := next(t, r)
	if e.Form != p.Form {
		t.Errorf("the elicitation does not carry the parsed schema")
	}
	e.Reply(forms.Result{Action: forms.Cancel})
	<-asked
}

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

var formParams = Params{Message: "m", Mode: ModeForm, Schema: json.RawMessage(`{"type":"object","properties":{}}`)}

// ask runs Router.Ask in the background and returns where its answer lands.
func ask(r *queued, ctx context.Context, server string) <-chan answer {
	out := make(chan answer, 1)
	go func() {
		res, err := r.Ask(ctx, Identity{Name: server}, formParams)
		out <- answer{res, err}
	}()
	return out
}

type answer struct {
	res forms.Result
	err error
}

// queued is a Router whose requests queue for the test to take, one at a
// time, as the core takes them.
type queued struct {
	*Router
	asked chan *Elicitation
}

func newQueued(limits Limits) *queued {
	q := &queued{NewRouter(limits, quietLog()), make(chan *Elicitation, 64)}
	q.OnAsked(func(e *Elicitation) { q.asked <- e })
	return q
}

func next(t testing.TB, q *queued) *Elicitation {
	t.Helper()
	select {
	case e := <-q.asked:
		return e
	case <-time.After(10 * time.Second):
		t.Fatal("no request was asked")
		return nil
	}
}

func TestRouterRepliesOnce(t *testing.T) {
	r := newQueued(DefaultLimits)
	got := ask(r, context.Background(), "a")
	e := next(t, r)
	if e.Server.Name != "a" || e.Mode != ModeForm {
		t.Fatalf("routed %+v", e)
	}
	if err := e.Reply(forms.Result{Action: forms.Decline}); err != nil {
		t.Fatal(err)
	}
	if err := e.Reply(forms.Result{Action: forms.Accept}); !errors.Is(err, ErrAnswered) {
		t.Errorf("second reply: %v", err)
	}
	if a := <-got; a.err != nil || a.res.Action != forms.Decline {
		t.Errorf("server got %+v", a)
	}
	if e.Context().Err() == nil {
		t.Error("context still live after the answer")
	}
}

func TestRouterServerStopsWaiting(t *testing.T) {
	r := newQueued(DefaultLimits)
	ctx, cancel := context.WithCancelCause(context.Background())
	got := ask(r, ctx, "a")
	e := next(t, r)
	stopped := errors.New("server cancelled the request")
	cancel(stopped)
	<-e.Context().Done()
	if !errors.Is(context.Cause(e.Context()), stopped) {
		t.Errorf("cause %v", context.Cause(e.Context()))
	}
	if err := e.Reply(forms.Result{Action: forms.Accept}); err == nil {
		t.Error("a reply to a stale request was accepted")
	}
	if a := <-got; !errors.Is(a.err, stopped) {
		t.Errorf("Ask returned %+v", a)
	}
}

func TestRouterLimits(t *testing.T) {
	r := newQueued(Limits{Waiting: 2, PerMinute: 3})
	clock := time.Date(2025, 2, 14, 9, 0, 0, 0, time.UTC)
	r.now = func() time.Time { return clock }

	first, second := ask(r, context.Background(), "flood"), ask(r, context.Background(), "flood")
	e1, e2 := next(t, r), next(t, r)
	// A third waiting request from the same server is refused at once...
	if a := <-ask(r, context.Background(), "flood"); !rateLimited(a.err) {
		t.Fatalf("over the waiting limit: %+v", a)
	}
	// ...while another server is still heard.
	other := ask(r, context.Background(), "quiet")
	if e := next(t, r); e.Server.Name != "quiet" {
		t.Fatalf("next is %s", e.Server.Name)
	} else {
		e.Reply(forms.Result{Action: forms.Cancel})
	}
	<-other
	e1.Reply(forms.Result{Action: forms.Decline})
	e2.Reply(forms.Result{Action: forms.Decline})
	<-first
	<-second

	// Two answered, so one more may wait; the per-minute count is 2 of 3.
	third := ask(r, context.Background(), "flood")
	next(t, r).Reply(forms.Result{Action: forms.Decline})
	<-third
	if a := <-ask(r, context.Background(), "flood"); !rateLimited(a.err) {
		t.Fatalf("over the per-minute limit: %+v", a)
	}
	clock = clock.Add(time.Minute)
	later := ask(r, context.Background(), "flood")
	next(t, r).Reply(forms.Result{Action: forms.Decline})
	if a := <-later; a.res.Action != forms.Decline {
		t.Fatalf("a minute later: %+v", a)
	}
}

func TestRouterCompleteIgnoresUnknownIDs(t *testing.T) {
	r := newQueued(DefaultLimits)
	p := Params{Message: "m", Mode: ModeURL, URL: "https://example.com", ElicitationID: "e1"}
	go r.Ask(context.Background(), Identity{Name: "a"}, p)
	e := next(t, r)
	if r.Complete(Identity{Name: "a"}, "other") || r.Complete(Identity{Name: "b"}, "e1") || r.Complete(Identity{Name: "a", Machine: "devbox"}, "e1") ||
		r.Complete(Identity{Name: "a", Session: "s1"}, "e1") {
		t.Fatal("completed an unknown id, another server's, or a server's of the same name on another machine or bridged")
	}
	if !r.Complete(Identity{Name: "a"}, "e1") {
		t.Fatal("did not complete")
	}
	<-e.Completed()
	if r.Complete(Identity{Name: "a"}, "e1") {
		t.Error("completed twice")
	}
	e.Reply(forms.Result{Action: forms.Cancel})
}

func TestPerServerLimits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "servers.json")
	if err := os.WriteFile(path, []byte(`{"mcpServers": {
		"tight": {"command": "x", "maxWaiting": 1, "maxPerMinute": 10},
		"bad": {"command": "x", "maxWaiting": 0}
	}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	tight, bad := cfg.Servers[0], cfg.Servers[1]
	if got := DefaultLimits.For(tight); got != (Limits{Waiting: 1, PerMinute: 10}) {
		t.Errorf("limits %+v", got)
	}
	if bad.Err == nil || !strings.Contains(bad.Err.Error(), "1 or more") {
		t.Errorf("maxWaiting 0 accepted: %v", bad.Err)
	}

	r := newQueued(DefaultLimits)
	r.SetLimits("tight", DefaultLimits.For(tight))
	first := ask(r, context.Background(), "tight")
	e := next(t, r)
	if a := <-ask(r, context.Background(), "tight"); !rateLimited(a.err) {
		t.Fatalf("a second waiting request was let through: %+v", a)
	}
	other := ask(r, context.Background(), "roomy") // default limits
	second := ask(r, context.Background(), "roomy")
	next(t, r).Reply(forms.Result{Action: forms.Decline})
	next(t, r).Reply(forms.Result{Action: forms.Decline})
	<-other
	<-second
	e.Reply(forms.Result{Action: forms.Decline})
	<-first
}

func TestRouterReportsRefusals(t *testing.T) {
	f := newFakeServer(t)
	_, r := dialFake(t, f)
	refused := make(chan Refusal, 10)
	r.OnRefused(func(x Refusal) { refused <- x })

	f.send(`{"jsonrpc":"2.0","id":"bad","method":"elicitation/create","params":{"message":"pick","requestedSchema":{"type":"object","properties":{"n":{"type":"object"}}}}}`)
	if m := f.serveLegacy(""); m.Error == nil || m.Error.Code != jsonrpc.CodeInvalidParams {
		t.Fatalf("fatal schema answered %+v", m)
	}
	x := <-refused
	var rpc *jsonrpc.Error
	if x.Message != "pick" || x.Mode != "" || len(x.Schema) == 0 || !errors.As(x.Err, &rpc) || x.Server.Name == "" {
		t.Fatalf("refusal %+v", x)
	}

	r.SetLimits(x.Server.Name, Limits{Waiting: 1, PerMinute: 10})
	f.send(elicitLine(`"kept"`, "first"))
	f.send(elicitLine(`"over"`, "second"))
	// The two are handled concurrently: either may be the one refused.
	x = <-refused
	if x.Message != "first" && x.Message != "second" || !errors.Is(x.Err, ErrRateLimited) {
		t.Fatalf("rate-limit refusal %+v", x)
	}
	f.serveLegacy("")
	if e := next(t, r); e.Message == x.Message {
		t.Fatalf("the refused request %q was queued too", e.Message)
	} else {
		e.Reply(forms.Result{Action: forms.Decline})
	}
	f.serveLegacy("")
}

// TestRefuseAnswersAnError: an elicitation refused in the person's
// place answers the server with the error, not a result; a reply after
// it counts no more.
func TestRefuseAnswersAnError(t *testing.T) {
	r := newQueued(DefaultLimits)
	got := ask(r, context.Background(), "a")
	e := next(t, r)
	refusal := &jsonrpc.Error{Code: jsonrpc.CodeInternal, Message: "the elicitation could not be asked"}
	if err := e.Refuse(refusal); err != nil {
		t.Fatal(err)
	}
	if a := <-got; a.err != refusal {
		t.Errorf("the server got %+v, %v; want the refusal", a.res, a.err)
	}
	if err := e.Reply(forms.Result{Action: forms.Accept}); !errors.Is(err, ErrAnswered) {
		t.Errorf("a reply after the refusal: %v", err)
	}
}

// TestGoneWithItsConnection: an elicitation's Gone stays open after its
// answer while its connection lives, and closes when the connection ends:
// a URL request's step can no longer be reported complete then.
func TestGoneWithItsConnection(t *testing.T) {
	f := newFakeServer(t)
	_, r := dialFake(t, f)
	go f.send(elicitLine(`"x"`, "open a link"))
	e := next(t, r)
	e.Reply(forms.Result{Action: forms.Accept, Content: json.RawMessage(`{"ok":true}`)})
	f.serveLegacy("")
	select {
	case <-e.Gone():
		t.Fatal("gone while the connection lives")
	default:
	}
	f.out.Close()
	select {
	case <-e.Gone():
	case <-time.After(10 * time.Second):
		t.Fatal("not gone once the connection ended")
	}
}

// TestCancelThenGone: a server that cancels its request and then goes
// away ends the request for its cancel, with its reason, not for its
// going: the cancel came first on the wire, though the connection's end
// and the cancel are heard on goroutines of their own.
func TestCancelThenGone(t *testing.T) {
	for range 20 {
		f := newFakeServer(t)
		_, r := dialFake(t, f)
		go f.send(elicitLine(`"x"`, "still there?"))
		e := next(t, r)
		f.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"x","reason":"no answer within 3s"}}`)
		f.out.Close()
		<-e.Context().Done()
		if cause := context.Cause(e.Context()); !errors.Is(cause, rpc.ErrCancelled) || !strings.Contains(cause.Error(), "no answer within 3s") {
			t.Fatalf("the request ended for %v, want the server's cancel", cause)
		}
	}
}

func TestRouterExpectCompletes(t *testing.T) {
	r := newQueued(DefaultLimits)
	e := r.Expect(Identity{Name: "a"}, Params{Message: "m", Mode: ModeURL, URL: "https://example.com", ElicitationID: "x"})
	if !r.Complete(Identity{Name: "a"}, "x") {
		t.Fatal("an expected link did not complete")
	}
	<-e.Completed()
	if err := e.Reply(forms.Result{Action: forms.Accept}); err != nil {
		t.Fatalf("reply: %v", err)
	}
	select {
	case got := <-r.asked:
		t.Fatalf("an expected link was asked: %+v", got)
	default:
	}
}

// TestAskRaw checks the one path of raw parameters: unusable ones are
// refused with the error to send back and reported with who asked (the
// host too), usable ones are queued with the whole identity.
func TestAskRaw(t *testing.T) {
	who := Identity{Name: "files", Target: "npx files", Reported: ServerInfo{Name: "files-srv"}, Host: HostInfo{Name: "claude-ai", Title: "Claude Desktop"}}
	tests := []struct {
		name    string
		raw     string
		refused bool
	}{
		{"form", `{"message":"Pick","requestedSchema":{"type":"object","properties":{"a":{"type":"string"}}}}`, false},
		{"no message", `{"requestedSchema":{"type":"object","properties":{}}}`, true},
		{"bad schema", `{"message":"m","requestedSchema":{"type":"object","properties":{"a":{"type":"nothing"}}}}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newQueued(DefaultLimits)
			refusals := make(chan Refusal, 1)
			r.OnRefused(func(x Refusal) { refusals <- x })
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			done := make(chan error, 1)
			go func() {
				_, err := r.AskRaw(ctx, who, json.RawMessage(tt.raw))
				done <- err
			}()
			if tt.refused {
				var rpc *jsonrpc.Error
				if err := <-done; !errors.As(err, &rpc) || rpc.Code != jsonrpc.CodeInvalidParams {
					t.Errorf("AskRaw = %v, want -32602", err)
				}
				if x := <-refusals; x.Server != who {
					t.Errorf("refusal by %+v, want %+v", x.Server, who)
				}
				return
			}
			e := next(t, r)
			if e.Server != who {
				t.Fatalf("asked by %+v, want by %+v", e.Server, who)
			}
			e.Reply(forms.Result{Action: forms.Decline})
			if err := <-done; err != nil {
				t.Error(err)
			}
		})
	}
}

// rateLimited reports whether err is the refusal of a request over its
// server's limits: a JSON-RPC error, never a cancel the server would take
// for the person's.
func rateLimited(err error) bool {
	var rpc *jsonrpc.Error
	return errors.As(err, &rpc) && rpc.Code == jsonrpc.CodeServer && strings.HasPrefix(rpc.Message, "rate limited: ")
}

// TestRefusalsReportedWithinLimits: a server, or another machine, that
// floods refusals has at most refusalsReported of them reported a minute (the
// history keeps each reported one); past it they are refused unreported,
// and each machine counts apart from this one's servers.
func TestRefusalsReportedWithinLimits(t *testing.T) {
	r := NewRouter(Limits{Waiting: 5, PerMinute: 3}, slog.New(slog.DiscardHandler))
	r.SetLimits("noisy", Limits{Waiting: -1, PerMinute: -1}) // its own limits: none admitted, its refusals still reported
	reported := map[string]int{}
	r.OnRefused(func(x Refusal) { reported[x.Server.Name+"@"+x.Server.Machine]++ })
	bad := json.RawMessage(`{"message":"x","requestedSchema":{"type":"object","properties":{"n":{"type":"object"}}}}`)
	for range refusalsReported + 10 {
		r.AskRaw(context.Background(), Identity{Name: "noisy"}, bad)
		r.AskRaw(context.Background(), Identity{Name: "noisy", Machine: "devbox"}, bad)
		r.AskRaw(context.Background(), Identity{Name: "other", Machine: "devbox"}, bad)
	}
	if reported["noisy@"] != refusalsReported || reported["noisy@devbox"]+reported["other@devbox"] != refusalsReported {
		t.Errorf("reported %v, want %d of this machine's server and %[2]d of devbox's, whatever it names", reported, refusalsReported)
	}
}
