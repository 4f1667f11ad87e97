package serversview

import (
	"maps"
	"os"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/elicitdesk/elicitdesk/app/wheel"
	"github.com/elicitdesk/elicitdesk/internal/testkit/demotest"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/config"
)

func TestAddServerWritesFile(t *testing.T) {
	h := newDemoHarness(t, demotest.Server(t, "demo"))
	test.Tap(h.w.list.add)
	e := h.w.editor
	if e == nil {
		t.Fatal("Add server… opened nothing")
	}
	want := demotest.Server(t, "second")
	test.Type(e.name, "second")
	test.Type(e.command, want.Target())
	test.Type(e.env.entry, demotest.Env+"=1")
	e.protocol.SetSelected("2025-06-18")
	test.Tap(e.save)
	if h.w.editor != nil {
		t.Fatalf("the dialog stayed open: %s", e.saveErr.Text)
	}

	cfg := h.configured()
	got, ok := cfg.Server("second")
	if !ok || cfg.Servers[1].Name != "second" {
		t.Fatalf("servers.json holds %+v", cfg.Servers)
	}
	if got.Command != want.Command || !slices.Equal(got.Args, want.Args) || !maps.Equal(got.Env, want.Env) ||
		got.ProtocolVersion != "2025-06-18" || got.Disabled || got.Err != nil {
		t.Errorf("added %+v", got)
	}

	// The app's watcher connects it; the window selects it.
	h.waitState("second", servers.StateReady)
	h.waitFor("second selected and pinned", func() bool {
		return h.w.selected == "second" && h.w.detail.protocol.Text == "2025-06-18 (pinned)"
	})
}

// TestEnterSaves: Enter in a one-line field saves, as in a desktop's
// dialogs.
func TestEnterSaves(t *testing.T) {
	h := newDemoHarness(t, demotest.Server(t, "demo"))
	test.Tap(h.w.list.add)
	e := h.w.editor
	test.Type(e.name, "second")
	test.Type(e.command, demotest.Server(t, "second").Target())
	e.command.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if h.w.editor != nil {
		t.Fatalf("Enter did not save: %s", e.saveErr.Text)
	}
	if _, ok := h.configured().Server("second"); !ok {
		t.Error("Enter saved nothing to servers.json")
	}
}

// Bad input is shown under its field and nothing typed is lost.
func TestBadEntryShowsErrorsAndKeepsText(t *testing.T) {
	h := newDemoHarness(t, demotest.Server(t, "demo"))
	before, err := os.ReadFile(h.path)
	if err != nil {
		t.Fatal(err)
	}
	test.Tap(h.w.list.add)
	e := h.w.editor
	test.Type(e.name, "demo")
	test.Type(e.command, "npx 'unclosed")
	test.Type(e.cwd, "relative/dir")
	test.Type(e.env.entry, "JUNK")
	test.Tap(e.save)

	for f, want := range map[field]string{
		fieldName:    `Another server is already called "demo".`,
		fieldCommand: "The command line cannot be read: a ' quote is not closed.",
		fieldCwd:     "Enter a full path, such as /home/me/project, or leave it empty.",
		fieldEnv:     "Line 1: write KEY=VALUE.",
	} {
		if l := e.errs[f]; !l.Visible() || l.Text != want {
			t.Errorf("%s: error %q (shown %v), want %q", f, l.Text, l.Visible(), want)
		}
	}
	if h.w.editor != e || !e.saveErr.Visible() {
		t.Fatal("the dialog closed on bad input")
	}
	if e.name.Text != "demo" || e.command.Text != "npx 'unclosed" || e.cwd.Text != "relative/dir" || e.env.entry.Text != "JUNK" {
		t.Errorf("typed text lost: %q %q %q %q", e.name.Text, e.command.Text, e.cwd.Text, e.env.entry.Text)
	}
	if after, _ := os.ReadFile(h.path); string(after) != string(before) {
		t.Errorf("bad input was written:\n%s", after)
	}

	// Editing a field clears its error; switching transport asks for a URL
	// and keeps the command line for a switch back.
	test.Type(e.name, "2")
	if e.errs[fieldName].Visible() {
		t.Error("the name's error stayed after an edit")
	}
	e.transport.SetSelected(transportText(config.TransportHTTP))
	if e.stdioRows[1].Visible() || !e.remoteRows[1].Visible() {
		t.Error("the http transport shows the stdio inputs")
	}
	test.Type(e.url, "mcp.example.com")
	test.Tap(e.save)
	if l := e.errs[fieldURL]; !l.Visible() {
		t.Error("a URL without a scheme was accepted")
	}
	if e.command.Text != "npx 'unclosed" {
		t.Error("switching transport lost the command line")
	}
	test.Tap(button(t, h.w.win.Canvas().Overlays().Top(), "Cancel"))
	if h.w.editor != nil || h.w.win.Canvas().Overlays().Top() != nil {
		t.Error("Cancel left the dialog open")
	}
}

// Editing keeps the entry's place and renames it.
func TestEditRenamesInPlace(t *testing.T) {
	h := newDemoHarness(t, demotest.Server(t, "a"), demotest.Server(t, "b"), demotest.Server(t, "c"))
	h.waitState("b", servers.StateReady)
	h.selectServer("b")
	test.Tap(h.w.detail.edit)
	e := h.w.editor
	if e.name.Text != "b" || e.env.entry.Text != demotest.Env+"=1\n" || e.protocol.Selected != negotiate {
		t.Fatalf("the dialog shows %q %q %q", e.name.Text, e.env.entry.Text, e.protocol.Selected)
	}
	e.name.SetText("b2")
	test.Tap(e.disabled)
	test.Tap(e.save)
	var names []string
	for _, s := range h.configured().Servers {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{"a", "b2", "c"}) {
		t.Errorf("entries %q", names)
	}
	h.waitState("b2", servers.StateDisabled)
	h.waitFor("b2 selected", func() bool { return h.w.selected == "b2" && h.row("b") == nil })
}

// TestTabScrollsEditor: in a window too short for the whole Add server
// form (as at scale 2), Tab into a field below what shows scrolls the form
// so that the field is in view.
func TestTabScrollsEditor(t *testing.T) {
	h := newDemoHarness(t, demotest.Server(t, "demo"))
	h.w.win.Resize(fyne.NewSize(640, 360))
	test.Tap(h.w.list.add)
	e := h.w.editor
	if view := e.scroll.Size().Height; e.scroll.Content.Size().Height <= view || view <= 0 {
		t.Fatalf("the form does not scroll: %v in %v", e.scroll.Content.Size().Height, view)
	}
	if _, bottom := wheel.Span(e.scroll, e.disabled); bottom <= e.scroll.Size().Height {
		t.Fatal("the last field shows already")
	}
	c := h.w.win.Canvas()
	for range 20 {
		if c.Focused() == fyne.Focusable(e.disabled) {
			break
		}
		c.FocusNext()
	}
	if c.Focused() != fyne.Focusable(e.disabled) {
		t.Fatalf("Tab never reached the last field: focus on %T", c.Focused())
	}
	top, bottom := wheel.Span(e.scroll, e.disabled)
	if at := e.scroll.Offset.Y; at == 0 || top < at || bottom > at+e.scroll.Size().Height {
		t.Errorf("the last field at %v–%v, the form scrolled to %v of %v", top, bottom, at, e.scroll.Size().Height)
	}
}
