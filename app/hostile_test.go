package app

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/elicitdesk/elicitdesk/app/atspi"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/core"
	"github.com/elicitdesk/elicitdesk/internal/testkit/uitest"
	"github.com/elicitdesk/elicitdesk/servers"
)

// hostileIdentity is a server whose every word is s.
func hostileIdentity(s string) servers.Identity {
	info := untrusted.Text(s)
	return servers.Identity{Name: s, Target: s, Reported: servers.ServerInfo{Name: info, Title: info, Version: info}, Host: servers.HostInfo{Name: info, Title: info, Version: info}}
}

// checkSpoken holds what a screen reader gets from w through AT-SPI
// against what w shows: no hidden character raw, and each label it reads
// is text the window shows (a rich text's segments run together).
func checkSpoken(t *testing.T, surface string, w fyne.Window) {
	t.Helper()
	var shown strings.Builder
	for _, s := range uitest.WindowTexts(w) {
		shown.WriteString(strings.ReplaceAll(s.Text, "\n", ""))
	}
	for _, s := range atspi.Said(w) {
		uitest.Check(t, surface+" through AT-SPI", []uitest.Seen{
			{Widget: s.Role.String() + " name", Text: s.Name},
			{Widget: s.Role.String() + " description", Text: s.Description},
			{Widget: s.Role.String() + " text", Text: s.Text},
		})
		if (s.Role == atspi.RoleLabel || s.Role == atspi.RoleFrame) && !strings.Contains(shown.String(), strings.ReplaceAll(s.Name, "\n", "")) {
			t.Errorf("%s: AT-SPI reads a %s %q the window does not show", surface, s.Role, s.Name)
		}
	}
}

// hostileURL is a link holding s as a server can send it: as it is, or
// percent-encoded where a URL may not hold it (control characters, which
// the router refuses).
func hostileURL(s string) string {
	u := "https://shop.example/" + s
	if _, err := url.Parse(u); err != nil {
		return "https://shop.example/" + url.PathEscape(s)
	}
	return u
}

// TestHostileWindows sends requests written entirely in each hostile
// string and walks every window they reach: the form and URL request
// windows, the stale banner, the tray menu, the notification and
// Settings (History has its own test in historyview). None may show a
// hidden character raw, and the request window must fit a screen.
func TestHostileWindows(t *testing.T) {
	for _, hs := range uitest.HostileStrings(t) {
		t.Run(hs.Name, func(t *testing.T) {
			s := hs.Text
			h := startWith(t, `{"mcpServers":{}}`, func(_ *Options, co *core.Options) { co.NotifyInWindows = true })
			ctx, cancel := context.WithCancelCause(context.Background())
			h.ask(ctx, hostileIdentity(s), servers.Params{Message: untrusted.Text(s), Mode: servers.ModeForm, Schema: uitest.HostileSchema(s)})
			form := h.request(0)
			h.ask(context.Background(), hostileIdentity(s), servers.Params{Message: untrusted.Text(s), Mode: servers.ModeURL, ElicitationID: "e", URL: untrusted.Text(hostileURL(s))})
			link := h.request(1)
			h.ui(func() {
				fw := form.win.(*formWindow)
				uitest.Check(t, "form request", uitest.WindowTexts(fw.w))
				uitest.CheckWidth(t, "form request", fw.w.Content(), 900)
				uitest.Check(t, "URL request", uitest.WindowTexts(link.win.(*linkWindow).w))
				uitest.CheckWidth(t, "URL request", link.win.(*linkWindow).w.Content(), 720)
				uitest.Check(t, "tray menu", uitest.MenuTexts(trayMenu(h)))
				checkSpoken(t, "form request", fw.w)
				checkSpoken(t, "URL request", link.win.(*linkWindow).w)
			})
			// The core notifies of a burst of requests once it has gathered
			// it, while they still wait.
			h.eventually("the notification", func() bool { return len(h.notifications()) > 0 })
			for _, n := range h.notifications() {
				uitest.Check(t, "notification", []uitest.Seen{{Widget: "summary", Text: n.Title}, {Widget: "body", Text: n.Content}})
			}
			cancel(errors.New(s))
			h.eventually("the stale banner", func() bool { return form.ended })
			h.ui(func() { uitest.Check(t, "stale request", uitest.WindowTexts(form.win.(*formWindow).w)) })
			h.ui(func() {
				test.Tap(button(t, content(link), "Decline"))
				h.d.showSettings()
				uitest.Check(t, "Settings", uitest.WindowTexts(h.d.settingsW))
			})
		})
	}
}
