package serversview

import (
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/elicitdesk/elicitdesk/internal/testkit/demotest"
	"github.com/elicitdesk/elicitdesk/servers"
)

// TestRestart: a connected local server offers Restart, which starts its
// process anew (its author changed its code); a server still failing
// offers Retry now instead.
func TestRestart(t *testing.T) {
	h := newDemoHarness(t, demotest.Server(t, "demo"))
	h.waitState("demo", servers.StateReady)
	h.selectServer("demo")
	h.runUI()
	d := h.w.detail
	m := h.w.deps.Servers.(managerServers).m
	before, _ := m.Conn("demo")
	if !d.restart.Visible() || d.restart.Text != "Restart" || d.retry.Visible() {
		t.Fatalf("a ready server: Restart shown %v (%q), Retry now shown %v", d.restart.Visible(), d.restart.Text, d.retry.Visible())
	}
	test.Tap(d.restart)
	h.waitFor("the server started anew", func() bool {
		c, ok := m.Conn("demo")
		return ok && c != before
	})
	<-before.Lost()
}
