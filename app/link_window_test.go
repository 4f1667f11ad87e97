package app

import (
	"context"
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/testkit/uitest"
	"github.com/elicitdesk/elicitdesk/servers"
)

// TestLinkWindowSaysWhoAsksFirst: like a form window, a URL request's
// window shows who asks and what they say before the link, in its object
// tree and on screen.
func TestLinkWindowSaysWhoAsksFirst(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	h.ask(context.Background(), servers.Identity{Name: "shop", Target: "https://shop.example/mcp"}, servers.Params{
		Message: "Sign in to pay", Mode: servers.ModeURL, ElicitationID: "e", URL: "https://shop.example/login",
	})
	r := h.request(0)
	h.ui(func() {
		var order []string
		for _, s := range uitest.Texts(content(r)) {
			for _, want := range []string{"shop", "Sign in to pay", "It asks you to open this link:", "/login", "Open link"} {
				if s.Text == want && !strings.Contains(strings.Join(order, "|"), want) {
					order = append(order, want)
				}
			}
		}
		if got := strings.Join(order, "|"); got != "shop|Sign in to pay|It asks you to open this link:|/login|Open link" {
			t.Errorf("texts in the order %s", got)
		}
		d := fyne.CurrentApp().Driver()
		var name, heading fyne.CanvasObject
		for _, x := range test.LaidOutObjects(content(r)) {
			switch o := x.(type) {
			case *widget.RichText:
				if strings.HasPrefix(o.String(), "shop") && name == nil {
					name = o
				}
			case *widget.Label:
				if o.Text == "It asks you to open this link:" {
					heading = o
				}
			}
		}
		if name == nil || heading == nil || d.AbsolutePositionForObject(name).Y >= d.AbsolutePositionForObject(heading).Y {
			t.Errorf("who asks is not drawn above the link")
		}
	})
}

// TestLinkButtonsAsFormButtons: Decline, Cancel and the answer that goes
// ahead carry the same icons, or none, in both kinds of request window.
func TestLinkButtonsAsFormButtons(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	h.askForm(context.Background(), "a", "Deploy?")
	h.ask(context.Background(), servers.Identity{Name: "b"}, servers.Params{
		Message: "Sign in", Mode: servers.ModeURL, ElicitationID: "e", URL: "https://shop.example/login",
	})
	form, link := h.request(0), h.request(1)
	if form.Mode == servers.ModeURL { // they race to arrive
		form, link = link, form
	}
	h.ui(func() {
		send := button(t, content(form), "Accept")
		for _, pair := range [][2]*widget.Button{
			{button(t, content(form), "Decline"), button(t, content(link), "Decline")},
			{button(t, content(form), "Cancel"), button(t, content(link), "Cancel")},
			{send, button(t, content(link), "Open link")},
		} {
			if pair[0].Icon != pair[1].Icon || pair[0].Importance != pair[1].Importance {
				t.Errorf("%s: icon %v, importance %v; the form's %s has %v, %v", pair[1].Text, pair[1].Icon, pair[1].Importance,
					pair[0].Text, pair[0].Icon, pair[0].Importance)
			}
		}
	})
}

// TestBrowserThatFailsIsReported: when the browser does not start, the
// window says why and stays open with the link to copy; the server has
// the person's Accept.
func TestBrowserThatFailsIsReported(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	h.mu.Lock()
	h.openErr = errors.New("xdg-open found no browser to start")
	h.mu.Unlock()
	got := h.ask(context.Background(), servers.Identity{Name: "shop"}, servers.Params{
		Message: "Sign in", Mode: servers.ModeURL, ElicitationID: "e", URL: "https://shop.example/login",
	})
	r := h.request(0)
	h.ui(func() { test.Tap(button(t, content(r), "Open link")) })
	if a := <-got; a.res.Action != forms.Accept {
		t.Fatalf("answer %+v", a)
	}
	lw := r.win.(*linkWindow)
	h.eventually("the failure to show", func() bool {
		return strings.HasPrefix(lw.status.Text, "Could not open the browser: xdg-open found no browser to start.")
	})
	h.core.Router().Complete("shop", "e")
	h.eventually("completion, with the failure still said", func() bool {
		return strings.HasPrefix(lw.status.Text, "Could not open the browser: xdg-open found no browser to start. shop says this step is complete.")
	})
	h.ui(func() {
		if lw.closed || len(h.d.requests) != 1 {
			t.Error("the window closed")
		}
		if lw.status.Importance != widget.DangerImportance || lw.progress.Visible() {
			t.Errorf("the failure is shown as %v, progress %v", lw.status.Importance, lw.progress.Visible())
		}
		test.Tap(button(t, content(r), "Copy link"))
		if c := fyne.CurrentApp().Clipboard().Content(); c != string(r.URL) {
			t.Errorf("copied %q", c)
		}
		button(t, content(r), "Done")
	})
}

func TestLinkStatus(t *testing.T) {
	failed := errors.New("no browser")
	tests := []struct {
		s    linkState
		want string
	}{
		{linkState{phase: linkAsking}, ""},
		{linkState{phase: linkOpening}, "Opening the browser…"},
		{linkState{phase: linkWaiting}, "Waiting for shop to finish."},
		{linkState{phase: linkWaiting, openErr: failed}, "Could not open the browser: no browser. Copy the link"},
		{linkState{phase: linkComplete}, "shop says this step is complete."},
		{linkState{phase: linkComplete, openErr: failed}, "Could not open the browser: no browser. shop says this step is complete."},
		{linkState{phase: linkStale, openErr: failed}, ""},
	}
	for _, tt := range tests {
		if got := linkStatus(tt.s, "shop"); !strings.HasPrefix(got, tt.want) || (tt.want == "") != (got == "") {
			t.Errorf("phase %d: %q, want %q…", tt.s.phase, got, tt.want)
		}
	}
}
