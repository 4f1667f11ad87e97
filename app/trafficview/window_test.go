package trafficview

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/a11y/a11ytest"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/testkit/uitest"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
	"github.com/elicitdesk/elicitdesk/servers/link"
)

// source is the core's traffic as the window asks for it: what was
// recorded, and more when the test sends it.
type source struct {
	mu      sync.Mutex
	entries []traffic.Entry
	more    chan struct{} // closed and replaced at each send
	asks    int
}

func newSource(entries []traffic.Entry) *source {
	return &source{entries: entries, more: make(chan struct{})}
}

func (s *source) list(ctx context.Context, after uint64, wait bool) ([]traffic.Entry, error) {
	for {
		s.mu.Lock()
		s.asks++
		var out []traffic.Entry
		for _, e := range s.entries {
			if e.Seq > after {
				out = append(out, e)
			}
		}
		more := s.more
		s.mu.Unlock()
		if len(out) > 0 || !wait {
			return out, nil
		}
		select {
		case <-more:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (s *source) send(entries ...traffic.Entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.entries = append(s.entries, entries...)
	close(s.more)
	s.more = make(chan struct{})
}

// harness is the Traffic window over a source and a capture file, its
// UI work run on the test goroutine as the test drains it.
type harness struct {
	t    *testing.T
	w    *Window
	src  *source
	todo chan func()
}

func open(t *testing.T, entries []traffic.Entry, capturePath string) *harness {
	t.Helper()
	a := test.NewTempApp(t)
	h := &harness{t: t, src: newSource(entries), todo: make(chan func(), 64)}
	h.w = New(a, Deps{Source: h.src.list, CapturePath: capturePath, Capturing: func() traffic.Scope { return traffic.Scope{All: capturePath != ""} }},
		Options{Do: func(f func()) { h.todo <- f }})
	h.w.run = func(work func() func()) { work()() }
	h.w.Show(Of{})
	t.Cleanup(h.w.hide)
	return h
}

// until runs the window's UI work until cond holds.
func (h *harness) until(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.After(10 * time.Second)
	for !cond() {
		select {
		case f := <-h.todo:
			f()
		case <-deadline:
			h.t.Fatalf("%s: not within 10 s", what)
		}
	}
}

// capture keeps the messages of conversation in a capture file, as the
// core does, and returns its entries and the file.
func capture(t *testing.T, messages ...string) ([]traffic.Entry, string) {
	path := filepath.Join(t.TempDir(), "traffic.jsonl")
	r := traffic.New(0)
	redact, _ := traffic.NewRedactor(nil)
	c := traffic.NewCapture(t.Context(), path, traffic.DefaultCaptureLimits, redact, slog.New(slog.DiscardHandler))
	r.Capture(c, traffic.Scope{All: true})
	f := fake{in: make(chan link.Message, 1)}
	l := r.Tap("demo", f)
	for i, raw := range messages { // requests out, answers in
		m, err := link.Parse([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			l.Write(t.Context(), m)
		} else {
			f.in <- m
			l.Read()
		}
	}
	if err := c.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	entries, _ := r.After(0)
	return entries, path
}

// fake is a server's link: it reads what the test hands it.
type fake struct{ in chan link.Message }

func (f fake) Read() (link.Message, error)             { return <-f.in, nil }
func (fake) Write(context.Context, link.Message) error { return nil }
func (fake) Close() error                              { return nil }

// TestTrafficWindow: the window lists what the core recorded and what
// passes next, filters it as typed, shows the selected message's facts
// and, from the capture, the message itself, redacted; the request and
// its answer are a click apart.
func TestTrafficWindow(t *testing.T) {
	entries, path := capture(t,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"login","arguments":{"password":"hunter2hunter2"}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`,
	)
	h := open(t, entries[:1], path)
	h.until("the recorded message", func() bool { return len(h.w.model.shown) == 1 })
	h.src.send(entries[1])
	h.until("the next message", func() bool { return len(h.w.model.shown) == 2 })
	if got := h.w.status.Text; got != "2 messages." {
		t.Errorf("status %q", got)
	}

	h.w.filter.SetText("status:ok")
	if len(h.w.model.shown) != 1 || h.w.model.shown[0].Kind != traffic.Result {
		t.Fatalf("filtered: %+v", h.w.model.shown)
	}
	h.w.filter.SetText("bogus:x")
	if !h.w.problem.Visible() || !strings.Contains(h.w.problem.Text, "bogus") {
		t.Errorf("a bad filter: %q", h.w.problem.Text)
	}
	h.w.filter.SetText("")
	h.w.table.Select(widget.TableCellID{Row: 0, Col: 0})
	d := h.w.detail
	if !strings.Contains(d.facts.Text, "Sent to the server") || !d.partner.Visible() || d.partner.Text != "Go to the answer" {
		t.Errorf("facts %q, partner %q", d.facts.Text, d.partner.Text)
	}
	if !strings.Contains(d.message.Text, `"password": "[redacted]"`) || strings.Contains(d.message.Text, "hunter2") {
		t.Errorf("the message: %q", d.message.Text)
	}
	test.Tap(d.partner)
	if h.w.model.selected != entries[1].Seq || d.partner.Text != "Go to the request" {
		t.Errorf("went to #%d, %q", h.w.model.selected, d.partner.Text)
	}
}

// TestTrafficWindowExports: what is shown goes to a file only the person
// reads, as JSON Lines with the captured messages, or as HAR.
func TestTrafficWindowExports(t *testing.T) {
	entries, path := capture(t,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`,
	)
	out := filepath.Join(t.TempDir(), "out")
	h := open(t, entries, path)
	h.until("the messages", func() bool { return len(h.w.model.shown) == 2 })
	h.w.opts.SaveDialog = func(context.Context, string, string) (string, error) { return out, nil }
	h.w.export("x.jsonl", jsonLines)
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(out); info.Mode().Perm() != 0o600 {
		t.Errorf("the export is %v", info.Mode())
	}
	var l traffic.CaptureLine
	if lines := strings.Split(strings.TrimSpace(string(raw)), "\n"); len(lines) != 2 || json.Unmarshal([]byte(lines[1]), &l) != nil || string(l.Body) != `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}` {
		t.Errorf("exported %s", raw)
	}
	h.w.export("x.har", h.w.har)
	raw, _ = os.ReadFile(out)
	var har struct {
		Log struct{ Entries []json.RawMessage }
	}
	if json.Unmarshal(raw, &har) != nil || len(har.Log.Entries) != 1 {
		t.Errorf("HAR %s", raw)
	}
}

// TestTrafficWindowHostile: whatever a server names its methods, ids and
// tools, the window shows it through untrusted's views.
func TestTrafficWindowHostile(t *testing.T) {
	var entries []traffic.Entry
	for i, s := range uitest.HostileStrings(t) {
		entries = append(entries, traffic.Entry{Seq: uint64(i + 1), Time: time.Now(), Server: s.Text, Dir: traffic.FromServer,
			Kind: traffic.Request, Method: untrusted.Text(s.Text).Cut(traffic.FieldBytes), Tool: untrusted.Text(s.Text).Cut(traffic.FieldBytes),
			ID: untrusted.Text(s.Text).Cut(traffic.FieldBytes)})
	}
	h := open(t, entries, "")
	h.until("the messages", func() bool { return len(h.w.model.shown) == len(entries) })
	h.w.table.Select(widget.TableCellID{Row: len(entries) - 1, Col: 0})
	texts := uitest.WindowTexts(h.w.win)
	shown := false // the selected entry's facts are among what is checked
	for _, x := range texts {
		shown = shown || x.Text == h.w.detail.facts.Text && strings.Contains(x.Text, "Sent by the server")
	}
	if !shown {
		t.Fatal("the hostile entry's facts are not on screen: the check would see nothing of it")
	}
	uitest.Check(t, "the Traffic window", texts)
}

// TestTrafficWindowKeepsMessages: the window's Keep messages switches the
// capture of what it is shown on (everyone's, a server's, a session's) as
// Settings does, and says, while off, that messages are not kept.
func TestTrafficWindowKeepsMessages(t *testing.T) {
	a := test.NewTempApp(t)
	var scope traffic.Scope
	var set []traffic.Scope
	w := New(a, Deps{Source: newSource(nil).list, Capturing: func() traffic.Scope { return scope },
		SetCapturing: func(s traffic.Scope) { scope = s; set = append(set, s) }}, Options{Do: func(func()) {}})
	w.Show(Of{})
	defer w.hide()
	if w.keep.Checked || !w.detail.off.Visible() {
		t.Fatalf("capture off: checked %v, saying so %v", w.keep.Checked, w.detail.off.Visible())
	}
	test.Tap(w.keep)
	if !scope.All || len(set) != 1 || w.detail.off.Visible() {
		t.Errorf("ticked: capturing %+v (%v), saying not kept %v", scope, set, w.detail.off.Visible())
	}

	w.Show(Of{Server: "notes"}) // from the Servers window, while every server's are kept
	if !w.keep.Checked || !w.keep.Disabled() || w.keep.Text != "Keep this server's messages" {
		t.Errorf("on a server while all are kept: checked %v, disabled %v, %q", w.keep.Checked, w.keep.Disabled(), w.keep.Text)
	}
	scope = traffic.Scope{} // Settings switched it off meanwhile
	w.Show(Of{Server: "notes"})
	if w.keep.Checked || w.keep.Disabled() || len(set) != 1 || w.filter.Text != "server:notes" {
		t.Errorf("shown again: checked %v, disabled %v, set %v, filter %q", w.keep.Checked, w.keep.Disabled(), set, w.filter.Text)
	}
	test.Tap(w.keep)
	if !scope.Keeps("notes", "") || scope.All || scope.Keeps("other", "") {
		t.Errorf("a server's ticked: %+v", scope)
	}

	w.Show(Of{Server: "notes", Session: "s-1"}) // a bridged session of another host's notes
	if !w.keep.Checked || w.keep.Text != "Keep this session's messages" {
		t.Errorf("a session of a server kept: checked %v, %q", w.keep.Checked, w.keep.Text)
	}
	w.Show(Of{Server: "other", Session: "s-2"})
	test.Tap(w.keep)
	if !scope.Keeps("other", "s-2") || scope.Keeps("other", "s-3") || !scope.Keeps("notes", "") {
		t.Errorf("a session ticked: %+v", scope)
	}
	test.Tap(w.keep)
	if len(scope.Sessions) != 0 || !scope.Keeps("notes", "") {
		t.Errorf("a session let go: %+v", scope)
	}
	w.Show(Of{}) // from the tray: the person's filter stays
	if w.keep.Checked || w.keep.Text != "Keep messages" || w.filter.Text != "session:s-2" {
		t.Errorf("on everyone's: checked %v, %q, filter %q", w.keep.Checked, w.keep.Text, w.filter.Text)
	}
}

// TestTableKeys: Escape closes the window, and F1 reaches it, while the
// table has the keyboard (a focused Fyne table kept both); Down still
// moves along the rows. The table says what it is to a screen reader.
func TestTableKeys(t *testing.T) {
	entries, path := capture(t,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`,
	)
	h := open(t, entries, path)
	h.until("the messages", func() bool { return len(h.w.model.shown) == 2 })
	var table *messages
	for _, o := range test.LaidOutObjects(h.w.win.Content()) {
		if m, ok := o.(*messages); ok {
			table = m
		}
	}
	if table == nil {
		t.Fatal("no table shows")
	}
	a11ytest.Check(t, ".", table)
	closed, helped := 0, 0
	c := h.w.win.Canvas()
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) {
		switch ev.Name {
		case fyne.KeyF1:
			helped++
		case fyne.KeyEscape:
			closed++
		}
	})
	c.Focus(table)
	for _, k := range []fyne.KeyName{fyne.KeyDown, fyne.KeySpace, fyne.KeyF1, fyne.KeyEscape} {
		c.Focused().TypedKey(&fyne.KeyEvent{Name: k})
	}
	if closed != 1 || helped != 1 || h.w.model.selected != entries[1].Seq {
		t.Errorf("the window got Escape %d, F1 %d times; Down, Space selected #%d; want 1, 1, #%d", closed, helped, h.w.model.selected, entries[1].Seq)
	}
}
