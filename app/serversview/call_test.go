package serversview

import (
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/testkit/demotest"
	"github.com/elicitdesk/elicitdesk/internal/testkit/uitest"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/demo"
)

// toolRow is the Tools tab's row of a tool, or nil.
func (h *harness) toolRow(name string) *toolRow {
	for _, o := range h.w.tools.box.Objects {
		if r, ok := o.(*toolRow); ok && r.tool.Name == name {
			return r
		}
	}
	return nil
}

// openCall waits for a server's tools and taps Call… on one.
func (h *harness) openCall(server, tool string) *callWindow {
	h.t.Helper()
	h.waitState(server, servers.StateReady)
	h.selectServer(server)
	h.waitFor("the tools of "+server, func() bool { return h.toolRow(tool) != nil })
	test.Tap(h.toolRow(tool).call)
	c := h.w.calls[server+"\x00"+tool]
	if c == nil {
		h.t.Fatal("Call… opened nothing")
	}
	return c
}

// next is the next elicitation the router asks.
func (h *harness) next() *servers.Elicitation {
	h.t.Helper()
	select {
	case e := <-h.asked:
		return e
	case <-time.After(30 * time.Second):
		h.t.Fatal("no elicitation")
		return nil
	}
}

// answer takes the next elicitation from the router and replies.
func (h *harness) answer(res forms.Result) *servers.Elicitation {
	h.t.Helper()
	e := h.next()
	if err := e.Reply(res); err != nil {
		h.t.Fatal(err)
	}
	return e
}

// waitResult waits for the call to end with heading.
func (h *harness) waitResult(c *callWindow, heading string) {
	h.t.Helper()
	h.waitFor("the result", func() bool { return c.heading.Text == heading })
}

func TestToolsListed(t *testing.T) {
	h := newDemoHarness(t, demotest.Server(t, "demo"))
	h.waitState("demo", servers.StateReady)
	h.waitFor("the tools", func() bool { return h.toolRow(demo.ToolNeedsLink) != nil })
	for _, name := range []string{demo.ToolAskEveryField, demo.ToolAskConfirm, demo.ToolAskTwice, demo.ToolAskThenGiveUp, demo.ToolOpenLink, demo.ToolNeedsLink, demo.ToolInputRequired} {
		if h.toolRow(name) == nil {
			t.Errorf("%s is not listed", name)
		}
	}
	if got := h.w.tools.status.Text; got != "demo has 7 tools." {
		t.Errorf("status %q", got)
	}

	// Tab goes from the search, above the tools, to the first tool's Call….
	var tabs *container.AppTabs
	for _, o := range test.LaidOutObjects(h.w.win.Content()) {
		if t, ok := o.(*container.AppTabs); ok {
			tabs = t
		}
	}
	tabs.SelectIndex(1)
	h.w.win.Canvas().Focus(h.w.tools.search)
	h.w.win.Canvas().FocusNext()
	if got := h.w.win.Canvas().Focused(); got != fyne.Focusable(h.w.tools.box.Objects[0].(*toolRow).call) {
		t.Errorf("Tab from the search went to %T, want the first tool's Call…", got)
	}
	tabs.SelectIndex(0)

	// A server that is not ready says so instead.
	test.Tap(h.w.detail.toggle)
	h.waitFor("the disabled message", func() bool {
		return h.w.tools.status.Text == "demo is disabled. Enable it to see its tools." && len(h.w.tools.box.Objects) == 0
	})
}

func TestCallToolShowsResult(t *testing.T) {
	h := newDemoHarness(t, demotest.Server(t, "demo"))
	c := h.openCall("demo", demo.ToolAskConfirm)
	if c.view == nil || c.asJSON.Checked {
		t.Fatal("ask_confirm's arguments are not a form")
	}
	c.view.Accept()
	e := h.next()
	if e.Message != "Do you want to continue?" {
		t.Errorf("the tool asked %q", e.Message)
	}
	form, err := forms.Parse(e.Schema)
	if err != nil {
		t.Fatal(err)
	}
	h.w.FormAsked("another", e.Message, form) // as the app tells of each form window it opens
	h.w.FormAsked("demo", e.Message, form)
	if len(c.asked.Objects) != 2 || !strings.Contains(c.asked.Objects[0].(*widget.Label).Text, "The tool asked: Do you want to continue?") {
		t.Errorf("what hosts do with the form it asked: %v", c.asked.Objects)
	}
	if err := e.Reply(forms.Result{Action: forms.Decline}); err != nil {
		t.Fatal(err)
	}
	h.waitResult(c, "Result")
	if h.w.FormAsked("demo", e.Message, form); len(c.asked.Objects) != 2 {
		t.Error("a form after the call ended was taken as its")
	}
	if !strings.HasPrefix(c.output.Text, "The client declined.") || !strings.Contains(c.output.Text, `"action": "decline"`) {
		t.Errorf("result:\n%s", c.output.Text)
	}
	if c.heading.Importance != widget.SuccessImportance || c.retry.Text != "Call again" {
		t.Errorf("heading importance %v, retry %q", c.heading.Importance, c.retry.Text)
	}
	test.Tap(c.copy)
	if got := h.w.app.Clipboard().Content(); got != c.output.Text {
		t.Errorf("copied %q", got)
	}
	test.Tap(c.edit)
	if !c.argsPage.Visible() || c.outPage.Visible() {
		t.Error("Edit arguments did not go back to the form")
	}
	c.win.Close()
	if h.w.calls[c.key] != nil {
		t.Error("a closed call window is still listed")
	}
}

// TestCallByKeyboard: a call window takes the keyboard as it opens, in
// its first field, or on Call when the tool takes no arguments, so that
// Enter calls. (Ctrl+Enter is the form's, tested with formview: Fyne's
// test canvas drops shortcuts.)
func TestCallByKeyboard(t *testing.T) {
	h := newDemoHarness(t, demotest.Server(t, "demo"))
	c := h.openCall("demo", demo.ToolAskEveryField)
	focused := c.win.Canvas().Focused()
	if focused == nil {
		t.Fatal("a tool without arguments: nothing has the keyboard, want Call")
	}
	if b, ok := uitest.Button(focused.(fyne.CanvasObject)); !ok || b.Text != "Call" {
		t.Fatalf("a tool without arguments: the keyboard is on %T, want Call", focused)
	}
	focused.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if c.win.Canvas().Focused() != fyne.Focusable(c.cancel) {
		t.Errorf("while the call runs the keyboard is on %T, want Cancel call", c.win.Canvas().Focused())
	}
	h.answer(forms.Result{Action: forms.Decline})
	h.waitResult(c, "Result")
	if c.win.Canvas().Focused() != fyne.Focusable(c.retry) {
		t.Errorf("once the call ended the keyboard is on %T, want Call again", c.win.Canvas().Focused())
	}
	// Tab goes round the buttons only: a selectable label would be a stop
	// that shows no focus.
	var stops []string
	for range 8 {
		c.win.Canvas().FocusNext()
		f := c.win.Canvas().Focused()
		b, ok := uitest.Button(f.(fyne.CanvasObject))
		if !ok {
			stops = append(stops, fmt.Sprintf("%T", f))
			continue
		}
		stops = append(stops, b.Text)
		if f == fyne.Focusable(c.retry) {
			break
		}
	}
	if got, want := strings.Join(stops, ", "), "Close, Edit arguments, Copy, Call again"; got != want {
		t.Errorf("Tab from Call again goes to %s; want %s", got, want)
	}

	c = h.openCall("demo", demo.ToolAskConfirm)
	if f, ok := c.win.Canvas().Focused().(fyne.CanvasObject); !ok {
		t.Error("a tool with arguments: nothing has the keyboard, want its first field")
	} else if b, ok := uitest.Button(f); ok {
		t.Errorf("a tool with arguments: the keyboard is on %s, want its first field", b.Text)
	}
}

func TestCallToolWithJSON(t *testing.T) {
	h := newDemoHarness(t, demotest.Server(t, "demo"))
	c := h.openCall("demo", demo.ToolAskConfirm)
	test.Tap(c.asJSON)
	if want := "{\n  \"message\": \"Do you want to continue?\"\n}"; c.jsonText.Text != want {
		t.Errorf("the JSON editor starts with %q, want the form's content", c.jsonText.Text)
	}
	call := button(t, c.win.Content(), "Call")

	c.jsonText.SetText("[1]")
	test.Tap(call)
	if !c.jsonErr.Visible() || c.jsonErr.Text != "Not a JSON object: the arguments must be a JSON object, in { }" {
		t.Errorf("error %q (shown %v)", c.jsonErr.Text, c.jsonErr.Visible())
	}
	c.jsonText.SetText("[1, 2]")
	if c.jsonErr.Visible() {
		t.Error("the error stays once the person edits the JSON")
	}

	// JSON the form cannot take keeps the editor, and what was typed.
	c.jsonText.SetText(`{"nope": 1}`)
	test.Tap(c.asJSON)
	if !c.asJSON.Checked || c.jsonText.Text != `{"nope": 1}` || !strings.Contains(c.jsonErr.Text, `no field "nope"`) {
		t.Errorf("switching to the form with bad JSON: checked %v, text %q, error %q", c.asJSON.Checked, c.jsonText.Text, c.jsonErr.Text)
	}

	c.jsonText.SetText(`{"message": "Really?"}`)
	test.Tap(call)
	if e := h.answer(forms.Result{Action: forms.Decline}); e.Message != "Really?" {
		t.Errorf("the tool asked %q", e.Message)
	}
	h.waitResult(c, "Result")
}

// A tool whose arguments no form can show gets the JSON editor, and a call
// to a server that is not connected says so.
func TestCallWithoutFormOrConnection(t *testing.T) {
	a := test.NewTempApp(t)
	log := slog.New(slog.DiscardHandler)
	ui := make(chan func(), 8) // what the window posts to the UI goroutine: this one
	w := New(a, Deps{Servers: managerServers{servers.NewManager(servers.NewRouter(servers.DefaultLimits, log), log, nil)}, ConfigPath: filepath.Join(t.TempDir(), "servers.json"), Log: log,
		Do: func(f func()) { ui <- f }})
	tool, err := servers.ParseTool([]byte(`{"name": "search", "inputSchema": {"type": "object", "properties": {"filter": {"type": "object"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	w.openCall("gone", tool)
	c := w.calls["gone\x00search"]
	if c.view != nil || c.asJSON != nil || c.jsonText.Text != "{}" {
		t.Fatal("the JSON editor is not shown")
	}
	c.jsonText.SetText(`{"filter": {"name": "x"}}`)
	test.Tap(button(t, c.win.Content(), "Call"))
	(<-ui)() // the call's outcome
	if c.heading.Text != "The call failed." || c.output.Text != "gone is not connected; try again once it is ready" {
		t.Errorf("heading %q, output %q", c.heading.Text, c.output.Text)
	}
	test.Tap(c.edit)
	if want := "{\n  \"filter\": {\n    \"name\": \"x\"\n  }\n}"; c.jsonText.Text != want || !c.argsPage.Visible() {
		t.Errorf("Edit arguments shows %q", c.jsonText.Text)
	}
	if got := c.win.Title(); got != "Call search on gone — Elicit Desk" {
		t.Errorf("titled %q", got)
	}
	// Escape with nothing focused closes the window, as Ctrl+W does.
	c.win.Canvas().Unfocus()
	c.win.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if _, open := w.calls["gone\x00search"]; open {
		t.Error("Escape left the call window open")
	}
}

func TestCancelCall(t *testing.T) {
	h := newDemoHarness(t, demotest.Server(t, "demo"))
	c := h.openCall("demo", demo.ToolAskConfirm)
	c.view.Accept()
	e := h.next() // the tool is waiting for the person
	if !c.cancel.Visible() || c.retry.Visible() {
		t.Fatal("a running call cannot be cancelled")
	}
	test.Tap(c.cancel)
	h.waitResult(c, "Cancelled.")
	if !c.retry.Visible() || !c.edit.Visible() || c.cancel.Visible() {
		t.Error("after cancelling, the call cannot be made again")
	}
	e.Reply(forms.Result{Action: forms.Cancel}) // the question may still wait
}

// A -32042 answer shows its links through ShowLinks; Retry then goes through.
func TestNeedsLinkThenRetry(t *testing.T) {
	entry := demotest.Server(t, "linky")
	entry.ProtocolVersion = "2025-11-25"
	h := newDemoHarness(t, entry)
	c := h.openCall("linky", demo.ToolNeedsLink)
	c.view.Accept()

	var req linkRequest
	h.waitFor("ShowLinks to be called", func() bool {
		select {
		case req = <-h.links:
			return true
		default:
			return false
		}
	})
	if req.who.Name != "linky" || req.who.Reported.Name != demo.Name {
		t.Errorf("ShowLinks for %+v", req.who)
	}
	if len(req.links) != 1 || req.links[0].Mode != servers.ModeURL || req.links[0].ElicitationID == "" ||
		!strings.HasPrefix(string(req.links[0].URL), "https://example.com/elicit-desk-demo?session=") {
		t.Fatalf("links %+v", req.links)
	}
	h.waitFor("the links", func() bool { return strings.Contains(c.links.Text, req.links[0].URL.Line()) })
	if !c.retry.Visible() || c.retry.Text != "Retry call" || c.retry.Importance == widget.HighImportance {
		t.Errorf("before the links are done: retry %q visible %v importance %v", c.retry.Text, c.retry.Visible(), c.retry.Importance)
	}

	close(req.done)
	h.waitFor("Retry to become primary", func() bool { return c.retry.Importance == widget.HighImportance })
	test.Tap(c.retry)
	h.waitResult(c, "Result")
	if !strings.Contains(c.output.Text, "The call went through") || !strings.Contains(c.output.Text, `"retried": true`) {
		t.Errorf("result after retry:\n%s", c.output.Text)
	}
}

// TestCallLook: what each stage of a call window shows. The result page
// offers Edit and Copy only once the call ended, Cancel only while it
// runs, and a -32042's Retry is the thing to do once the links are done.
func TestCallLook(t *testing.T) {
	waiting := "Waiting for you to deal with the link(s) in their own window…"
	tests := []struct {
		name string
		s    callState
		want callLook
	}{
		{"the arguments", callState{stage: callArgs}, callLook{args: true}},
		{"running", callState{stage: callRunning}, callLook{spinner: true, cancel: true}},
		{"ended", callState{stage: callEnded}, callLook{retry: true, edit: true, copy: true, retryText: "Call again"}},
		{"links to open", callState{stage: callNeedsLinks}, callLook{retry: true, edit: true, copy: true, retryText: "Retry call", linksHint: waiting}},
		{"links done", callState{stage: callNeedsLinks, linksDone: true},
			callLook{retry: true, edit: true, copy: true, retryText: "Retry call", retryPrimary: true, linksHint: "Done with the links: retry the call."}},
	}
	for _, tt := range tests {
		if got := tt.s.look(); got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
