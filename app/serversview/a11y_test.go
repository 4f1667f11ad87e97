package serversview

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/elicitdesk/elicitdesk/app/a11y/a11ytest"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/testkit/uitest"
	"github.com/elicitdesk/elicitdesk/servers"
)

// TestAccessible checks each custom widget of the package says what it is
// called and holds: the Add server dialog's inputs by the labels beside
// them, and a tool's row by the tool.
func TestAccessible(t *testing.T) {
	h := newHarness(t, configBytes(t))
	test.Tap(h.w.list.add)
	e := h.w.editor
	if e == nil {
		t.Fatal("Add server… opened nothing")
	}
	test.Type(e.name, "files")
	row := newToolRow(servers.Tool{Name: "search_files", Title: "Search files", Description: "Finds files by name.\nSlowly."}, func() {})
	a11ytest.Check(t, ".", e.name, e.transport, e.disabled, row)

	tests := []struct {
		o    fyne.Accessible
		want string
	}{
		{e.name, "Name: “files”"},
		{e.cwd, "Working directory: empty"},
		{e.env.entry, "Environment: empty"},
		{e.transport, "Connects by: " + e.transport.Selected},
		{e.protocol, "MCP revision: " + e.protocol.Selected},
		{e.disabled, "Keep the entry without connecting to it: not checked"},
		{row, "Call Search files (search_files): Finds files by name."},
	}
	for _, tt := range tests {
		if got := tt.o.AccessibilityLabel(); got != tt.want {
			t.Errorf("label = %q, want %q", got, tt.want)
		}
	}
	// AT-SPI names an input by its title (atspi.Titled), else by its
	// placeholder ("my-server"): the label beside it.
	for o, want := range map[interface{ AccessibleTitle() string }]string{
		e.name: "Name", e.cwd: "Working directory", e.transport: "Connects by", e.disabled: "",
	} {
		if got := o.AccessibleTitle(); got != want {
			t.Errorf("title = %q, want %q", got, want)
		}
	}
}

// TestAccessibleHostile checks a tool's row reads a server's words only
// through untrusted views.
func TestAccessibleHostile(t *testing.T) {
	test.NewTempApp(t)
	for _, h := range uitest.HostileStrings(t) {
		row := newToolRow(servers.Tool{Name: h.Text, Title: untrusted.Text(h.Text), Description: untrusted.Text(h.Text)}, func() {})
		uitest.Check(t, h.Name, []uitest.Seen{{Widget: "toolRow accessibility label", Text: row.AccessibilityLabel()}})
	}
}
