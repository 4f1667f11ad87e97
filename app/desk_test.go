package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/core"
	"github.com/elicitdesk/elicitdesk/internal/desktop/autostart"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/internal/testkit/demotest"
	"github.com/elicitdesk/elicitdesk/internal/testkit/uitest"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/config"
	"github.com/elicitdesk/elicitdesk/servers/demo"
)

func TestMain(m *testing.M) {
	demotest.Serve()
	// The test driver runs fyne.Do on the caller's goroutine; the app
	// expects one UI goroutine, so the tests run one, shared by every test
	// because Fyne's caches are shared too.
	go serveUI()
	os.Exit(m.Run())
}

// serveUI runs the UI goroutine's work. A t.Fatal in that work ends the
// goroutine (runtime.Goexit), failing its test: another takes over, so
// the tests after it do not wait for a UI goroutine forever.
func serveUI() {
	defer func() { go serveUI() }()
	for f := range uiLoop {
		f()
	}
}

// uiLoop is the UI goroutine's work, in order.
var uiLoop = make(chan func(), 4096)

// harness is a started Desk on the test driver with its own folders.
type harness struct {
	t       testing.TB
	core    *core.Core // in this process, as the windows' process reaches it
	d       *Desk
	dir     string
	mu      sync.Mutex
	opened  []*url.URL // what the Desk asked the browser to open
	openErr error      // what the browser says to each
	notes   []*fyne.Notification
	focused []bool // what the windows told the core of their focus, in order
}

// heardCore is the core as the tests' Desk reaches it, noting the focus
// the windows tell it, which they tell from a goroutine of their own.
type heardCore struct {
	*core.Core
	h *harness
}

func (c heardCore) Focused(on bool) {
	c.Core.Focused(on)
	c.h.mu.Lock()
	defer c.h.mu.Unlock()
	c.h.focused = append(c.h.focused, on)
}

// focusTold reports whether the last focus the windows told the core is
// on.
func (h *harness) focusTold(on bool) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.focused) > 0 && h.focused[len(h.focused)-1] == on
}

// notingApp is the test driver's app, keeping the notifications the Desk
// sends through it, which the test driver keeps only the last of.
type notingApp struct {
	fyne.App
	h *harness
}

func (a notingApp) SendNotification(n *fyne.Notification) {
	a.h.mu.Lock()
	defer a.h.mu.Unlock()
	a.h.notes = append(a.h.notes, n)
}

// notifications are those the Desk sent so far, in order.
func (h *harness) notifications() []*fyne.Notification {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.notes)
}

// openedURLs is what the Desk asked the browser to open so far: it asks
// on a goroutine of its own.
func (h *harness) openedURLs() []*url.URL {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.opened)
}

// ui runs f on the UI goroutine and waits for it.
func (h *harness) ui(f func()) {
	done := make(chan struct{})
	uiLoop <- func() {
		defer close(done)
		f()
	}
	<-done
}

// start runs a Desk whose servers.json holds config (a first start with
// the demo server when config is empty).
func start(t testing.TB, config string) *harness {
	t.Helper()
	return startWith(t, config, func(*Options, *core.Options) {})
}

// startOneWindow is start with no server configured and at most one
// request window at once, so that the next request waits without one.
func startOneWindow(t testing.TB) *harness {
	t.Helper()
	return startWith(t, `{"mcpServers":{}}`, func(_ *Options, co *core.Options) { co.Windows.Max = 1 })
}

// startWith is start with the Options as edit leaves them.
func startWith(t testing.TB, config string, edit func(*Options, *core.Options)) *harness {
	t.Helper()
	dir := t.TempDir()
	for _, v := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"} {
		t.Setenv(v, filepath.Join(dir, strings.ToLower(v)))
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "disabled:") // no notification reaches the desktop
	h := &harness{t: t, dir: dir}
	cfgPath := filepath.Join(dir, "servers.json")
	if config != "" {
		if err := os.WriteFile(cfgPath, []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	a := test.NewTempApp(t)
	ctx, cancel := context.WithCancel(context.Background())
	h.ui(func() { h.start(ctx, notingApp{a, h}, cfgPath, edit) })
	t.Cleanup(h.close(cancel))
	return h
}

// close is the cleanup of a started Desk. Once Close returns, the UI work
// the Desk queues does nothing; the round on the UI goroutine waits out
// work already under way, which must not draw while the next test measures
// text on its own goroutine.
func (h *harness) close(cancel context.CancelFunc) func() {
	return func() {
		cancel()
		h.ui(h.d.Close) // the UI goroutine's queued work runs before or after it, not beside
		h.core.Close()
		h.ui(func() {})
	}
}

// start builds and starts the Desk on the UI goroutine.
func (h *harness) start(ctx context.Context, a fyne.App, cfgPath string, edit func(*Options, *core.Options)) {
	t, dir := h.t, h.dir
	opts := Options{
		ConfigPath:  cfgPath,
		HistoryPath: filepath.Join(dir, "history.db"),
		Demo:        demotest.Server(t, "demo"),
		Autostart:   autostart.Entry{ID: "io.github.elicitdesk.test", Name: "Elicit Desk", Exec: []string{"elicitdesk"}, Dir: filepath.Join(dir, "autostart")},
		Log:         slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	co := core.Options{ConfigPath: cfgPath, HistoryPath: opts.HistoryPath, Demo: opts.Demo, Log: opts.Log,
		History: loadSettings(a.Preferences()).HistoryLimits(), Windows: loadSettings(a.Preferences()).WindowPrefs()}
	edit(&opts, &co)
	h.core = core.New(ctx, co)
	h.core.TrayHost(opts.TrayShown) // the core says what the process was started with, as at a real start
	h.d = New(ctx, a, heardCore{h.core, h}, opts)
	h.d.do = func(f func()) { uiLoop <- f }
	h.d.guard = 0 // the tests answer as a person who has seen the window (TestKeyHold tests the guard)
	h.d.openURL = func(u *url.URL) error {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.opened = append(h.opened, u)
		return h.openErr
	}
	if err := h.core.Start(); err != nil {
		t.Error(err)
	}
	if err := h.d.Start(); err != nil {
		t.Error(err)
	}
}

// answer is what Router.Ask returned to the asking server.
type answer struct {
	res forms.Result
	err error
}

// ask sends a request as server who would, its params as JSON, and
// returns its answer later.
func (h *harness) ask(ctx context.Context, who servers.Identity, p servers.Params) <-chan answer {
	raw, err := json.Marshal(struct {
		Message         untrusted.Text  `json:"message"`
		Mode            servers.Mode    `json:"mode,omitempty"`
		RequestedSchema json.RawMessage `json:"requestedSchema,omitempty"`
		URL             untrusted.Text  `json:"url,omitempty"`
		ElicitationID   string          `json:"elicitationId,omitempty"`
	}{p.Message, p.Mode, p.Schema, p.URL, p.ElicitationID})
	if err != nil {
		panic(err)
	}
	out := make(chan answer, 1)
	go func() {
		res, err := h.core.Router().AskRaw(ctx, who, raw)
		out <- answer{res, err}
	}()
	return out
}

// askForm asks with a form of one required text field "name".
func (h *harness) askForm(ctx context.Context, server, message string) <-chan answer {
	return h.ask(ctx, servers.Identity{Name: server, Target: "run-" + server}, servers.Params{
		Message: untrusted.Text(message), Mode: servers.ModeForm,
		Schema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","title":"Name"}},"required":["name"]}`),
	})
}

// eventually waits until cond, read on the UI goroutine, holds.
func (h *harness) eventually(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var ok bool
		h.ui(func() { ok = cond() })
		if ok {
			return
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// request waits for the n-th request (0-based) the core gave a window.
func (h *harness) request(n int) *request {
	h.t.Helper()
	var r *request
	h.eventually("a request's window", func() bool {
		if len(h.d.requests) > n {
			r = h.d.requests[n]
		}
		return r != nil
	})
	return r
}

// waitFor waits until the core says n requests wait, with a window or
// without.
func (h *harness) waitFor(n int) {
	h.t.Helper()
	h.eventually(fmt.Sprintf("%d requests waiting", n), func() bool { return h.d.waiting == n })
}

// windowsClosed waits until no request has a window.
func (h *harness) windowsClosed() {
	h.t.Helper()
	h.eventually("the windows to close", func() bool { return len(h.d.requests) == 0 })
}

// content is a window's widget tree.
func content(r *request) fyne.CanvasObject {
	switch w := r.win.(type) {
	case *formWindow:
		return w.w.Content()
	case *linkWindow:
		return w.w.Content()
	}
	return nil
}

// button finds a visible button by its label.
func button(t *testing.T, o fyne.CanvasObject, label string) *widget.Button {
	t.Helper()
	b, _ := uitest.Button(placedButton(t, o, label))
	return b
}

// placedButton finds a visible button by its label as its window holds
// it (the app's own button types embed Fyne's), for where it is drawn.
func placedButton(t *testing.T, o fyne.CanvasObject, label string) fyne.CanvasObject {
	t.Helper()
	for _, x := range test.LaidOutObjects(o) {
		if b, ok := uitest.Button(x); ok && b.Text == label && x.Visible() {
			return x
		}
	}
	t.Fatalf("no button %q", label)
	return nil
}

// shows reports whether text appears in the window.
func shows(r *request, text string) bool {
	return strings.Contains(test.RenderObjectToMarkup(content(r)), text)
}

// outcomes are the history's outcomes of the person's answers.
var outcomes = map[forms.Action]history.Outcome{forms.Accept: history.Accepted, forms.Decline: history.Declined, forms.Cancel: history.Cancelled}

// entries reads the history.
func (h *harness) entries() []history.Entry {
	h.t.Helper()
	h.core.Flush()
	es, err := h.d.history.Search(context.Background(), history.Query{Limit: 100})
	if err != nil {
		h.t.Fatal(err)
	}
	return es
}

func TestFormRequestButtons(t *testing.T) {
	tests := []struct {
		name    string
		act     func(t *testing.T, r *request)
		want    forms.Action
		content string
	}{
		{"accept", func(t *testing.T, r *request) {
			fw := r.win.(*formWindow)
			test.Type(fw.w.Canvas().Focused(), "Ada")
			test.Tap(button(t, content(r), "Accept"))
		}, forms.Accept, `{"name":"Ada"}`},
		{"decline", func(t *testing.T, r *request) { test.Tap(button(t, content(r), "Decline")) }, forms.Decline, ""},
		{"cancel", func(t *testing.T, r *request) { test.Tap(button(t, content(r), "Cancel")) }, forms.Cancel, ""},
		{"escape", func(t *testing.T, r *request) {
			pressKey(r.win.(*formWindow).w.Canvas(), fyne.KeyEscape)
		}, forms.Cancel, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := start(t, `{"mcpServers":{}}`)
			got := h.askForm(context.Background(), "notes", "Who are you?")
			r := h.request(0)
			h.ui(func() { tt.act(t, r) })
			a := <-got
			if a.err != nil || a.res.Action != tt.want || string(a.res.Content) != tt.content {
				t.Fatalf("answer %s %s %v, want %s %s", a.res.Action, a.res.Content, a.err, tt.want, tt.content)
			}
			h.windowsClosed()
			es := h.entries()
			if len(es) != 1 || es[0].Outcome != outcomes[tt.want] || es[0].Server.Name != "notes" || es[0].Message != "Who are you?" {
				t.Fatalf("history %+v", es)
			}
		})
	}
}

func TestStaleWhenTheServerCancels(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	ctx, cancel := context.WithCancelCause(context.Background())
	got := h.askForm(ctx, "notes", "Who are you?")
	r := h.request(0)
	cancel(errors.Join(errors.New("the server cancelled the request"), errors.New("took too long\u202e")))
	if a := <-got; a.err == nil {
		t.Fatalf("a cancelled request was answered: %+v", a)
	}
	h.eventually("the stale banner", func() bool { return r.ended && shows(r, "The server cancelled the request: took too long") })
	h.ui(func() {
		fw := r.win.(*formWindow)
		// The window grew for the banner: what was asked is still in view.
		if size, full := fw.w.Canvas().Size().Height, fw.view.FullHeight(); size < full {
			t.Errorf("window %v tall once stale, its content needs %v", size, full)
		}
		for _, x := range test.LaidOutObjects(fw.w.Content()) {
			if b, ok := uitest.Button(x); ok && x.Visible() && b.Text != "Close" && !b.Disabled() && isAnswer(b.Text) {
				t.Errorf("button %q still offered", b.Text)
			}
			if e, ok := x.(*widget.Entry); ok && !e.Disabled() {
				t.Error("the field still takes input")
			}
		}
		test.Tap(button(t, fw.w.Content(), "Close"))
	})
	h.windowsClosed()
	if es := h.entries(); len(es) != 1 || es[0].Outcome != history.Stale || !strings.Contains(es[0].Reason, "took too long") {
		t.Fatalf("history %+v", es)
	}
}

// TestStaleClosesOnEscape checks that Escape closes a request gone stale
// while a field had the keyboard.
func TestStaleClosesOnEscape(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	ctx, cancel := context.WithCancelCause(context.Background())
	h.askForm(ctx, "notes", "Who are you?")
	r := h.request(0)
	h.ui(func() {
		if r.win.(*formWindow).w.Canvas().Focused() == nil {
			t.Error("no field has the keyboard")
		}
	})
	cancel(errors.New("the server cancelled the request"))
	h.eventually("the stale banner", func() bool { return r.ended })
	h.ui(func() {
		// The person clicks the frozen field, which takes the keyboard.
		c := r.win.(*formWindow).w.Canvas()
		r.win.(*formWindow).view.FocusFirst(c)
		if c.Focused() == nil {
			t.Error("the frozen field did not take the keyboard")
		}
		pressKey(c, fyne.KeyEscape)
	})
	h.windowsClosed()
}

// pressKey sends a key where a window does: to the focused widget, or to
// the canvas when none is.
func pressKey(c fyne.Canvas, name fyne.KeyName) {
	ev := &fyne.KeyEvent{Name: name}
	if f := c.Focused(); f != nil {
		f.TypedKey(ev)
		return
	}
	if on := c.(interface{ OnTypedKey() func(*fyne.KeyEvent) }).OnTypedKey(); on != nil {
		on(ev)
	}
}

func isAnswer(label string) bool {
	return label == "Accept" || label == "Decline" || label == "Cancel"
}

func TestStaleWhenTheServerDisconnects(t *testing.T) {
	h := start(t, "")
	called := make(chan error, 1)
	go func() {
		_, _, err := h.core.CallTool(context.Background(), "demo", demo.ToolAskConfirm, nil, true)
		called <- err
	}()
	r := h.request(0)
	if r.Server.Name != "demo" || r.Server.Reported.Name != demo.Name {
		t.Fatalf("identity %+v", r.Server)
	}
	cfg, err := config.Load(h.d.opts.ConfigPath)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Servers[0].Disabled = true
	if err := cfg.Save(); err != nil {
		t.Fatal(err)
	}
	h.eventually("the stale banner", func() bool { return r.ended && shows(r, "disconnected") })
	<-called
	if es := h.entries(); len(es) != 1 || es[0].Outcome != history.Stale {
		t.Fatalf("history %+v", es)
	}
}

func TestIdentityHeader(t *testing.T) {
	h := start(t, `{"mcpServers":{"bank":{"command":"bank-mcp","disabled":true}}}`)
	who := servers.Identity{Name: "notes", Target: "npx notes-mcp", Reported: servers.ServerInfo{Name: "acme-files", Title: "Acme Files", Version: "2.1.0"}}
	h.eventually("the bank entry", func() bool { return len(h.core.Statuses()) == 1 })
	h.ask(context.Background(), who, servers.Params{
		Message: "This is bank: confirm the transfer.", Mode: servers.ModeForm,
		Schema: json.RawMessage(`{"type":"object","properties":{}}`),
	})
	r := h.request(0)
	h.ui(func() {
		markup := test.RenderObjectToMarkup(content(r))
		for _, want := range []string{"notes", "npx notes-mcp", "Reported by the server: Acme Files (acme-files) 2.1.0"} {
			if !strings.Contains(markup, want) {
				t.Errorf("header lacks %q", want)
			}
		}
		if strings.Index(markup, "npx notes-mcp") > strings.Index(markup, "Reported by the server") {
			t.Error("the server's claim shows before the configuration")
		}
		for _, w := range []string{"acme", "bank"} {
			if !strings.Contains(strings.ToLower(warningsOf(content(r))), w) {
				t.Errorf("no warning naming %q in %q", w, warningsOf(content(r)))
			}
		}
		test.Tap(button(t, content(r), "Decline"))
	})
}

// warningsOf joins the texts of warning labels.
func warningsOf(o fyne.CanvasObject) string {
	var out []string
	for _, x := range test.LaidOutObjects(o) {
		if l, ok := x.(*widget.Label); ok && l.Importance == widget.WarningImportance && l.Visible() {
			out = append(out, l.Text)
		}
	}
	return strings.Join(out, "\n")
}

func TestURLRequest(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	who := servers.Identity{Name: "shop", Target: "https://shop.example/mcp"}
	router := h.core.Router()
	got := h.ask(context.Background(), who, servers.Params{
		Message: "Sign in to pay", Mode: servers.ModeURL, ElicitationID: "e1",
		URL: "http://user:secret@xn--pple-43d.com/login?next=1",
	})
	r := h.request(0)
	h.ui(func() {
		w := warningsOf(content(r))
		for _, want := range []string{"https", "password", "аpple.com"} {
			if !strings.Contains(w, want) {
				t.Errorf("warnings lack %q:\n%s", want, w)
			}
		}
		if len(h.openedURLs()) != 0 {
			t.Fatal("opened before the person pressed Open")
		}
		test.Tap(button(t, content(r), "Open link"))
	})
	if a := <-got; a.res.Action != forms.Accept || len(a.res.Content) != 0 {
		t.Fatalf("answer %+v", a)
	}
	lw := r.win.(*linkWindow)
	// Accept goes out only once the browser said it opened the link.
	if got := h.openedURLs(); len(got) != 1 || got[0].String() != string(r.URL) {
		t.Fatalf("opened %v", got)
	}
	h.eventually("the waiting state", func() bool {
		return lw.after.Visible() && !lw.buttons.Visible() && strings.Contains(lw.status.Text, "Press Done")
	})
	router.Complete(servers.Identity{Name: "shop"}, "e1")
	h.eventually("completion", func() bool {
		return strings.Contains(lw.status.Text, "says this step is complete") && !lw.progress.Visible()
	})
	h.ui(func() { test.Tap(button(t, content(r), "Done")) })
	h.windowsClosed()
}

func TestURLRequestThatCannotOpen(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	got := h.ask(context.Background(), servers.Identity{Name: "odd"}, servers.Params{
		Message: "Look", Mode: servers.ModeURL, URL: "ftp://files.example/x",
	})
	r := h.request(0)
	h.ui(func() {
		if !button(t, content(r), "Open link").Disabled() {
			t.Error("an ftp link can be opened")
		}
		test.Tap(button(t, content(r), "Decline"))
	})
	if a := <-got; a.res.Action != forms.Decline {
		t.Fatalf("answer %+v", a)
	}
}

// TestAtMostMaxWindows asks five requests in turn: the first three get
// windows, in the order they arrived, the other two wait, and each window
// that closes lets the oldest one waiting in.
func TestAtMostMaxWindows(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	for i := range 5 {
		h.askForm(context.Background(), "s"+string(rune('a'+i)), "Question")
		h.waitFor(i + 1) // one at a time: the order they arrive in is known
	}
	most := 0 // the most windows seen open at once
	for _, want := range []string{"sa sb sc", "sb sc sd", "sc sd se", "sd se", "se"} {
		h.eventually("windows for "+want, func() bool {
			most = max(most, len(h.d.requests))
			return windowNames(h.d) == want
		})
		h.ui(func() { test.Tap(button(t, content(h.d.requests[0]), "Decline")) })
	}
	h.windowsClosed()
	if most > core.DefaultMaxWindows {
		t.Errorf("%d request windows open at once, want at most %d", most, core.DefaultMaxWindows)
	}
}

// TestSameQuestionTwice checks that the windows of a server asking the
// same twice tell apart in the task switcher, and that a number freed by
// a window closing is used again.
func TestSameQuestionTwice(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	titles := func() string {
		var ts []string
		for _, r := range h.d.requests {
			ts = append(ts, r.win.(*formWindow).w.Title())
		}
		return strings.Join(ts, " | ")
	}
	for i := range 3 {
		h.askForm(context.Background(), "demo", "Continue?")
		h.waitFor(i + 1)
	}
	want := "demo: Continue? — Elicit Desk | demo: Continue? (2) — Elicit Desk | demo: Continue? (3) — Elicit Desk"
	h.eventually("three windows", func() bool { return len(h.d.requests) == 3 })
	h.ui(func() {
		if got := titles(); got != want {
			t.Errorf("titles %q, want %q", got, want)
		}
		test.Tap(button(t, content(h.d.requests[1]), "Decline"))
	})
	h.eventually("the second window closed", func() bool { return len(h.d.requests) == 2 })
	h.askForm(context.Background(), "demo", "Continue?")
	h.eventually("the fourth window", func() bool { return len(h.d.requests) == 3 })
	h.ui(func() {
		if got, want := h.d.requests[2].win.(*formWindow).w.Title(), "demo: Continue? (2) — Elicit Desk"; got != want {
			t.Errorf("the fourth window's title %q, want %q", got, want)
		}
	})
}

// windowNames are the servers of the requests with a window, in the
// order the windows opened.
func windowNames(d *Desk) string {
	var names []string
	for _, r := range d.requests {
		names = append(names, r.Server.Name)
	}
	return strings.Join(names, " ")
}

func TestRefusalsAreRecorded(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	h.core.Router().SetLimits("flood", servers.Limits{Waiting: 1, PerMinute: 10})
	h.askForm(context.Background(), "flood", "first")
	h.request(0)
	var refused *jsonrpc.Error
	if a := <-h.askForm(context.Background(), "flood", "second"); !errors.As(a.err, &refused) || refused.Code != jsonrpc.CodeServer {
		t.Fatalf("over the limit: %+v", a)
	}
	es := h.entries()
	if len(es) != 1 || es[0].Outcome != history.RateLimited || es[0].Message != "second" {
		t.Fatalf("history %+v", es)
	}
}

func TestMessageIsPlainAndFolded(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	long := "Click <a href='https://evil.example'>here</a> \u202eevil\u202c " + strings.Repeat("word ", 1<<18)
	h.askForm(context.Background(), "chatty", long)
	r := h.request(0)
	h.ui(func() {
		markup := test.RenderObjectToMarkup(content(r))
		if strings.Contains(markup, "\u202e") || strings.Contains(markup, "*widget.Hyperlink") {
			t.Error("a bidi override or a link reached the window")
		}
		if !strings.Contains(markup, "&lt;a href=") && !strings.Contains(markup, "<a href=") {
			t.Error("the markup-looking text is not shown as text")
		}
		test.Tap(button(t, content(r), "Show more"))
		button(t, content(r), "Show less")
	})
}

// TestLinksOfAFailedCall checks that a tool call answered with -32042
// shows its link like a URL request, and that the retry then succeeds.
func TestLinksOfAFailedCall(t *testing.T) {
	entry := demotest.Server(t, "demo")
	entry.ProtocolVersion = "2025-11-25"
	raw, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"demo": map[string]any{
		"command": entry.Command, "args": entry.Args, "env": entry.Env, "protocolVersion": entry.ProtocolVersion,
	}}})
	h := start(t, string(raw))
	if _, _, err := h.core.CallTool(context.Background(), "demo", demo.ToolNeedsLink, nil, true); err == nil {
		t.Fatal("needs_link went through without its link")
	}
	r := h.request(0)
	if r.Mode != servers.ModeURL || !strings.HasPrefix(string(r.URL), "https://") {
		t.Fatalf("link request %+v", r.Params)
	}
	h.ui(func() { test.Tap(button(t, content(r), "Open link")) })
	h.eventually("the browser to open", func() bool { return len(h.openedURLs()) == 1 })
	res, _, err := h.core.CallTool(context.Background(), "demo", demo.ToolNeedsLink, nil, true)
	if err != nil || res.IsError {
		t.Fatalf("retry: %+v %v", res, err)
	}
}

// TestAnswerHelpBesideTheButtons opens a form and a link request: each
// says, beside its Decline and Cancel, what they tell the server, in the
// same words.
func TestAnswerHelpBesideTheButtons(t *testing.T) {
	for _, p := range []servers.Params{
		{Message: "Deploy?", Mode: servers.ModeForm, Schema: json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}}}`)},
		{Message: "Sign in", Mode: servers.ModeURL, ElicitationID: "e", URL: "https://shop.example/login"},
	} {
		t.Run(string(p.Mode), func(t *testing.T) {
			h := start(t, `{"mcpServers":{}}`)
			h.ask(context.Background(), servers.Identity{Name: "shop", Target: "https://shop.example/mcp"}, p)
			r := h.request(0)
			h.ui(func() {
				var help string
				for _, o := range test.LaidOutObjects(content(r)) {
					if l, ok := o.(*widget.Label); ok && l.Visible() {
						help += l.Text + "\n"
					}
				}
				for _, want := range []string{forms.DeclineHelp, forms.CancelHelp} {
					if !strings.Contains(help, want) {
						t.Errorf("the window does not say %q", want)
					}
				}
				button(t, content(r), "Decline")
			})
		})
	}
}

// TestFormsWriteDatesAsTheAppSays opens a form with a date while the
// process's locale is American and the app was started for a German one:
// the date shows as the app says, once for every window.
func TestFormsWriteDatesAsTheAppSays(t *testing.T) {
	t.Setenv("LC_ALL", "en_US.UTF-8")
	h := start(t, `{"mcpServers":{}}`)
	h.ui(func() { h.d.opts.Dates = forms.DateStyleFor("de_DE.UTF-8") })
	h.ask(context.Background(), servers.Identity{Name: "trip"}, servers.Params{Message: "When?", Mode: servers.ModeForm,
		Schema: json.RawMessage(`{"type":"object","properties":{"day":{"type":"string","format":"date","default":"2025-12-31"}}}`)})
	r := h.request(0)
	h.ui(func() {
		if !shows(r, "31.12.2025") || shows(r, "12/31/2025") {
			t.Errorf("the date does not show as 31.12.2025:\n%s", test.RenderObjectToMarkup(content(r)))
		}
	})
}
