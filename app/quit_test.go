package app

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/elicitdesk/elicitdesk/app/atspi"
	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/internal/testkit/uitest"
)

func TestQuitQuestion(t *testing.T) {
	tests := []struct {
		waiting int
		ask     bool
		title   string
	}{
		{0, false, ""},
		{1, true, "A request is waiting. Quit anyway?"},
		{2, true, "2 requests are waiting. Quit anyway?"},
		{12, true, "12 requests are waiting. Quit anyway?"},
	}
	for _, tt := range tests {
		q, ok := quitQuestion(tt.waiting)
		if ok != tt.ask || q.Title != tt.title {
			t.Errorf("quitQuestion(%d) = %q, %v; want %q, %v", tt.waiting, q.Title, ok, tt.title, tt.ask)
		}
	}
}

// question is the quit question's window, or nil.
func (h *harness) question() fyne.Window {
	if h.d.asking == nil {
		return nil
	}
	return h.d.asking.w
}

// TestQuitWithRequestsWaiting quits, from the tray or Ctrl+Q, with one
// request in a window and one queued in the tray menu: it asks first, and
// Quit anyway answers both cancel and records them as app-quit.
func TestQuitWithRequestsWaiting(t *testing.T) {
	for _, how := range []struct {
		name string
		quit func(h *harness)
	}{
		{"tray Quit", func(h *harness) { trayItem(h.t.(*testing.T), h, "Quit").Action() }},
		{"Ctrl+Q in a request window", func(h *harness) {
			h.ui(func() {
				w := h.d.requests[0].win.(*formWindow).w
				w.Canvas().Unfocus() // a text field keeps its keys
				typeShortcut(w.Canvas(), quitShortcut)
			})
		}},
	} {
		t.Run(how.name, func(t *testing.T) {
			h := startOneWindow(t)
			shown := h.askForm(context.Background(), "shop", "Your name?")
			queued := h.askForm(context.Background(), "notes", "Your city?")
			h.request(0)
			h.waitFor(2)
			how.quit(h)
			h.eventually("the question", func() bool { return h.question() != nil || h.d.ctx.Err() != nil })
			h.ui(func() {
				w := h.question()
				if w == nil || h.d.ctx.Err() != nil {
					t.Error("quit without asking")
					return
				}
				if got := h.d.asking.title.Text; got != "2 requests are waiting. Quit anyway?" {
					t.Errorf("asked %q", got)
				}
				test.Tap(button(t, w.Content(), "Quit anyway"))
				if h.d.ctx.Err() == nil {
					t.Error("Quit anyway did not quit")
				}
			})
			for _, got := range []<-chan answer{shown, queued} {
				if a := <-got; a.err != nil || a.res.Action != forms.Cancel {
					t.Errorf("answered %s %v, want cancel", a.res.Action, a.err)
				}
			}
			es := h.entries()
			if len(es) != 2 {
				t.Fatalf("history %+v", es)
			}
			for _, e := range es {
				if e.Outcome != history.AppQuit {
					t.Errorf("%s recorded as %s, want %s", e.Server.Name, e.Outcome, history.AppQuit)
				}
			}
		})
	}
}

// TestQuitQuestionFollowsTheCount: the open quit question counts the
// requests as they end, and says so once none waits, Quit still quitting.
func TestQuitQuestionFollowsTheCount(t *testing.T) {
	h := startOneWindow(t)
	ctx, giveUp := context.WithCancel(context.Background())
	h.askForm(ctx, "shop", "Your name?")
	h.request(0)
	trayItem(t, h, "Quit").Action()
	h.eventually("the question", func() bool { return h.question() != nil })
	giveUp()
	h.eventually("the question saying none waits", func() bool { return h.d.asking.title.Text == noneWaiting.Title })
	h.ui(func() {
		if got := h.d.asking.text.Text; got != noneWaiting.Text {
			t.Errorf("the question explains %q", got)
		}
		test.Tap(button(t, h.question().Content(), "Quit anyway"))
		if h.d.ctx.Err() == nil {
			t.Error("Quit anyway did not quit")
		}
	})
}

// TestQuitKeptRunning: Keep running, Escape and Return leave the app and the request as they were.
func TestQuitKeptRunning(t *testing.T) {
	keeps := []struct {
		name string
		keep func(t *testing.T, w fyne.Window)
	}{
		{"Keep running", func(t *testing.T, w fyne.Window) { test.Tap(button(t, w.Content(), "Keep running")) }},
		{"Escape", func(t *testing.T, w fyne.Window) { pressKey(w.Canvas(), fyne.KeyEscape) }},
		{"Return", func(t *testing.T, w fyne.Window) { pressKey(w.Canvas(), fyne.KeyReturn) }},
		{"Space", func(t *testing.T, w fyne.Window) {
			pressKey(w.Canvas(), fyne.KeySpace)
			w.Canvas().Focused().TypedRune(' ')
		}},
	}
	h := start(t, `{"mcpServers":{}}`)
	h.askForm(context.Background(), "shop", "Your name?")
	r := h.request(0)
	for _, k := range keeps {
		h.ui(func() {
			h.d.askQuit()
			w := h.question()
			if w == nil {
				t.Fatal("no question")
			}
			if f, ok := w.Canvas().Focused().(fyne.CanvasObject); !ok || !isButtonLabelled(f, "Keep running") {
				t.Errorf("the question opens with the keyboard on %v, want Keep running", w.Canvas().Focused())
			}
			if !holdsDialog(w.Content()) {
				t.Error("a screen reader is not told the question window is a dialog")
			}
			k.keep(t, w)
			if h.question() != nil || h.d.ctx.Err() != nil || r.ended {
				t.Errorf("%s did not just put the question away", k.name)
			}
		})
	}
}

func TestQuitWithNothingWaitingQuitsAtOnce(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	h.ui(func() {
		h.d.askQuit()
		if h.question() != nil || h.d.ctx.Err() == nil {
			t.Fatal("asked, or did not quit, with nothing waiting")
		}
	})
}

// TestClosingServersWithoutTray: where no tray icon shows, closing the
// Servers window asks once whether to keep running in the background and
// does as answered from then on.
func TestClosingServersWithoutTray(t *testing.T) {
	t.Run("keep running", func(t *testing.T) {
		h := start(t, `{"mcpServers":{}}`)
		h.ui(func() {
			h.d.serversWin.Show()
			h.d.closeWithoutTray()
			w := h.question()
			if w == nil {
				t.Fatal("closed without saying that it stops answering requests")
			}
			test.Tap(button(t, w.Content(), "Keep running in the background"))
			if h.d.ctx.Err() != nil || h.d.settings.NoTrayClose != closeKeepsRunning {
				t.Fatalf("quit, or did not remember: %q", h.d.settings.NoTrayClose)
			}
			h.d.serversWin.Show()
			h.d.closeWithoutTray()
			if h.question() != nil || h.d.ctx.Err() != nil {
				t.Fatal("asked again, or quit")
			}
			if loadSettings(h.d.fyne.Preferences()).NoTrayClose != closeKeepsRunning {
				t.Error("the answer is not kept for the next start")
			}
		})
	})
	t.Run("quit", func(t *testing.T) {
		h := start(t, `{"mcpServers":{}}`)
		h.askForm(context.Background(), "shop", "Your name?")
		h.request(0)
		h.ui(func() {
			h.d.closeWithoutTray()
			test.Tap(button(t, h.question().Content(), "Quit"))
			// A request waits: the quit question follows.
			if h.question() == nil || h.d.ctx.Err() != nil {
				t.Fatal("quit without asking about the waiting request")
			}
			pressKey(h.question().Canvas(), fyne.KeyEscape)
			h.d.closeWithoutTray() // the next close asks only about the request
			if h.question() == nil || !h.d.asking.counted {
				t.Fatal("did not ask about the waiting request")
			}
			test.Tap(button(t, h.question().Content(), "Quit anyway"))
			if h.d.ctx.Err() == nil {
				t.Fatal("did not quit")
			}
		})
	})
}

// TestQuitKeyInEveryWindow: every window the app opens asks to quit on
// Ctrl+Q.
func TestQuitKeyInEveryWindow(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	h.askForm(context.Background(), "shop", "Your name?")
	h.request(0)
	h.ui(func() {
		for _, item := range h.d.appMenu().Items {
			if item.Label == "Servers…" || item.Label == "Hosts…" {
				item.Action()
			}
		}
		windows := h.d.fyne.Driver().AllWindows()
		if len(windows) < 3 {
			t.Fatalf("%d windows", len(windows))
		}
		for _, w := range windows {
			typeShortcut(w.Canvas(), quitShortcut)
			if h.question() == nil {
				t.Errorf("Ctrl+Q in %q did not ask to quit", w.Title())
				continue
			}
			pressKey(h.question().Canvas(), fyne.KeyEscape)
		}
		if h.d.ctx.Err() != nil {
			t.Error("quit")
		}
	})
}

// typeShortcut runs the canvas's handler of s, as a key press with nothing
// focused does. The test driver's canvas keeps the handlers in the
// software canvas it wraps.
func typeShortcut(c fyne.Canvas, s fyne.Shortcut) {
	inner := reflect.ValueOf(c).Elem().FieldByName("WindowlessCanvas").Interface()
	inner.(interface{ TypedShortcut(fyne.Shortcut) }).TypedShortcut(s)
}

// isButtonLabelled reports whether o is, or embeds, a button labelled label.
func isButtonLabelled(o fyne.CanvasObject, label string) bool {
	b, ok := uitest.Button(o)
	return ok && b.Text == label
}

// holdsDialog reports whether o is, or holds through containers, an
// atspi.Dialog: what makes a screen reader read a window as one.
func holdsDialog(o fyne.CanvasObject) bool {
	if _, ok := o.(atspi.Dialog); ok {
		return true
	}
	c, ok := o.(*fyne.Container)
	return ok && slices.ContainsFunc(c.Objects, holdsDialog)
}
