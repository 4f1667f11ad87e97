package app

import (
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/core"
)

// TestIdleWindowsLoseNoShow: windows that idle exit only once the core
// lets them go, never with a window asked for on its way to them.
func TestIdleWindowsLoseNoShow(t *testing.T) {
	h := startWith(t, `{"mcpServers":{}}`, func(o *Options, _ *core.Options) { o.Idle, o.TrayShown = time.Minute, true })
	h.ui(func() {
		if all := h.d.fyne.Driver().AllWindows(); len(all) == 1 { // the test driver's own, never shown
			h.d.unseen = all[0]
		}
		if h.d.windowsShown() {
			t.Fatal("a window shows at start")
		}
	})
	h.eventually("the windows attached", func() bool { return h.d.taken > 0 })
	idle := func(then func()) {
		now := time.Now()
		h.ui(func() {
			h.d.exitWhenIdle(now)
			then()
			h.d.exitWhenIdle(now.Add(2 * time.Minute))
		})
	}
	idle(func() { h.core.Show(core.Show{Window: core.WindowAbout}) }) // told, not yet taken
	h.eventually("About", func() bool { return h.d.aboutW != nil })
	h.eventually("the core's answer", func() bool { return !h.d.leaving })
	if h.d.ctx.Err() != nil {
		t.Fatal("the windows exited with a Show they had not taken")
	}
	h.ui(func() { h.d.aboutW.Close() })
	idle(func() {})
	h.eventually("the windows to exit", func() bool { return h.d.ctx.Err() != nil })
}
