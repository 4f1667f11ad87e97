package historyview

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/keys"
	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/desktop/screen"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/servers"
)

// entries are the history the window tests start from, oldest first.
func entries() []history.Entry {
	at := time.Now().Add(-time.Hour)
	form := json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","enum":["eu","us"]}}}`)
	list := []history.Entry{
		{Server: servers.Identity{Name: "deployer"}, Message: "Deploy to production?", Mode: servers.ModeForm, Schema: form,
			Outcome: history.Accepted, Content: json.RawMessage(`{"region":"eu"}`)},
		{Server: servers.Identity{Name: "files"}, Message: "Delete the **folder**? [see](https://evil.example)", Mode: servers.ModeForm,
			Schema: json.RawMessage(`{"type":"object","properties":{}}`), Outcome: history.Declined},
		{Server: servers.Identity{Name: "auth"}, Message: "Sign in", Mode: servers.ModeURL, URL: "https://auth.example.com/login",
			Outcome: history.Stale, Reason: "the server cancelled"},
		{Server: servers.Identity{Name: "deployer"}, Message: "Deploy staging", Mode: servers.ModeForm, Schema: form,
			Outcome: history.Cancelled, Received: time.Now().Add(-30 * history.Day)},
	}
	for i := range list {
		if list[i].Received.IsZero() {
			list[i].Received = at.Add(time.Duration(i) * time.Minute)
		}
	}
	return list
}

// harness is the History window over a real store in a temporary
// directory, with its background work done at once on the test goroutine.
type harness struct {
	t     *testing.T
	app   fyne.App
	store *history.Store
	w     *Window
	// clears counts the window's asks to clear the history, which the
	// harness does as the core would.
	clears int
}

// ClearHistory clears the store, as the core does for the window.
func (h *harness) ClearHistory(ctx context.Context) error {
	h.clears++
	return h.store.Clear(ctx)
}

func open(t *testing.T, opts Options) *harness {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	for _, v := range []string{"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"} {
		t.Setenv(v, filepath.Join(dir, v))
	}
	path := history.DefaultPath(filepath.Join(dir, "data"))
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	return openAt(t, path, opts)
}

func openAt(t *testing.T, path string, opts Options) *harness {
	t.Helper()
	a := test.NewTempApp(t)
	s, err := history.Open(path, slog.New(slog.DiscardHandler), history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	for _, e := range entries() {
		if _, err := s.Add(context.Background(), e); err != nil {
			t.Fatal(err)
		}
	}
	h := &harness{t: t, app: a, store: s}
	h.w = New(a, Deps{Store: s, Writer: h}, opts)
	h.w.run = func(_ time.Duration, work func() func()) { work()() }
	h.w.Show()
	return h
}

// messages are the first lines the list shows, top to bottom.
func (h *harness) messages() []string {
	var got []string
	for _, e := range h.w.entries {
		got = append(got, rowOf(e).headline)
	}
	if h.w.list.Length() != len(got) {
		h.t.Fatalf("the list has %d rows for %d entries", h.w.list.Length(), len(got))
	}
	return got
}

// selectMessage selects the entry with message in the list.
func (h *harness) selectMessage(message string) history.Entry {
	h.t.Helper()
	for i, e := range h.w.entries {
		if string(e.Message) == message {
			h.w.list.Select(i)
			return e
		}
	}
	h.t.Fatalf("no entry %q in the list", message)
	return history.Entry{}
}

// button finds a button by its text in the window or its top dialog.
func (h *harness) button(text string) *look.Button {
	h.t.Helper()
	roots := []fyne.CanvasObject{h.w.win.Content()}
	if top := h.w.win.Canvas().Overlays().Top(); top != nil {
		roots = append([]fyne.CanvasObject{top}, roots...)
	}
	for _, root := range roots {
		if b := find(root, func(b *look.Button) bool { return b.Text == text }); b != nil {
			return b
		}
	}
	h.t.Fatalf("no button %q", text)
	return nil
}

// find returns the first T under o that ok accepts, or T's nil.
func find[T fyne.CanvasObject](o fyne.CanvasObject, ok func(T) bool) T {
	found, _ := search(o, ok)
	return found
}

func search[T fyne.CanvasObject](o fyne.CanvasObject, ok func(T) bool) (T, bool) {
	if t, is := o.(T); is && ok(t) {
		return t, true
	}
	var children []fyne.CanvasObject
	switch o := o.(type) {
	case *fyne.Container:
		children = o.Objects
	case fyne.Widget:
		children = test.WidgetRenderer(o).Objects()
	}
	for _, c := range children {
		if found, is := search(c, ok); is {
			return found, true
		}
	}
	var zero T
	return zero, false
}

func TestSearchFiltersList(t *testing.T) {
	h := open(t, Options{})
	all := []string{"Sign in", "Delete the **folder**? [see](https://evil.example)", "Deploy to production?", "Deploy staging"}
	tests := []struct {
		name            string
		text            string
		server, outcome string
		want            []string
	}{
		{"nothing typed", "", allServers, allOutcomes, all},
		{"a word as typed", "deplo", allServers, allOutcomes, []string{"Deploy to production?", "Deploy staging"}},
		{"two words", "deploy prod", allServers, allOutcomes, []string{"Deploy to production?"}},
		{"a server", "", "files", allOutcomes, []string{all[1]}},
		{"an outcome", "", allServers, "Gone stale", []string{"Sign in"}},
		{"words and filters", "deploy", "deployer", "Cancelled", []string{"Deploy staging"}},
		{"no match", "zebra", allServers, allOutcomes, nil},
		{"query syntax is text", `"deploy" OR (`, allServers, allOutcomes, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.w.search.SetText("")
			test.Type(h.w.search, tt.text)
			h.w.server.SetSelected(tt.server)
			h.w.outcome.SetSelected(tt.outcome)
			if got := h.messages(); strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("list shows %q, want %q", got, tt.want)
			}
			if empty := emptyStateOf(len(tt.want), false, tt.text, tt.server, tt.outcome); h.w.empty.Text != empty.text || h.w.emptyBox.Visible() != (empty.text != "") {
				t.Errorf("the list area says %q (shown: %v), want %q", h.w.empty.Text, h.w.emptyBox.Visible(), empty.text)
			}
		})
	}
	if got := h.w.server.Options; strings.Join(got, ",") != allServers+",auth,deployer,files" {
		t.Errorf("server filter offers %v", got)
	}
}

func TestDetailAndCopyAsJSON(t *testing.T) {
	h := open(t, Options{})
	e := h.selectMessage("Delete the **folder**? [see](https://evil.example)") // Markdown, shown as it is
	d := h.w.detail
	if d.message.Text != e.Message.Block() {
		t.Errorf("message shown as %q", d.message.Text)
	}
	if !strings.Contains(d.request.Text, "\n  \"message\": ") || !strings.Contains(d.response.Text, `"action": "decline"`) {
		t.Errorf("request %s\nresponse %s", d.request.Text, d.response.Text)
	}
	test.Tap(h.button("Copy as JSON"))
	var copied struct {
		ID      int64
		Message string
		Outcome string
	}
	if err := json.Unmarshal([]byte(h.app.Clipboard().Content()), &copied); err != nil {
		t.Fatalf("clipboard: %v", err)
	}
	if copied.ID != e.ID || copied.Message != string(e.Message) || copied.Outcome != "declined" {
		t.Errorf("copied %+v", copied)
	}
	if d.copied.Text != "Copied." {
		t.Errorf("after Copy as JSON the pane says %q", d.copied.Text)
	}
	for _, other := range h.messages() {
		if other != string(e.Message) {
			h.selectMessage(other)
			break
		}
	}
	if d.copied.Text != "" {
		t.Errorf("another entry shown, the pane still says %q", d.copied.Text)
	}
}

// TestClear: the window asks the core, the history's one writer, to clear
// it once the person confirms, then shows what is left.
func TestClear(t *testing.T) {
	tests := []struct {
		name    string
		confirm string
		left    int
		clears  int
	}{
		{"cancelled", "Cancel", 4, 0},
		{"escaped", "", 4, 0},
		{"confirmed", "Delete everything", 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := open(t, Options{})
			test.Tap(h.button("Clear…"))
			if tt.confirm == "" {
				c := h.w.win.Canvas()
				c.OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyReturn}) // the red button is no default
				c.OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
				if c.Overlays().Top() != nil {
					t.Error("Escape left the question open")
				}
			} else {
				test.Tap(h.button(tt.confirm))
			}
			if n := len(h.messages()); n != tt.left {
				t.Errorf("the list shows %d, want %d", n, tt.left)
			}
			if stored, _ := h.store.Search(context.Background(), history.Query{}); len(stored) != tt.left {
				t.Errorf("the store holds %d, want %d", len(stored), tt.left)
			}
			if h.clears != tt.clears {
				t.Errorf("the core was asked to clear %d times, want %d", h.clears, tt.clears)
			}
		})
	}
}

func TestReplay(t *testing.T) {
	h := open(t, Options{})
	replays := func() []fyne.Window {
		var ws []fyne.Window
		for _, w := range h.app.Driver().AllWindows() {
			if strings.HasPrefix(w.Title(), "Replay: ") {
				ws = append(ws, w)
			}
		}
		return ws
	}
	h.selectMessage("Sign in") // a URL request
	if !h.w.detail.replay.Disabled() {
		t.Error("a URL request can be replayed")
	}
	tests := []struct {
		message string
		shows   string // in the replay's review of its fields
		note    string
		review  string // heads that review
	}{
		{"Deploy to production?", `"region": "eu"`, "filled in with the answer you sent then", "What you sent then"},
		{"Deploy staging", `{}`, "as it first showed (Cancelled)", "Not sent: the form as it first showed"},
	}
	for _, tt := range tests {
		t.Run(tt.message, func(t *testing.T) {
			h.selectMessage(tt.message)
			test.Tap(h.button("Replay"))
			ws := replays()
			if len(ws) != 1 || ws[0].Title() != "Replay: deployer — "+tt.message+" — Elicit Desk" {
				t.Fatalf("replay windows: %v", ws)
			}
			// Sized to the form, not a fixed 600 high; the form fits whole.
			if size, need := ws[0].Canvas().Size(), ws[0].Content().MinSize(); size.Height >= 600 || size.Height < need.Height {
				t.Errorf("the replay is %v for content of at least %v", size, need)
			}
			shown := test.RenderObjectToMarkup(ws[0].Content())
			for _, want := range []string{replayHeading, tt.note, tt.shows, tt.review} {
				if !strings.Contains(shown, want) {
					t.Errorf("the replay does not show %q", want)
				}
			}
			if strings.Contains(shown, "Nothing was sent") {
				t.Error("the replay's review speaks as if a live request had ended")
			}
			for _, label := range []string{"Accept", "Decline", "Cancel"} {
				if b := find(ws[0].Content(), func(b *look.Button) bool { return b.Text == label && b.Visible() && !b.Disabled() }); b != nil {
					t.Errorf("the replay offers %q as if it could answer", label)
				}
			}
			test.Tap(find(ws[0].Content(), func(b *look.Button) bool { return b.Text == "Close replay" }))
			if len(replays()) != 0 {
				t.Error("Close replay left the window open")
			}
		})
	}
	if stored, _ := h.store.Search(context.Background(), history.Query{}); len(stored) != 4 {
		t.Errorf("the replay recorded something: %d entries", len(stored))
	}
}

func TestEmptyStates(t *testing.T) {
	h := open(t, Options{})
	shown := func() string {
		if !h.w.emptyBox.Visible() {
			return ""
		}
		return h.w.empty.Text
	}
	test.Type(h.w.search, "zebra")
	if got := shown(); got != "Nothing matches “zebra”." || !h.w.clear.Visible() {
		t.Errorf("a search that finds nothing shows %q, Clear search %v", got, h.w.clear.Visible())
	}
	h.w.outcome.SetSelected("Gone stale")
	test.Tap(h.w.clear)
	if got := shown(); got != "" || len(h.messages()) != 4 || h.w.search.Text != "" || h.w.outcome.Selected != allOutcomes {
		t.Errorf("after Clear search: %q, %d entries, search %q, outcome %q", got, len(h.messages()), h.w.search.Text, h.w.outcome.Selected)
	}
	test.Tap(h.button("Clear…"))
	test.Tap(h.button("Delete everything"))
	if got := shown(); got != "No requests yet. They appear here once a server asks." || h.w.clear.Visible() {
		t.Errorf("an empty history shows %q, Clear search %v", got, h.w.clear.Visible())
	}
	// In the middle of the list area, not in the footer.
	box, list := h.w.emptyBox.Size(), h.w.rows.Size()
	if box != list {
		t.Errorf("the empty state takes %v of the list's %v", box, list)
	}
}

// TestMessageColumnTakesTheRest widens the window and checks that the
// message column, and only it, grows.
func TestMessageColumnTakesTheRest(t *testing.T) {
	h := open(t, Options{})
	widths := func() (cols columns, message float32) {
		msg := find(h.w.rows, func(l *widget.Label) bool { return l.Text == "Deploy to production?" })
		if msg == nil {
			t.Fatal("no row shows the message")
		}
		return h.w.cols, msg.Size().Width
	}
	h.w.win.Resize(fyne.NewSize(900, 700))
	cols, narrow := widths()
	h.w.win.Resize(fyne.NewSize(1400, 700))
	cols2, wide := widths()
	if cols != cols2 || wide-narrow < 400 {
		t.Errorf("widening the window by 500 gave the message %v more, the columns %v then %v", wide-narrow, cols, cols2)
	}
	if sum := cols[0] + cols[1] + cols[2]; wide < 1400-sum-100 {
		t.Errorf("the message has %v of a 1400 wide window, the columns %v", wide, cols)
	}
}

func TestRefreshShowsNewEntries(t *testing.T) {
	h := open(t, Options{})
	e := entries()[0]
	e.Message, e.Server.Name, e.Received = "A new one", "newcomer", time.Now()
	if _, err := h.store.Add(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	h.w.Refresh()
	if got := h.messages(); len(got) != 5 || got[0] != "A new one" {
		t.Errorf("after Refresh the list shows %q", got)
	}
	if !strings.Contains(strings.Join(h.w.server.Options, ","), "newcomer") {
		t.Errorf("the server filter lacks the new server: %v", h.w.server.Options)
	}
}

func TestNoticeBanner(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.db")
	if err := os.WriteFile(path, []byte(strings.Repeat("not a database ", 300)), 0o600); err != nil {
		t.Fatal(err)
	}
	h := openAt(t, path, Options{})
	if h.store.Notice() == "" {
		t.Fatal("the damaged file gave no notice")
	}
	if find(h.w.win.Content(), func(l *widget.Label) bool { return l.Text == h.store.Notice() }) == nil {
		t.Error("the notice is not shown")
	}
}

// TestDefaultSizeShowsRows opens the window at its default size: with a
// long history the list shows at least minRows whole rows and the detail
// keeps room for the selected request; with a short one the list shows
// its rows and the detail takes the rest; a divider the person moved
// stays where they put it.
func TestDefaultSizeShowsRows(t *testing.T) {
	for _, tt := range []struct {
		entries, rows int // rows: the whole rows shown, at least
		detail        float32
		dragged       bool
	}{
		{30, minRows, 180, false},
		{3, 3, 330, false},
		{3, 3, 100, true},
	} {
		t.Run(fmt.Sprint(tt.entries, tt.dragged), func(t *testing.T) {
			h := open(t, Options{Screen: func() screen.Screen { return screen.Screen{Work: screen.Area{Width: 1440, Height: 900}, Scale: 1} }})
			h.app.Settings().SetTheme(look.New()) // the app's sizes, not the test theme's
			h.w.win.Resize(fyne.NewSize(defaultWidth, defaultHeight))
			if tt.dragged {
				h.w.split.SetOffset(0.7)
			}
			at := time.Now().Add(-time.Minute)
			for i := range tt.entries {
				if _, err := h.store.Add(context.Background(), history.Entry{Server: servers.Identity{Name: "demo"}, Message: untrusted.Text(fmt.Sprintf("Request number %d", i)),
					Mode: servers.ModeForm, Outcome: history.NoWindow, Received: at.Add(time.Duration(i) * time.Second)}); err != nil {
					t.Fatal(err)
				}
			}
			h.w.Refresh()
			if got := h.w.win.Canvas().Size(); got != fyne.NewSize(defaultWidth, defaultHeight) {
				t.Fatalf("the window opened at %v", got)
			}
			d := fyne.CurrentApp().Driver()
			bottom := d.AbsolutePositionForObject(h.w.rows).Y + h.w.rows.Size().Height
			rows := 0
			for _, o := range test.LaidOutObjects(h.w.rows) {
				if l, ok := o.(*widget.Label); ok && strings.HasPrefix(l.Text, "Request number ") && l.Visible() &&
					d.AbsolutePositionForObject(l).Y+l.Size().Height <= bottom+1 {
					rows++
				}
			}
			if rows < tt.rows {
				t.Errorf("the list shows %d whole rows, want at least %d", rows, tt.rows)
			}
			if got := h.w.detail.object.Size().Height; got < tt.detail {
				t.Errorf("the detail has %v high, want at least %v", got, tt.detail)
			}
			if tt.dragged && h.w.split.Offset != 0.7 {
				t.Errorf("the divider moved to %v", h.w.split.Offset)
			}
		})
	}
}

// TestListOffset: the list takes what its rows and headings need, at
// least fewRows' worth and at most listShare.
func TestListOffset(t *testing.T) {
	for _, tt := range []struct {
		rows         int
		pitch, total float32
		want         float64
	}{
		{0, 20, 500, 0.2}, // fewRows+1 rows
		{9, 20, 500, 0.4}, // 9 rows and the headings
		{100, 20, 500, listShare},
		{3, 20, 0, listShare}, // not laid out yet
	} {
		if got := listOffset(tt.rows, tt.pitch, tt.total); math.Abs(got-tt.want) > 1e-6 {
			t.Errorf("listOffset(%d, %v, %v) = %v, want %v", tt.rows, tt.pitch, tt.total, got, tt.want)
		}
	}
}

// TestKeys closes the window with Ctrl+W and Escape, also while typing in
// the search, and focuses the search with Ctrl+F.
func TestKeys(t *testing.T) {
	tests := []struct {
		name    string
		focused bool // the search has the keyboard
		press   func(c fyne.Canvas, search *keys.Entry)
	}{
		{"Escape", false, func(c fyne.Canvas, _ *keys.Entry) { c.OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape}) }},
		{"Escape in the search", true, func(_ fyne.Canvas, s *keys.Entry) { s.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape}) }},
		{"Ctrl+W in the search", true, func(_ fyne.Canvas, s *keys.Entry) { s.TypedShortcut(ctrl(fyne.KeyW)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := open(t, Options{})
			closed := 0
			h.w.hide = func() { closed++ }
			c := h.w.win.Canvas()
			if tt.focused {
				h.w.search.TypedShortcut(ctrl(fyne.KeyF)) // as the canvas passes it on
				if c.Focused() != h.w.search {
					t.Fatalf("Ctrl+F focused %v, not the search", c.Focused())
				}
			}
			tt.press(c, h.w.search)
			if closed != 1 {
				t.Errorf("the window was put away %d times", closed)
			}
		})
	}
}

// TestSearchHasTheKeyboard: History opens with the keyboard in its
// search, so that typing searches; shown again, it keeps the keyboard
// where the person left it.
func TestSearchHasTheKeyboard(t *testing.T) {
	h := open(t, Options{})
	c := h.w.win.Canvas()
	if c.Focused() != h.w.search {
		t.Fatalf("History opened with the keyboard on %T, not the search", c.Focused())
	}
	_, list := h.w.rows.AccessibleList()
	c.Focus(list)
	h.w.Show()
	if c.Focused() != list {
		t.Errorf("shown again, the keyboard went to %T, not the list it was on", c.Focused())
	}
}

// TestListKeys: Escape closes the window, and F1 reaches it, while the
// list has the keyboard (a focused Fyne list kept both); Down still moves
// along the list.
func TestListKeys(t *testing.T) {
	h := open(t, Options{})
	closed, helped := 0, 0
	h.w.hide = func() { closed++ }
	c := h.w.win.Canvas()
	before := c.OnTypedKey()
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if ev.Name == fyne.KeyF1 {
			helped++
		}
		before(ev)
	})
	_, keyboard := h.w.rows.AccessibleList()
	c.Focus(keyboard)
	for _, k := range []fyne.KeyName{fyne.KeyDown, fyne.KeyF1, fyne.KeyEscape} {
		c.Focused().TypedKey(&fyne.KeyEvent{Name: k})
	}
	if row, ok := h.w.rows.Highlighted(); closed != 1 || helped != 1 || !ok || row != 1 {
		t.Errorf("closed %d, F1 reached the window %d times, the keyboard on row %d (%v); want 1, 1, row 1", closed, helped, row, ok)
	}
}

func ctrl(k fyne.KeyName) fyne.Shortcut {
	return &desktop.CustomShortcut{KeyName: k, Modifier: fyne.KeyModifierShortcutDefault}
}
