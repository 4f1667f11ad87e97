package serversview

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/elicitdesk/elicitdesk/internal/testkit/demotest"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/demo"
)

// pressEscape types Escape as the driver does: to the focused widget, or
// to the canvas when nothing has focus.
func pressEscape(c fyne.Canvas) {
	ev := &fyne.KeyEvent{Name: fyne.KeyEscape}
	if f := c.Focused(); f != nil {
		f.TypedKey(ev)
		return
	}
	c.OnTypedKey()(ev)
}

// Escape closes an Add/Edit dialog with nothing changed, from a focused
// input or with nothing focused.
func TestEscapeClosesUnchangedEditor(t *testing.T) {
	h := newDemoHarness(t, demotest.Server(t, "demo"))
	c := h.w.win.Canvas()
	for _, focused := range []bool{true, false} {
		test.Tap(h.w.list.add)
		if h.w.editor == nil {
			t.Fatal("Add server… opened nothing")
		}
		if !focused {
			c.Unfocus()
		} else if c.Focused() == nil {
			t.Fatal("the dialog opened with nothing focused")
		}
		pressEscape(c)
		if h.w.editor != nil || c.Overlays().Top() != nil {
			t.Errorf("focused %v: Escape left the dialog open", focused)
		}
	}
}

// Escape in a dialog with changes asks; Keep editing keeps everything,
// Discard closes and writes nothing.
func TestEscapeAsksBeforeDiscarding(t *testing.T) {
	h := newDemoHarness(t, demotest.Server(t, "demo"))
	h.waitState("demo", servers.StateReady)
	test.Tap(h.w.detail.edit)
	e := h.w.editor
	c := h.w.win.Canvas()
	test.Type(e.cwd, "/srv")
	pressEscape(c)
	ask := c.Overlays().Top()
	if h.w.editor != e || ask == nil || len(c.Overlays().List()) != 2 {
		t.Fatal("Escape with changes did not ask")
	}
	test.Tap(button(t, ask, "Keep editing"))
	if h.w.editor != e || e.cwd.Text != "/srv" || len(c.Overlays().List()) != 1 {
		t.Fatal("Keep editing lost the dialog or what was typed")
	}
	pressEscape(c) // asks again
	pressEscape(c) // and Escape on the question is Keep editing
	if h.w.editor != e || len(c.Overlays().List()) != 1 {
		t.Fatal("Escape on the question discarded the changes")
	}
	pressEscape(c)
	test.Tap(button(t, c.Overlays().Top(), "Discard"))
	if h.w.editor != nil || c.Overlays().Top() != nil {
		t.Fatal("Discard left a dialog open")
	}
	if s, _ := h.configured().Server("demo"); s.Cwd != "" {
		t.Error("discarded changes were written")
	}
}

// Escape with no dialog open closes the window as its close button does
// (keys.Close, tested with Ctrl+W in package keys): it hides it, or calls
// what SetOnClose gave.
func TestEscapeCloses(t *testing.T) {
	for _, tc := range []struct {
		name    string
		onClose bool // SetOnClose was called
	}{
		{"hides", false},
		{"without a tray", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newDemoHarness(t, demotest.Server(t, "demo"))
			closed := false
			if tc.onClose {
				h.w.SetOnClose(func() { closed = true })
			}
			h.w.Show()
			c := h.w.win.Canvas()
			c.Unfocus()
			pressEscape(c)
			if hidden := h.w.HiddenAs(h.w.win); hidden == tc.onClose || closed != tc.onClose {
				t.Errorf("hidden %v, SetOnClose's func called %v", hidden, closed)
			}
		})
	}
}

// Escape closes a tool's call window, from its form, its JSON editor or
// with nothing focused.
func TestEscapeClosesCallWindow(t *testing.T) {
	h := newDemoHarness(t, demotest.Server(t, "demo"))
	for _, where := range []string{"nothing focused", "form", "JSON editor"} {
		c := h.openCall("demo", demo.ToolAskConfirm)
		canvas := c.win.Canvas()
		switch where {
		case "nothing focused":
			canvas.Unfocus()
		case "form":
			c.view.FocusFirst(canvas)
		case "JSON editor":
			test.Tap(c.asJSON)
			canvas.Focus(c.jsonText)
		}
		if where != "nothing focused" && canvas.Focused() == nil {
			t.Fatalf("%s: nothing took focus", where)
		}
		pressEscape(canvas)
		if h.w.calls[c.key] != nil {
			t.Errorf("%s: Escape left the call window open", where)
		}
	}
}

// TestTabLeavesEveryInput: Tab moves on from every input of the Add
// dialog, multi-line ones included (the driver gives Tab to a widget that
// accepts it as text), so a person on the keyboard reaches Save.
func TestTabLeavesEveryInput(t *testing.T) {
	h := newDemoHarness(t, demotest.Server(t, "demo"))
	c := h.w.win.Canvas()
	test.Tap(h.w.list.add)
	if h.w.editor == nil {
		t.Fatal("Add server… opened nothing")
	}
	seen := map[fyne.Focusable]bool{}
	for f := c.Focused(); f != nil && !seen[f]; f = c.Focused() {
		seen[f] = true
		if tab, ok := f.(fyne.Tabbable); ok && tab.AcceptsTab() {
			t.Errorf("%T keeps Tab as text: a keyboard trap", f)
		}
		c.FocusNext()
	}
	if len(seen) < 4 {
		t.Errorf("Tab went through %d inputs, want the dialog's every one", len(seen))
	}
}

// TestF1ReachesWindow types F1 in the Tools search and in each kind of
// input of the Add server dialog: each hands it to the window's own key
// handler, where the app opens Help.
func TestF1ReachesWindow(t *testing.T) {
	h := newDemoHarness(t, demotest.Server(t, "demo"))
	c := h.w.win.Canvas()
	got := 0
	before := c.OnTypedKey()
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if ev.Name == fyne.KeyF1 {
			got++
		}
		before(ev)
	})
	f1 := &fyne.KeyEvent{Name: fyne.KeyF1}
	h.w.tools.search.TypedKey(f1)
	test.Tap(h.w.list.add)
	e := h.w.editor
	for _, in := range []fyne.Focusable{e.name, e.env.entry, e.transport, e.disabled} {
		in.TypedKey(f1)
	}
	if got != 5 || h.w.editor != e {
		t.Errorf("the window got F1 %d times of 5; the dialog open %v", got, h.w.editor == e)
	}
}
