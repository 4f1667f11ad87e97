package cmdtext

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/elicitdesk/elicitdesk/app/a11y/a11ytest"
)

// TestAccessible checks a Label reads its whole command line, unwrapped.
func TestAccessible(t *testing.T) {
	test.NewTempApp(t)
	const line = "npx -y @modelcontextprotocol/server-filesystem /tmp"
	l := New(line)
	l.Resize(fyne.NewSize(80, 200)) // wrapped on screen
	a11ytest.Check(t, ".", l)
	if got := l.AccessibilityLabel(); got != line {
		t.Errorf("label = %q, want %q", got, line)
	}
}
