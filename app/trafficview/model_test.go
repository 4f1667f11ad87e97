package trafficview

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
)

// call is a tool call and its answer, on server, numbered from seq.
func call(seq uint64, server, id string, kind traffic.Kind) []traffic.Entry {
	at := time.Date(2026, 11, 29, 12, 0, 0, int(seq)*int(time.Millisecond), time.UTC)
	return []traffic.Entry{
		{Seq: seq, Time: at, Server: server, Dir: traffic.ToServer, Kind: traffic.Request, Method: "tools/call", Tool: "t", ID: untrusted.Text(id), Size: 80},
		{Seq: seq + 1, Time: at.Add(time.Millisecond), Server: server, Dir: traffic.FromServer, Kind: kind, Method: "tools/call", Tool: "t", ID: untrusted.Text(id), Size: 40, Latency: time.Millisecond},
	}
}

func seqs(entries []traffic.Entry) string {
	var s []string
	for _, e := range entries {
		s = append(s, fmt.Sprint(e.Seq))
	}
	return strings.Join(s, " ")
}

func TestModel(t *testing.T) {
	m := newModel(6)
	if m.status() != "No messages yet: they show here as they pass." {
		t.Errorf("empty: %q", m.status())
	}
	m.add(call(1, "a", "1", traffic.Result))
	m.add(call(3, "b", "1", traffic.Error))
	m.setFilter("status:error")
	if seqs(m.shown) != "4" || m.status() != "1 of 4 messages match." {
		t.Errorf("filtered: %s, %q", seqs(m.shown), m.status())
	}
	m.setFilter("bogus:x")
	if m.problem == "" || seqs(m.shown) != "4" {
		t.Errorf("a bad filter keeps the last one and says why: %q, %s", m.problem, seqs(m.shown))
	}
	m.setFilter("")
	if m.problem != "" || seqs(m.shown) != "1 2 3 4" {
		t.Errorf("no filter: %s", seqs(m.shown))
	}
	m.selected = 2
	if i := m.selectedIndex(); i != 1 {
		t.Errorf("selected at %d", i)
	}
	if p, ok := m.partner(m.shown[1]); !ok || p.Seq != 1 {
		t.Errorf("an answer's request: %v %v", p.Seq, ok)
	}
	if p, ok := m.partner(m.shown[2]); !ok || p.Seq != 4 {
		t.Errorf("a request's answer: %v %v (the same id on another server is not it)", p.Seq, ok)
	}
	// Past keep, the oldest go, from the shown too.
	if changed := m.add(call(5, "a", "2", traffic.Result)); !changed {
		t.Error("no change")
	}
	if !m.add(call(7, "a", "3", traffic.Result)) || seqs(m.all) != "3 4 5 6 7 8" || seqs(m.shown) != "3 4 5 6 7 8" {
		t.Errorf("kept %s, shown %s", seqs(m.all), seqs(m.shown))
	}
	if m.selectedIndex() != -1 {
		t.Error("a dropped entry is still selected")
	}
	m.setFilter(`server:"a"`)
	if m.add(call(9, "b", "4", traffic.Result)) {
		t.Error("entries the filter hides changed what is shown")
	}
}

func TestRowAndFacts(t *testing.T) {
	e := call(1, "demo", "\"x\u202ey\"", traffic.Error)[1]
	e.Code, e.Session, e.Host = -32602, "s1", "Claude Code"
	r := rowOf(e)
	if r[1] != "demo (Claude Code)" || r[2] != "←" || r[3] != "error -32602" || r[7] != "1ms" {
		t.Errorf("row %q", r)
	}
	if strings.ContainsRune(r[5], '\u202e') || strings.ContainsRune(facts(e), '\u202e') {
		t.Errorf("a hidden character reaches the window: %q", r[5])
	}
	for _, want := range []string{"Sent by the server", "Answered after 1ms", "Method tools/call"} {
		if !strings.Contains(facts(e), want) {
			t.Errorf("facts lack %q: %s", want, facts(e))
		}
	}
	if serverFilter("my server") != `server:"my server"` || serverFilter("demo") != "server:demo" {
		t.Error(serverFilter("my server"))
	}
	ok := call(2, "web", "2", traffic.Result)[1]
	ok.Status = 200
	if !strings.Contains(facts(ok), "HTTP response of status 200") {
		t.Errorf("facts lack the HTTP status: %s", facts(ok))
	}
	h := headerLines(http.Header{"X-Trace": {"t\u202e1"}, "Content-Type": {"text/event-stream"}})
	if h != "Content-Type: text/event-stream\nX-Trace: "+untrusted.Text("t\u202e1").Line()+"\n\n" || strings.ContainsRune(h, '\u202e') || headerLines(nil) != "" {
		t.Errorf("header lines %q", h)
	}
}

// BenchmarkFilter: a filter typed over as many entries as 100,000
// messages through one session leave in the window at most (keep), and
// over all 100,000, as the figure asks.
func BenchmarkFilter(b *testing.B) {
	for _, n := range []int{keep, 100_000} {
		m := newModel(n)
		for i := 0; i < n; i += 2 {
			m.add(call(uint64(i+1), "demo", fmt.Sprint(i), traffic.Result))
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				m.setFilter("tool:t status:ok")
				m.setFilter("")
			}
		})
	}
}
