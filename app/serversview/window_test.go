package serversview

import (
	"os"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/elicitdesk/elicitdesk/internal/testkit/demotest"
	"github.com/elicitdesk/elicitdesk/servers"
)

func TestListShowsDemoReady(t *testing.T) {
	h := newDemoHarness(t, demotest.Server(t, "demo"))
	h.waitState("demo", servers.StateReady)
	h.waitFor("the detail of the ready server", func() bool { return strings.HasPrefix(h.w.detail.state.Text, "Ready since") })
	d := h.w.detail
	for _, tc := range []struct{ got, want string }{
		{d.name.String(), "demo"},
		{d.reported.Text, "Elicit Desk demo server (elicitdesk-demo) 0.1.0"},
		{d.transport.Text, "Local command (stdio)"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	if !strings.HasSuffix(d.protocol.Text, "(negotiated)") {
		t.Errorf("protocol %q", d.protocol.Text)
	}
	if !strings.Contains(d.target.Text, "'-test.run=^$'") {
		t.Errorf("target %q is not the configured command line", d.target.Text)
	}
	if d.light.FillColor != theme.Color(theme.ColorNameSuccess) || d.problem.Visible() {
		t.Error("a ready server shows no green light, or shows an error")
	}
	if d.toggle.Text != "Disable" {
		t.Errorf("toggle says %q", d.toggle.Text)
	}
	win := h.w.Window()
	h.w.Show()
	if h.w.Window() != win {
		t.Error("Show made a second window")
	}
}

func TestDisableAndEnableWriteTheFile(t *testing.T) {
	h := newDemoHarness(t, demotest.Server(t, "demo"))
	h.waitState("demo", servers.StateReady)
	test.Tap(h.w.detail.toggle)
	if s, _ := h.configured().Server("demo"); !s.Disabled {
		t.Fatal("Disable did not write disabled: true")
	}
	h.waitState("demo", servers.StateDisabled)
	h.waitFor("the Enable button", func() bool { return h.w.detail.toggle.Text == "Enable" })
	test.Tap(h.w.detail.toggle)
	if s, _ := h.configured().Server("demo"); s.Disabled {
		t.Fatal("Enable left disabled: true")
	}
	h.waitState("demo", servers.StateReady)
}

func TestRemoveAsksThenRemoves(t *testing.T) {
	h := newDemoHarness(t, demotest.Server(t, "demo"), demotest.Server(t, "other"))
	h.waitState("demo", servers.StateReady)
	test.Tap(h.w.detail.remove)
	top := h.w.win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("Remove… asked nothing")
	}
	test.Tap(button(t, top, "Cancel"))
	if len(h.configured().Servers) != 2 {
		t.Fatal("Cancel removed the server")
	}
	test.Tap(h.w.detail.remove)
	test.Tap(button(t, h.w.win.Canvas().Overlays().Top(), "Remove"))
	cfg := h.configured()
	if len(cfg.Servers) != 1 || cfg.Servers[0].Name != "other" {
		t.Fatalf("servers.json holds %+v after removing demo", cfg.Servers)
	}
	h.waitFor("demo to leave the list", func() bool { return h.row("demo") == nil && h.w.selected == "other" })
}

// A broken entry shows its error and can be fixed in the dialog.
func TestBrokenEntryShowsErrorAndCanBeEdited(t *testing.T) {
	h := newHarness(t, []byte(`{"mcpServers": {"broken": {"command": 5, "args": ["x"], "keep": true}}}`))
	h.waitState("broken", servers.StateFailed)
	h.waitFor("the error", func() bool { return strings.Contains(h.w.detail.problem.Text, `"command" must be a string`) })
	if h.w.detail.edit.Disabled() || h.w.detail.remove.Disabled() {
		t.Fatal("a broken entry cannot be edited or removed")
	}
	test.Tap(h.w.detail.edit)
	e := h.w.editor
	if e == nil {
		t.Fatal("Edit… opened nothing")
	}
	if e.command.Text != "" {
		t.Errorf("the unreadable command shows as %q", e.command.Text)
	}
	test.Type(e.command, "fixed-server --flag")
	test.Tap(e.save)
	s, _ := h.configured().Server("broken")
	if s.Err != nil || s.Command != "fixed-server" || len(s.Args) != 1 || s.Args[0] != "--flag" {
		t.Fatalf("after the fix: %+v", s)
	}
	if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], `"keep"`) {
		t.Errorf("the entry's unknown key was not kept: %q", s.Warnings)
	}
	if h.w.editor != nil {
		t.Error("the dialog stayed open")
	}
}

// TestUnreadableFileKeepsShowingServers: servers.json broken under a
// running server shows why, as soon as it is read (the manager tells each
// reading), keeps the server listed and running, and offers no edit that
// would only fail; gone, Add makes it anew; mended, the window is as
// before.
func TestUnreadableFileKeepsShowingServers(t *testing.T) {
	h := newDemoHarness(t, demotest.Server(t, "demo"))
	h.waitState("demo", servers.StateReady)
	mended, err := os.ReadFile(h.path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(h.path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the file error", func() bool { return h.w.list.fileErr.Visible() })
	if r := h.row("demo"); r == nil || r.state() != servers.StateReady || !h.w.detail.edit.Disabled() || !h.w.list.add.Disabled() {
		t.Error("the running server is not listed, or can be edited or added to without a file")
	}
	if !strings.Contains(h.w.list.fileErr.Text, "servers.json:1:2") {
		t.Errorf("file error %q does not say where", h.w.list.fileErr.Text)
	}
	h.waitFor("the detail to say how it connects is not known", func() bool { return strings.HasPrefix(h.w.detail.transport.Text, "Not known") })
	// Gone, it is an empty list, which Add makes anew.
	if err := os.Remove(h.path); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the file gone", func() bool {
		return strings.Contains(h.w.list.fileErr.Text, "not there") && h.w.list.fileErr.Visible() && !h.w.list.add.Disabled()
	})
	if err := os.WriteFile(h.path, mended, 0o600); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the file mended", func() bool { return !h.w.list.fileErr.Visible() && !h.w.list.add.Disabled() })
}

// TestClosedWindowTakesNoUpdates closes the window, as the app does before
// closing the manager, and checks that the status changes of the shutdown
// reach no widget: after the UI loop has ended they would be updated off
// the UI goroutine.
func TestClosedWindowTakesNoUpdates(t *testing.T) {
	h := newDemoHarness(t, demotest.Server(t, "demo"))
	h.waitState("demo", servers.StateReady)
	h.runUI()
	h.w.Update() // under way when the window closes
	h.w.Close()  // waits for it to have queued its UI work
	h.w.Update() // after
	h.mu.Lock()
	queued := h.ui
	h.ui = nil
	h.mu.Unlock()
	h.w.rows = nil // what a snapshot shown now would fill in
	for _, f := range queued {
		f()
	}
	if h.w.rows != nil {
		t.Error("a closed window showed a new snapshot")
	}
}
