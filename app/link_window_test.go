package app

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/history"
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
// server hears nothing: the window says so in one sentence and stays open
// with the link to copy, Decline and Cancel; the person's Decline is what
// the server and History get.
func TestBrowserThatFailsIsReported(t *testing.T) {
	h, got, r, lw := browserFails(t, "xdg-open found no browser to start")
	h.ui(func() {
		if want := "The browser did not open (xdg-open found no browser to start), so nothing was sent to shop. You can copy the link, open it yourself, and then press I opened it."; lw.status.Text != want {
			t.Errorf("status %q, want %q", lw.status.Text, want)
		}
		if lw.closed || r.ended || r.sending {
			t.Errorf("closed %v, answered %v %v", lw.closed, r.ended, r.sending)
		}
		if lw.status.Importance != widget.DangerImportance || lw.progress.Visible() || lw.after.Visible() {
			t.Errorf("the failure is shown as %v, progress %v, Done %v", lw.status.Importance, lw.progress.Visible(), lw.after.Visible())
		}
		if lw.openB.Visible() {
			t.Error("Open link is offered again")
		}
		if got, need := lw.w.Canvas().Size().Height, lw.size.need(); got < need {
			t.Errorf("the window is %v tall, and needs %v to show the message above the sentence", got, need)
		}
		test.Tap(button(t, content(r), "Copy link"))
		if c := fyne.CurrentApp().Clipboard().Content(); c != string(r.URL) {
			t.Errorf("copied %q", c)
		}
		if !strings.Contains(lw.status.Text, "The link is copied: open it yourself") {
			t.Errorf("after Copy link the window says %q", lw.status.Text)
		}
		button(t, content(r), "Cancel")
		test.Tap(button(t, content(r), "Decline"))
	})
	if a := <-got; a.res.Action != forms.Decline {
		t.Fatalf("answer %+v, want decline", a)
	}
	h.windowsClosed()
	if es := h.entries(); len(es) != 1 || es[0].Outcome != history.Declined {
		t.Errorf("history %+v, want one Declined", es)
	}
}

// TestLinkEnter: Enter with no button focused presses Open link, as
// Enter accepts a form; not in the window of a link it warns of (here a
// name imitating another in Cyrillic letters), which opens on purpose
// only, nor is Open link drawn there as the answer to give.
func TestLinkEnter(t *testing.T) {
	for _, tt := range []struct {
		url    string
		warned bool
	}{{"https://shop.example/login", false}, {"https://p\u0430ypal.com/login", true}} {
		t.Run(tt.url, func(t *testing.T) {
			h := start(t, `{"mcpServers":{}}`)
			h.mu.Lock()
			h.openErr = errors.New("no browser here") // the browser's try is all this test needs
			h.mu.Unlock()
			h.ask(context.Background(), servers.Identity{Name: "shop"}, servers.Params{
				Message: "Sign in", Mode: servers.ModeURL, ElicitationID: "e", URL: untrusted.Text(tt.url),
			})
			lw := h.request(0).win.(*linkWindow)
			h.ui(func() {
				lw.w.Canvas().Unfocus() // the person switched to the window: the hold is over
				pressKey(lw.w.Canvas(), fyne.KeyReturn)
				if !tt.warned {
					return
				}
				if lw.state.phase != linkAsking {
					t.Errorf("Enter opened a warned link (phase %v)", lw.state.phase)
				}
				if lw.openB.Importance == widget.HighImportance {
					t.Error("Open link is the default for a warned link")
				}
				if !slices.ContainsFunc(uitest.Texts(lw.w.Content()), func(s uitest.Seen) bool { return s.Text == "It leads to xn--pypal-4ve.com." }) {
					t.Error("the window does not say the link leads to its punycode name")
				}
			})
			if !tt.warned {
				h.eventually("the browser tried", func() bool { return lw.state.phase == linkFailed })
			}
		})
	}
}

// TestOpenedByHand: when the browser did not open, the person may open the
// copied link themselves and say so: Accept goes out, and the window
// waits for the server, as after Open link.
// Pressed with the keyboard, I opened it hands the keyboard to Done, and
// the window is as short as what is left needs: no gap where the answers
// were.
func TestOpenedByHand(t *testing.T) {
	h, got, r, lw := browserFails(t, "xdg-open is not installed")
	var failedHeight float32
	h.ui(func() {
		failedHeight = lw.w.Canvas().Size().Height
		lw.w.Canvas().Focus(lw.openedB)
		lw.w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	})
	if a := <-got; a.res.Action != forms.Accept {
		t.Fatalf("answer %+v, want accept", a)
	}
	h.eventually("the wait for the server", func() bool { return lw.state.phase == linkWaiting })
	h.ui(func() {
		if f := lw.w.Canvas().Focused(); f != fyne.Focusable(lw.doneB) {
			t.Errorf("the keyboard is on %v, want Done", f)
		}
		if height, need := lw.w.Canvas().Size().Height, lw.size.need(); height > need || height >= failedHeight {
			t.Errorf("waiting, the window is %.0f high, after %.0f with the answers; its content needs %.0f", height, failedHeight, need)
		}
		// Done keeps a button's height beside the status's two lines.
		if got, want := lw.doneB.Size().Height, lw.doneB.MinSize().Height; got > want+1 {
			t.Errorf("Done is %.0f high beside the status, want a button's %.0f", got, want)
		}
	})
	// The server goes away before it says the step is complete: the
	// window says so, and waits no more.
	h.ui(func() { h.d.completed(r.ID, true) })
	h.eventually("the server gone", func() bool { return lw.state.phase == linkGone })
	h.ui(func() {
		if lw.progress.Visible() || !lw.doneB.Visible() {
			t.Error("the window still waits, or has no Done")
		}
	})
}

// browserFails has shop ask to open a link, where the browser fails with
// why, and presses Open link: the window then says so. I opened it is
// offered only then.
func browserFails(t *testing.T, why string) (*harness, <-chan answer, *request, *linkWindow) {
	t.Helper()
	h := start(t, `{"mcpServers":{}}`)
	h.mu.Lock()
	h.openErr = errors.New(why)
	h.mu.Unlock()
	got := h.ask(context.Background(), servers.Identity{Name: "shop"}, servers.Params{
		Message: "Sign in", Mode: servers.ModeURL, ElicitationID: "e", URL: "https://shop.example/login",
	})
	r := h.request(0)
	lw := r.win.(*linkWindow)
	h.ui(func() {
		if lw.openedB.Visible() {
			t.Error("I opened it is offered before the browser was tried")
		}
		test.Tap(button(t, content(r), "Open link"))
	})
	h.eventually("the failure to show", func() bool { return lw.state.phase == linkFailed })
	return h, got, r, lw
}

// TestLinkLook: which parts of a URL request's window each phase shows.
// The answers (Decline, Cancel) show until Accept went out, and Open link
// only until the browser was asked.
func TestLinkLook(t *testing.T) {
	failed := errors.New("no browser")
	tests := []struct {
		s    linkState
		want linkLook
	}{
		{linkState{phase: linkAsking}, linkLook{answers: true, open: true}},
		{linkState{phase: linkAsking, copied: true}, linkLook{answers: true, open: true, status: "The link is copied."}},
		{linkState{phase: linkFailed, openErr: failed, copied: true}, linkLook{answers: true, opened: true, failed: true,
			status: "The browser did not open (no browser), so nothing was sent to shop. The link is copied: open it yourself, and then press I opened it."}},
		{linkState{phase: linkOpening}, linkLook{after: true, busy: true, status: "Opening the browser…"}},
		{linkState{phase: linkFailed, openErr: failed}, linkLook{answers: true, opened: true, failed: true,
			status: "The browser did not open (no browser), so nothing was sent to shop. You can copy the link, open it yourself, and then press I opened it."}},
		{linkState{phase: linkWaiting}, linkLook{after: true, done: true, busy: true,
			status: "Waiting for shop to finish. Press Done when you have finished in the browser."}},
		{linkState{phase: linkComplete}, linkLook{after: true, done: true, status: "shop says this step is complete."}},
		{linkState{phase: linkGone}, linkLook{after: true, done: true, failed: true,
			status: "shop went away before it said this step was complete: what you did in the browser may not have reached it."}},
		{linkState{phase: linkStale}, linkLook{}},
	}
	for _, tt := range tests {
		if got := linkLookOf(tt.s, "shop"); got != tt.want {
			t.Errorf("phase %d: %+v, want %+v", tt.s.phase, got, tt.want)
		}
	}
}
