package traffic

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/servers/link"
)

// fakeLink hands out the messages it is given to read, and takes writes
// but for a request with id "unsendable".
type fakeLink struct{ in chan link.Message }

func (f *fakeLink) Read() (link.Message, error) {
	m, ok := <-f.in
	if !ok {
		return link.Message{}, io.EOF
	}
	return m, nil
}
func (f *fakeLink) Write(_ context.Context, m link.Message) error {
	if string(m.ID) == `"unsendable"` {
		return errors.New("the server is gone")
	}
	return nil
}
func (f *fakeLink) Close() error { return nil }

// tapped is a record whose clock moves a millisecond each time it is
// read, with one connection of server "demo" tapped.
func tapped(size int) (*Record, *fakeLink, link.Link) {
	r := New(size)
	clock := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	r.now = func() time.Time { clock = clock.Add(time.Millisecond); return clock }
	f := &fakeLink{in: make(chan link.Message, 1)}
	return r, f, r.Tap("demo", f)
}

// pass sends raw the way dir says through the tapped link l.
func pass(t testing.TB, f *fakeLink, l link.Link, dir Dir, raw []byte) {
	t.Helper()
	m, err := link.Parse(raw)
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	if dir == ToServer {
		l.Write(t.Context(), m)
		return
	}
	f.in <- m
	if _, err := l.Read(); err != nil {
		t.Fatal(err)
	}
}

type step struct {
	Dir  Dir             `json:"dir"`
	Raw  json.RawMessage `json:"raw"`
	Want struct {
		Kind      Kind    `json:"kind"`
		Method    string  `json:"method"`
		Tool      string  `json:"tool"`
		ID        string  `json:"id"`
		LatencyMs float64 `json:"latencyMs"`
		Outcome   string  `json:"outcome"`
	} `json:"want"`
}

func readJSON(t testing.TB, name string, v any) {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// conversation passes testdata/conversation.json through a tap and
// returns its record's entries.
func conversation(t testing.TB) ([]step, []Entry) {
	var c struct{ Steps []step }
	readJSON(t, "conversation.json", &c)
	r, f, l := tapped(0)
	for _, s := range c.Steps {
		pass(t, f, l, s.Dir, s.Raw)
	}
	got, _ := r.After(0)
	if len(got) != len(c.Steps) {
		t.Fatalf("%d entries for %d messages", len(got), len(c.Steps))
	}
	return c.Steps, got
}

// TestTapRecordsAConversation: every message makes one entry, with its
// facts and no more; answers and cancels take their request's method,
// tool and latency.
func TestTapRecordsAConversation(t *testing.T) {
	steps, got := conversation(t)
	for i, s := range steps {
		e, w := got[i], s.Want
		if e.Seq != uint64(i+1) || e.Server != "demo" || e.Dir != s.Dir || e.Size != len(s.Raw) {
			t.Errorf("%d: %+v: seq, server, dir or size wrong", i+1, e)
		}
		if e.Kind != w.Kind || string(e.Method) != w.Method || string(e.Tool) != w.Tool || string(e.ID) != w.ID ||
			e.Latency != time.Duration(w.LatencyMs*float64(time.Millisecond)) || e.Outcome() != w.Outcome {
			t.Errorf("%d: got %s %q %q %q %v %q, want %+v", i+1, e.Kind, e.Method, e.Tool, e.ID, e.Latency, e.Outcome(), w)
		}
		if b, _ := json.Marshal(e); strings.Contains(string(b), "secret") || strings.Contains(string(b), "Sure?") {
			t.Errorf("%d: an entry keeps a message's content: %s", i+1, b)
		}
	}
}

// TestToolFailed: a tools/call's result marked isError says the tool
// failed; another answer with the word, or a tool's success, does not.
func TestToolFailed(t *testing.T) {
	r, f, l := tapped(0)
	for _, m := range []struct {
		dir Dir
		raw string
	}{
		{ToServer, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"flaky"}}`},
		{FromServer, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"disk full"}],"isError":true}}`},
		{ToServer, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"steady"}}`},
		{FromServer, `{"jsonrpc":"2.0","id":2,"result":{"content":[],"isError":false}}`},
		{ToServer, `{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{}}`},
		{FromServer, `{"jsonrpc":"2.0","id":3,"result":{"isError":true}}`},
	} {
		pass(t, f, l, m.dir, []byte(m.raw))
	}
	got, _ := r.After(0)
	var outcomes []string
	for _, e := range got {
		if o := e.Outcome(); o != "" {
			outcomes = append(outcomes, o)
		}
	}
	if want := []string{"ok, the tool failed", "ok", "ok"}; !slices.Equal(outcomes, want) {
		t.Errorf("outcomes %q, want %q", outcomes, want)
	}
}

// TestFilter picks entries as testdata/filters.json says, and refuses the
// words it does not know.
func TestFilter(t *testing.T) {
	_, entries := conversation(t)
	var cases struct {
		Cases []struct {
			Words []string
			Picks []int
		}
		Bad []string
	}
	readJSON(t, "filters.json", &cases)
	for _, c := range cases.Cases {
		f, err := ParseFilter(c.Words)
		if err != nil {
			t.Errorf("%q: %v", c.Words, err)
			continue
		}
		var picked []int
		for i, e := range entries {
			if f.Match(e) {
				picked = append(picked, i+1)
			}
		}
		if !equal(picked, c.Picks) {
			t.Errorf("%q picked %v, want %v", c.Words, picked, c.Picks)
		}
	}
	for _, w := range cases.Bad {
		if _, err := ParseFilter([]string{w}); err == nil {
			t.Errorf("%q was taken", w)
		}
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestTransportsOwn: an error the transport made up for a request it
// could not deliver says so, and a request that could not be written
// waits for no answer.
func TestTransportsOwn(t *testing.T) {
	r, f, l := tapped(0)
	pass(t, f, l, ToServer, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	m, _ := link.Parse([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"connection refused"}}`))
	m.Cause = errors.New("connection refused")
	f.in <- m
	l.Read()
	got, _ := r.After(1)
	if len(got) != 1 || !got[0].Local || got[0].Outcome() != "error -32000, not sent by the server" || got[0].Method != "tools/list" {
		t.Errorf("the transport's error: %+v %q", got, got[0].Outcome())
	}
	unsendable, _ := link.Parse([]byte(`{"jsonrpc":"2.0","id":"unsendable","method":"ping"}`))
	if l.Write(t.Context(), unsendable) == nil {
		t.Fatal("the fake link wrote it")
	}
	if n := len(l.(*tap).waiting); n != 0 {
		t.Errorf("%d requests wait for an answer", n)
	}
}

// TestRingKeepsTheLatest: a full ring drops its oldest entries, numbered
// on; After and Wait see what it still holds.
func TestRingKeepsTheLatest(t *testing.T) {
	r, f, l := tapped(3)
	for range 5 {
		pass(t, f, l, FromServer, []byte(`{"jsonrpc":"2.0","method":"notifications/message"}`))
	}
	got, _ := r.After(0)
	if len(got) != 3 || got[0].Seq != 3 || got[2].Seq != 5 {
		t.Fatalf("the ring holds %+v, want entries 3 to 5", got)
	}
	if got, _ := r.After(4); len(got) != 1 || got[0].Seq != 5 {
		t.Errorf("After(4) = %+v", got)
	}
	next := make(chan []Entry, 1)
	go func() {
		got, err := r.Wait(t.Context(), 5)
		if err != nil {
			t.Error(err)
		}
		next <- got
	}()
	pass(t, f, l, ToServer, []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if got := <-next; len(got) != 1 || got[0].Seq != 6 || got[0].Method != "ping" {
		t.Errorf("Wait(5) = %+v", got)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := r.Wait(ctx, 6); err == nil {
		t.Error("Wait returned nothing new without an error")
	}
}

// TestBounds: a peer that never answers cannot grow a connection's
// memory of requests, and what a peer names is cut, the cut visible.
func TestBounds(t *testing.T) {
	r, f, l := tapped(0)
	for i := range maxWaiting + 10 {
		pass(t, f, l, FromServer, []byte(`{"jsonrpc":"2.0","id":`+itoa(i)+`,"method":"sampling/createMessage"}`))
	}
	if n := len(l.(*tap).waiting); n != maxWaiting {
		t.Errorf("%d requests remembered, want %d", n, maxWaiting)
	}
	long := strings.Repeat("\u202e", 5000)
	pass(t, f, l, FromServer, []byte(`{"jsonrpc":"2.0","id":"`+long+`","method":"`+long+`"}`))
	got, _ := r.After(uint64(maxWaiting + 10))
	if len(got) != 1 || len(got[0].Method) > FieldBytes || len(got[0].ID) > FieldBytes || !strings.Contains(got[0].Method.Line(), "cut") {
		t.Errorf("a long method kept as %q", got[0].Method)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// FuzzTap: any message a peer sends makes one entry with its words
// within bounds, and no panic.
func FuzzTap(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":"not a number"}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{"deep":[1]}}}`,
		`{"jsonrpc":"2.0","id":null,"result":7}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := link.Parse(raw)
		if err != nil {
			return
		}
		r, fl, l := tapped(4)
		fl.in <- m
		l.Read()
		l.Write(t.Context(), m)
		got, _ := r.After(0)
		if len(got) != 2 {
			t.Fatalf("%d entries for 2 messages", len(got))
		}
		for _, e := range got {
			for _, w := range []untrusted.Text{e.Method, e.Tool, e.ID} {
				if len(w) > 4*FieldBytes {
					t.Fatalf("a word of %d bytes kept", len(w))
				}
			}
		}
	})
}

// BenchmarkTap is what the record adds to one call: its request out and
// its answer in, of a small result and of a large one. Beside
// servers.BenchmarkRoundTrip (a whole elicitation in process) it is the
// share of a call the record costs.
func BenchmarkTap(b *testing.B) {
	for _, size := range []int{300, 64 << 10} {
		b.Run(itoa(size)+"B", func(b *testing.B) {
			_, f, l := tapped(0)
			call := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}`)
			result := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat("x", size) + `"}]}}`)
			mc, _ := link.Parse(call)
			mr, _ := link.Parse(result)
			b.ReportAllocs()
			for b.Loop() {
				l.Write(b.Context(), mc)
				f.in <- mr
				l.Read()
			}
		})
	}
}

// TestAddBridgedKnownWords: an entry whose kind or direction a bridge made
// up is not kept: the windows show those words as they are.
func TestAddBridgedKnownWords(t *testing.T) {
	r := New(0)
	r.Listed("s1", "files", "Cursor")
	r.AddBridged("s1", []Entry{
		{Kind: Request, Dir: ToServer, Method: "ping"},
		{Kind: "request\u202e", Dir: ToServer},
		{Kind: Result, Dir: "sideways"},
	}, nil, nil)
	if got, _ := r.After(0); len(got) != 1 || got[0].Method != "ping" {
		t.Errorf("kept %+v", got)
	}
}

// TestScope: a capture keeps every server's messages, or those of the
// servers and sessions it names; naming one, and letting go of it, leaves
// the rest as they were.
func TestScope(t *testing.T) {
	tests := []struct {
		name            string
		scope           Scope
		server, session string
		keeps           bool
	}{
		{"none", Scope{}, "demo", "", false},
		{"all", Scope{All: true}, "demo", "s1", true},
		{"a server named", Scope{Servers: []string{"demo"}}, "demo", "", true},
		{"its bridged sessions too", Scope{Servers: []string{"demo"}}, "demo", "s1", true},
		{"another server", Scope{Servers: []string{"demo"}}, "notes", "", false},
		{"a session named", Scope{Sessions: []string{"s1"}}, "demo", "s1", true},
		{"not its server's own connection", Scope{Sessions: []string{"s1"}}, "demo", "", false},
		{"an empty session is no name", Scope{Sessions: []string{""}}, "demo", "", false},
	}
	for _, tt := range tests {
		if got := tt.scope.Keeps(tt.server, tt.session); got != tt.keeps {
			t.Errorf("%s: %+v keeps %q/%q: %v", tt.name, tt.scope, tt.server, tt.session, got)
		}
	}
	s := Scope{Servers: []string{"demo"}}
	on := s.With("notes", "", true).With("", "s1", true).With("notes", "", true)
	if !slices.Equal(on.Servers, []string{"demo", "notes"}) || !slices.Equal(on.Sessions, []string{"s1"}) || !slices.Equal(s.Servers, []string{"demo"}) {
		t.Errorf("named: %+v, from %+v", on, s)
	}
	if off := on.With("demo", "", false).With("", "s1", false); !slices.Equal(off.Servers, []string{"notes"}) || len(off.Sessions) != 0 || off.None() {
		t.Errorf("let go: %+v", off)
	}
	if (Scope{}).None() != true || (Scope{Servers: make([]string, MaxScoped+1)}).Check() == nil {
		t.Error("None or Check")
	}
}
