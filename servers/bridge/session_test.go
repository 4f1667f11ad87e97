package bridge

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/servers/link"
)

// TestUnchanged passes messages of every kind, known or not, both ways
// byte for byte and in order.
func TestUnchanged(t *testing.T) {
	f, err := os.Open("testdata/unchanged.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	for sc := bufio.NewScanner(f); sc.Scan(); {
		lines = append(lines, sc.Text())
	}
	s := start(t, newDesk(), Options{})
	for _, l := range lines {
		s.host.send(l)
		s.server.send(l)
	}
	for _, l := range lines {
		if got := s.server.next(); got != l {
			t.Errorf("the server got\n%s\nwant\n%s", got, l)
		}
		if got := s.host.next(); got != l {
			t.Errorf("the host got\n%s\nwant\n%s", got, l)
		}
	}
}

// TestDeclaresElicitation declares every mode upstream whatever the host
// declared, changing nothing else, and tells the desk who the host is.
func TestDeclaresElicitation(t *testing.T) {
	tests := []struct{ name, sent, want string }{
		{"initialize",
			`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"sampling":{}},"clientInfo":{"name":"claude","title":"Claude Desktop"}}}`,
			`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"sampling":{},"elicitation":{"form":{},"url":{}}},"clientInfo":{"name":"claude","title":"Claude Desktop"}}}`},
		{"initialize with form only",
			`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{"elicitation":{}},"clientInfo":{"name":"claude","title":"Claude Desktop"}}}`,
			`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{"elicitation":{"form":{},"url":{}}},"clientInfo":{"name":"claude","title":"Claude Desktop"}}}`},
		{"2026-07-28 _meta",
			`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"claude","title":"Claude Desktop"},"io.modelcontextprotocol/clientCapabilities":{"roots":{}}}}}`,
			`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"claude","title":"Claude Desktop"},"io.modelcontextprotocol/clientCapabilities":{"roots":{},"elicitation":{"form":{},"url":{}}}}}}`},
		{"2026-07-28 without capabilities",
			`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"claude","title":"Claude Desktop"}}}}`,
			`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"claude","title":"Claude Desktop"},"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{},"url":{}}}}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := start(t, newDesk(), Options{})
			s.host.send(tt.sent)
			if got := s.server.next(); got != tt.want {
				t.Errorf("the server got\n%s\nwant\n%s", got, tt.want)
			}
			s.server.send(`{"jsonrpc":"2.0","id":` + gjson.Get(tt.sent, "id").Raw + `,"method":"elicitation/create","params":{"message":"hi","requestedSchema":{"type":"object","properties":{}}}}`)
			q := s.desk.question(t)
			if q.q.Session.Host.Title != "Claude Desktop" || q.q.Session.Server != "everything" {
				t.Errorf("the desk was told %+v", q.q.Session)
			}
		})
	}
}

// TestHostNamedOnce checks the windows' "for HOST" is what the host first
// said of itself: a later initialize, or a later request's 2026-07-28
// clientInfo, does not rename it (issue 22).
func TestHostNamedOnce(t *testing.T) {
	const (
		init       = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"clientInfo":{"name":"claude","title":"Claude Desktop"}}}`
		reinit     = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"evil","title":"Trusted Host"}}}`
		meta       = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"claude","title":"Claude Desktop"}}}}`
		metaOther  = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"evil","title":"Trusted Host"}}}}`
		metaNoInfo = `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`
	)
	for _, tt := range []struct {
		name string
		sent []string
	}{
		{"initialize again", []string{init, reinit}},
		{"a request after initialize", []string{init, metaOther}},
		{"a later 2026-07-28 request", []string{meta, metaOther}},
		{"a first request without clientInfo", []string{metaNoInfo, meta, reinit, metaOther}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := start(t, newDesk(), Options{})
			for _, m := range tt.sent {
				s.host.send(m)
				s.server.next()
			}
			s.server.send(`{"jsonrpc":"2.0","id":"e","method":"elicitation/create","params":{"message":"hi","requestedSchema":{"type":"object","properties":{}}}}`)
			if h := s.desk.question(t).q.Session.Host; h.Title != "Claude Desktop" || h.Name != "claude" {
				t.Errorf("the desk was told the host is %+v, want Claude Desktop", h)
			}
			s.desk.mu.Lock()
			defer s.desk.mu.Unlock()
			for _, b := range s.desk.listed {
				if b.Host.Name == "evil" {
					t.Errorf("the session was listed as %+v", b)
				}
			}
		})
	}
}

// TestElicitationAtTheDesk answers a server's elicitation/create with the
// person's answer; the host never sees it.
func TestElicitationAtTheDesk(t *testing.T) {
	s := start(t, newDesk(), Options{})
	s.initialize(t, `{}`)
	s.host.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask"}}`)
	s.server.next()
	params := `{"message":"Name?","requestedSchema":{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"string"}}}}`
	s.server.send(`{"jsonrpc":"2.0","id":0,"method":"elicitation/create","params":` + params + `}`)
	q := s.desk.question(t)
	if string(q.q.Params) != params {
		t.Errorf("the desk got params\n%s\nwant\n%s", q.q.Params, params)
	}
	if q.q.Session.Reported.Name != "everything" || q.q.Session.Host.Name != "claude" {
		t.Errorf("the desk was told %+v", q.q.Session)
	}
	q.answer <- answer{raw: []byte(`{"action":"accept","content":{"z":"Ada"}}`)}
	if got, want := s.server.next(), `{"jsonrpc":"2.0","id":0,"result":{"action":"accept","content":{"z":"Ada"}}}`; got != want {
		t.Errorf("the server got %s, want %s", got, want)
	}
	s.server.send(`{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`)
	if got := s.host.next(); gjson.Get(got, "id").Int() != 1 || !gjson.Get(got, "result").Exists() {
		t.Errorf("the host got %s, want the tool's result", got)
	}
}

// TestBurstAskedInOrder: a server's burst of elicitations reaches the
// desk in the order the server sent it, however the goroutines that ask
// them run.
func TestBurstAskedInOrder(t *testing.T) {
	s := start(t, newDesk(), Options{})
	s.initialize(t, `{}`)
	for i := 1; i <= 8; i++ {
		s.server.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"elicitation/create","params":{"message":"%d","requestedSchema":{"type":"object","properties":{}}}}`, i, i))
	}
	var asked []string
	for range 8 {
		asked = append(asked, gjson.GetBytes(s.desk.question(t).q.Params, "message").String())
	}
	if want := []string{"1", "2", "3", "4", "5", "6", "7", "8"}; !slices.Equal(asked, want) {
		t.Errorf("the desk was asked %q, want %q", asked, want)
	}
}

// TestBurstToHostInOrder: with no window to show them, a server's burst of
// elicitations reaches the host, which declared elicitation, in the order
// the server sent it.
func TestBurstToHostInOrder(t *testing.T) {
	desk := newDesk()
	desk.noWindow = true
	s := start(t, desk, Options{})
	s.initialize(t, `{"elicitation":{}}`)
	for i := 1; i <= 8; i++ {
		s.server.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"elicitation/create","params":{"message":"%d","requestedSchema":{"type":"object","properties":{}}}}`, i, i))
	}
	var handed []string
	for range 8 {
		handed = append(handed, gjson.Get(s.host.nextMethod("elicitation/create"), "params.message").String())
	}
	if want := []string{"1", "2", "3", "4", "5", "6", "7", "8"}; !slices.Equal(handed, want) {
		t.Errorf("the host was handed %q, want %q", handed, want)
	}
}

// TestDeskRefuses sends the app's refusal back as the error it is.
func TestDeskRefuses(t *testing.T) {
	s := start(t, newDesk(), Options{})
	s.server.send(`{"jsonrpc":"2.0","id":4,"method":"elicitation/create","params":{"message":"x"}}`)
	s.desk.question(t).answer <- answer{err: &jsonrpc.Error{Code: -32602, Message: "form elicitation has no requestedSchema", Data: []byte(`{"problems":[]}`)}}
	if got, want := s.server.next(), `{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"form elicitation has no requestedSchema","data":{"problems":[]}}}`; got != want {
		t.Errorf("the server got %s, want %s", got, want)
	}
}

// TestNoWindow gives the elicitation to a host that declared the mode,
// and answers cancel when it did not; either is recorded, as what it was.
func TestNoWindow(t *testing.T) {
	elicit := `{"jsonrpc":"2.0","id":5,"method":"elicitation/create","params":{"mode":"url","message":"Sign in","url":"https://example.com","elicitationId":"e1"}}`
	tests := []struct {
		name, caps string
		toHost     bool
	}{
		{"host takes url mode", `{"elicitation":{"url":{}}}`, true},
		{"host takes form mode only", `{"elicitation":{}}`, false},
		{"host declared none", `{}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			desk := newDesk()
			desk.noWindow = true
			s := start(t, desk, Options{})
			s.initialize(t, tt.caps)
			s.server.send(elicit)
			if u := <-s.unshown; u.ToHost != tt.toHost || !strings.Contains(u.Reason, "no window") || !strings.Contains(string(u.Question.Params), "Sign in") {
				t.Errorf("recorded %+v, want toHost %v", u, tt.toHost)
			}
			if !tt.toHost {
				if got, want := s.server.next(), `{"jsonrpc":"2.0","id":5,"result":{"action":"cancel"}}`; got != want {
					t.Errorf("the server got %s, want %s", got, want)
				}
				return
			}
			if got := s.host.next(); got != elicit {
				t.Fatalf("the host got %s, want the elicitation", got)
			}
			s.host.send(`{"jsonrpc":"2.0","id":5,"result":{"action":"accept"}}`)
			s.server.next()
			complete := `{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{"elicitationId":"e1"}}`
			s.server.send(complete)
			if got := s.host.next(); got != complete {
				t.Errorf("the host got %s, want its elicitation's completion", got)
			}
		})
	}
}

// TestInputRequired answers a 2026-07-28 input_required result at the desk
// and retries under the bridge's own id; the host sees the final result
// under its id, and never an id collision.
func TestInputRequired(t *testing.T) {
	s := start(t, newDesk(), Options{})
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":"p"}`
	s.host.send(`{"jsonrpc":"2.0","id":"elicitdesk-1","method":"tools/call","params":{"name":"input_required",` + meta + `}}`)
	first := s.server.next()
	s.server.send(`{"jsonrpc":"2.0","id":"elicitdesk-1","result":{"resultType":"input_required","inputRequests":{"color":{"method":"elicitation/create","params":{"message":"Colour?","requestedSchema":{"type":"object","properties":{"c":{"type":"string"}}}}}},"requestState":"st8"}}`)
	q := s.desk.question(t)
	q.answer <- answer{raw: []byte(`{"action":"accept","content":{"c":"red"}}`)}
	retry := s.server.next()
	if id := gjson.Get(retry, "id").String(); id == "elicitdesk-1" || id == "" {
		t.Errorf("the retry reused the host's id: %s", retry)
	}
	if got := gjson.Get(retry, "params.inputResponses.color.content.c").String(); got != "red" {
		t.Errorf("the retry carries %s", retry)
	}
	if got := gjson.Get(retry, "params.requestState").String(); got != "st8" {
		t.Errorf("the retry's requestState is %q", got)
	}
	if gjson.Get(retry, "params.name").String() != gjson.Get(first, "params.name").String() || !gjson.Get(retry, `params._meta.io\.modelcontextprotocol/clientCapabilities.elicitation`).Exists() {
		t.Errorf("the retry is not the host's request: %s", retry)
	}
	s.server.send(`{"jsonrpc":"2.0","id":` + gjson.Get(retry, "id").Raw + `,"result":{"content":[{"type":"text","text":"red it is"}]}}`)
	if got, want := s.host.next(), `{"jsonrpc":"2.0","id":"elicitdesk-1","result":{"content":[{"type":"text","text":"red it is"}]}}`; got != want {
		t.Errorf("the host got %s, want %s", got, want)
	}
}

// TestInputRequiredMixed answers the elicitations and leaves sampling to
// the host; the host's retry carries the person's answers too.
func TestInputRequiredMixed(t *testing.T) {
	s := start(t, newDesk(), Options{})
	s.host.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`)
	s.server.next()
	s.server.send(`{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"a.b":{"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":{}}}},"llm":{"method":"sampling/createMessage","params":{"maxTokens":1,"messages":[]}}},"requestState":"s"}}`)
	s.desk.question(t).answer <- answer{raw: []byte(`{"action":"decline"}`)}
	got := s.host.next()
	if gjson.Get(got, `result.inputRequests.a\.b`).Exists() || !gjson.Get(got, "result.inputRequests.llm").Exists() {
		t.Fatalf("the host got %s, want only the sampling request", got)
	}
	s.host.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","inputResponses":{"llm":{"role":"assistant"}},"requestState":"s","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`)
	retry := s.server.next()
	if gjson.Get(retry, `params.inputResponses.a\.b.action`).String() != "decline" || !gjson.Get(retry, "params.inputResponses.llm").Exists() {
		t.Errorf("the host's retry reached the server as %s", retry)
	}
}

// TestKeepAlive sends progress while the person answers, above what the
// server reported, and stops when they have.
func TestKeepAlive(t *testing.T) {
	s := start(t, newDesk(), Options{KeepAlive: time.Millisecond})
	s.host.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{"progressToken":"tok"}}}`)
	s.server.next()
	s.server.send(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"tok","progress":5}}`)
	s.host.nextMethod("notifications/progress")
	s.server.send(`{"jsonrpc":"2.0","id":0,"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":{}}}}`)
	q := s.desk.question(t)
	p := s.host.nextMethod("notifications/progress")
	if gjson.Get(p, "params.progressToken").String() != "tok" || gjson.Get(p, "params.progress").Float() <= 5 {
		t.Errorf("kept alive with %s", p)
	}
	q.answer <- answer{raw: cancelAnswer}
	s.server.next()
	s.server.send(`{"jsonrpc":"2.0","id":1,"result":{}}`)
	for l := s.host.next(); gjson.Get(l, "method").String() == "notifications/progress"; l = s.host.next() {
	}
}

// TestCancellation makes the question stale when the server cancels it,
// and when the host cancels a request the bridge retries for it.
func TestCancellation(t *testing.T) {
	t.Run("server", func(t *testing.T) {
		s := start(t, newDesk(), Options{})
		s.server.send(`{"jsonrpc":"2.0","id":0,"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":{}}}}`)
		q := s.desk.question(t)
		s.server.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":0,"reason":"Request timed out"}}`)
		<-q.ctx.Done()
		if got, want := context.Cause(q.ctx).Error(), "the server cancelled the request: Request timed out"; got != want {
			t.Errorf("the desk is told %q, want %q", got, want)
		}
	})
	t.Run("host", func(t *testing.T) {
		s := start(t, newDesk(), Options{})
		s.host.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}`)
		s.server.next()
		s.server.send(`{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"x":{"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":{}}}}}}}`)
		q := s.desk.question(t)
		s.host.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)
		<-q.ctx.Done()
		s.host.send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
		if got := s.server.next(); gjson.Get(got, "method").String() != "ping" {
			t.Errorf("the server got %s after the host's cancel, want nothing but the ping", got)
		}
	})
}

// TestDeskGoesAway: when Elicit Desk goes away mid-question, or cannot be
// reached for another reason than no window, the server gets a JSON-RPC
// error naming the reason, never a cancel it would take for the person's,
// and the host is told why.
func TestDeskGoesAway(t *testing.T) {
	for _, tt := range []struct {
		name string
		err  error
		want string
	}{
		{"went away", fmt.Errorf("%w: connection reset", endpoint.ErrDisconnected), "Elicit Desk went away before the person answered"},
		{"cannot start", errors.New("Elicit Desk did not answer within 5s of starting"), "could not be asked in Elicit Desk: Elicit Desk did not answer"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := start(t, newDesk(), Options{})
			s.server.send(`{"jsonrpc":"2.0","id":3,"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":{}}}}`)
			s.desk.question(t).answer <- answer{err: tt.err}
			got := s.server.next()
			if gjson.Get(got, "id").Int() != 3 || gjson.Get(got, "error.code").Int() != jsonrpc.CodeInternal || !strings.Contains(gjson.Get(got, "error.message").String(), tt.want) {
				t.Errorf("the server got %s, want an error saying %q", got, tt.want)
			}
			if got := s.host.nextMethod("notifications/message"); !strings.Contains(got, tt.want) {
				t.Errorf("the host was told %s", got)
			}
		})
	}
}

// TestServerGoesAway answers the host's pending requests and closes the
// host's link.
func TestServerGoesAway(t *testing.T) {
	s := start(t, newDesk(), Options{})
	s.host.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}`)
	s.server.next()
	s.server.w.Close()
	got := s.host.next()
	if gjson.Get(got, "id").Int() != 1 || gjson.Get(got, "error.code").Int() != jsonrpc.CodeServer {
		t.Errorf("the host got %s, want an error for its call", got)
	}
	s.host.closed()
	if err := <-s.ended; !errors.Is(err, ErrServerGone) {
		t.Errorf("the session ended with %v", err)
	}
	s.ended <- nil
}

// TestBadMessages answers what cannot be passed on, and goes on.
func TestBadMessages(t *testing.T) {
	s := start(t, newDesk(), Options{})
	big := `{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{"x":"` + strings.Repeat("a", link.MaxMessage) + `"}}`
	s.host.send(big)
	if got := s.host.next(); gjson.Get(got, "id").Int() != 77 || gjson.Get(got, "error.code").Int() != jsonrpc.CodeInvalidRequest {
		t.Errorf("the host got %.200s, want an error for its 8 MiB request", got)
	}
	s.host.send(`not json`)
	s.server.send(`{"jsonrpc":"2.0","id":12345,"result":{}}`) // answers nothing
	s.host.send(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	if got := s.server.next(); gjson.Get(got, "method").String() != "ping" {
		t.Errorf("the server got %s, want the ping", got)
	}
	s.server.send(`{"jsonrpc":"2.0","id":1,"result":{}}`)
	if got := s.host.next(); got != `{"jsonrpc":"2.0","id":1,"result":{}}` {
		t.Errorf("the host got %s", got)
	}
}

// TestHostIDCollision gives a host request that reuses an id of the
// bridge's own in flight a fresh id upstream, and the host its own back.
func TestHostIDCollision(t *testing.T) {
	s := start(t, newDesk(), Options{})
	s.host.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}`)
	s.server.next()
	s.server.send(`{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"x":{"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":{}}}}}}}`)
	s.desk.question(t).answer <- answer{raw: cancelAnswer}
	retry := s.server.next()
	own := gjson.Get(retry, "id").Raw
	s.host.send(`{"jsonrpc":"2.0","id":` + own + `,"method":"ping"}`)
	ping := s.server.next()
	if gjson.Get(ping, "id").Raw == own {
		t.Fatalf("the host's ping reached the server under the bridge's id %s", own)
	}
	s.server.send(`{"jsonrpc":"2.0","id":` + gjson.Get(ping, "id").Raw + `,"result":{}}`)
	if got := s.host.next(); gjson.Get(got, "id").Raw != own {
		t.Errorf("the host got %s, want its ping answered under id %s", got, own)
	}
	s.server.send(`{"jsonrpc":"2.0","id":` + own + `,"result":{"content":[]}}`)
	if got := s.host.next(); gjson.Get(got, "id").Int() != 1 {
		t.Errorf("the host got %s, want its call's result", got)
	}
}

// TestURLRequired shows a -32042 error's URL elicitation, waits for its
// completion and retries; the host sees the retry's result.
func TestURLRequired(t *testing.T) {
	s := start(t, newDesk(), Options{})
	s.host.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}`)
	s.server.next()
	s.server.send(`{"jsonrpc":"2.0","id":1,"error":{"code":-32042,"message":"sign in","data":{"elicitations":[{"mode":"url","message":"Sign in","url":"https://example.com/a","elicitationId":"u1"}]}}}`)
	q := s.desk.question(t)
	if gjson.GetBytes(q.q.Params, "elicitationId").String() != "u1" {
		t.Errorf("the desk got %s", q.q.Params)
	}
	q.answer <- answer{raw: []byte(`{"action":"accept"}`)}
	s.server.send(`{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{"elicitationId":"u1"}}`)
	retry := s.server.next()
	if gjson.Get(retry, "method").String() != "tools/call" || gjson.Get(retry, "id").Int() == 1 {
		t.Fatalf("the server got %s, want the retry", retry)
	}
	s.server.send(`{"jsonrpc":"2.0","id":` + gjson.Get(retry, "id").Raw + `,"result":{"content":[]}}`)
	if got, want := s.host.next(), `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`; got != want {
		t.Errorf("the host got %s, want %s", got, want)
	}
	s.desk.mu.Lock()
	defer s.desk.mu.Unlock()
	if len(s.desk.done) != 1 || s.desk.done[0].ElicitationID != "u1" {
		t.Errorf("the desk heard of completions %v", s.desk.done)
	}
}

// TestServerGoesAwayMidRetry answers the host's request the bridge was
// retrying when the server went away.
func TestServerGoesAwayMidRetry(t *testing.T) {
	s := start(t, newDesk(), Options{})
	s.host.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}`)
	s.server.next()
	s.server.send(`{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"x":{"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":{}}}}}}}`)
	s.desk.question(t).answer <- answer{raw: cancelAnswer}
	s.server.next() // the retry
	s.server.w.Close()
	if got := s.host.next(); gjson.Get(got, "id").Int() != 1 || gjson.Get(got, "error.code").Int() != jsonrpc.CodeServer {
		t.Errorf("the host got %s, want an error for its call", got)
	}
	s.host.closed()
	<-s.ended
	s.ended <- nil
}

// TestInputRoundsEnd ends a call whose input requests cannot be answered
// with an error for the host: after MaxInputRounds rounds of a server that
// asks without end, or at once when nobody answered (no window, the app
// refused it), with no retry the server could answer by asking again.
func TestInputRoundsEnd(t *testing.T) {
	ask := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"result":{"resultType":"input_required","inputRequests":{"again":{"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":{}}}}},"requestState":"s"}}`
	}
	tests := []struct {
		name     string
		noWindow bool
		answer   answer // each question's answer at the desk
		retries  int
		want     string // in the host's error message
	}{
		{"endless server", false, answer{raw: []byte(`{"action":"decline"}`)}, MaxInputRounds, "after 8 rounds"},
		{"no window", true, answer{}, 0, "no window can be shown"},
		{"rate limited", false, answer{err: &jsonrpc.Error{Code: -32000, Message: "rate limited: 30 requests in the last minute"}}, 0, "rate limited: 30 requests in the last minute"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			desk := newDesk()
			desk.noWindow = tt.noWindow
			s := start(t, desk, Options{})
			s.host.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`)
			s.server.next()
			s.server.send(ask("7"))
			retries := 0
			for retries == 0 || retries < tt.retries {
				if !tt.noWindow {
					s.desk.question(t).answer <- tt.answer
				}
				if retries == tt.retries {
					break
				}
				retry := s.server.next()
				if gjson.Get(retry, "method").String() != "tools/call" {
					t.Fatalf("the server got %s, want a retry", retry)
				}
				retries++
				s.server.send(ask(gjson.Get(retry, "id").Raw))
			}
			got := s.host.next()
			if gjson.Get(got, "id").Raw != "7" || gjson.Get(got, "error.code").Int() != jsonrpc.CodeInternal || !strings.Contains(gjson.Get(got, "error.message").String(), tt.want) {
				t.Fatalf("the host got %s, want error %d saying %q", got, jsonrpc.CodeInternal, tt.want)
			}
			// The server sees no retry: the next thing it gets is the host's.
			s.host.send(`{"jsonrpc":"2.0","id":8,"method":"ping"}`)
			if next := s.server.next(); gjson.Get(next, "method").String() != "ping" {
				t.Errorf("after the error the server got %s, want the host's ping", next)
			}
			t.Logf("%s: %d retries, then %s", tt.name, retries, got)
		})
	}
}
