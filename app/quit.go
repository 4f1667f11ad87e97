package app

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/a11y"
	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/internal/desktop/xwin"
)

// quitShortcut is Ctrl+Q (Cmd+Q on macOS), in every window of the app.
var quitShortcut = &desktop.CustomShortcut{KeyName: fyne.KeyQ, Modifier: fyne.KeyModifierShortcutDefault}

// helpShortcut is F1, shown beside Help in the menu. Fyne runs no shortcut
// without a modifier: addAppKeys handles the key.
var helpShortcut = &desktop.CustomShortcut{KeyName: fyne.KeyF1}

// question is what a quit asks before it goes ahead: a plain value that
// one window renders.
type question struct {
	Window      string // the window's title
	Title, Text string
	Keep, Quit  string // the buttons: Keep is the default, Quit goes ahead
}

// quitQuestion is what quitting asks while waiting requests would be
// lost; ok is false when nothing waits and the app just quits.
func quitQuestion(waiting int) (q question, ok bool) {
	q = question{Window: "Quit Elicit Desk?", Keep: "Keep running", Quit: "Quit anyway"}
	switch waiting {
	case 0:
		return question{}, false
	case 1:
		q.Title = "A request is waiting. Quit anyway?"
		q.Text = "Quitting answers it “cancel” and notes it in History. Elicit Desk then stops every server until it starts again."
	default:
		q.Title = fmt.Sprintf("%d requests are waiting. Quit anyway?", waiting)
		q.Text = "Quitting answers them “cancel” and notes them in History. Elicit Desk then stops every server until it starts again."
	}
	return q, true
}

// noneWaiting is the quit question once the requests it counted have
// all ended while it was open.
var noneWaiting = question{
	Title: "No request is waiting now. Quit?",
	Text:  "Quitting stops every server until Elicit Desk starts again.",
}

// backgroundQuestion is what closing the Servers window asks, once, where
// no tray icon stands in for the app: without one, a closed window would
// leave nothing on screen that says the app still runs.
var backgroundQuestion = question{
	Window: "Closing Servers — Elicit Desk",
	Title:  "Keep Elicit Desk running without a window?",
	Text: "There is no tray icon on this desktop. Quitting stops answering requests: every server stops until Elicit Desk starts again.\n\n" +
		"In the background, Elicit Desk keeps the servers connected and opens a window for each request. Start Elicit Desk again to see this window. Closing it then keeps running without asking again.",
	Keep: "Keep running in the background",
	Quit: "Quit",
}

// asking is the question shown while a quit waits for the person.
type asking struct {
	w     fyne.Window
	title *widget.Label
	text  *widget.Label
	q     question
	// counted: the question is quitQuestion's, whose count follows the
	// requests as they come and go.
	counted bool
}

// update shows the count of waiting requests in the quit question, and
// says so once none waits: the question stays, for the person to answer.
func (a *asking) update(waiting int) {
	if a == nil || !a.counted {
		return
	}
	q, ok := quitQuestion(waiting)
	if !ok {
		q = noneWaiting
	}
	a.title.SetText(q.Title)
	a.text.SetText(q.Text)
}

// askQuit is every way to quit: the tray's Quit, Ctrl+Q in any window and
// the Servers window's menu. While requests wait it asks first.
func (d *Desk) askQuit() {
	q, ok := quitQuestion(d.waiting)
	if !ok {
		d.quit()
		return
	}
	d.ask(q, true, nil, d.quit)
}

// ask shows q in a window of its own, since a quit may come from the tray
// with no window open; the person asked for it, so it takes the focus.
// Keep, Escape and closing the window run onKeep (nil: nothing more); the
// Quit button runs onQuit.
func (d *Desk) ask(q question, counted bool, onKeep, onQuit func()) {
	if d.asking != nil {
		d.asking.w.Show()
		d.asking.w.RequestFocus()
		return
	}
	w := d.fyne.NewWindow(q.Window)
	a := &asking{w: w, q: q, counted: counted, title: widget.NewLabelWithStyle(q.Title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})}
	a.title.Wrapping = fyne.TextWrapWord
	d.asking = a
	answer := func(then func()) func() {
		return func() {
			if d.asking != a {
				return // answered already
			}
			d.asking = nil
			w.Close()
			if then != nil {
				then()
			}
		}
	}
	keep := answer(onKeep)
	w.SetCloseIntercept(keep)
	w.SetOnClosed(func() { // closed by the app, as it quits
		if d.asking == a {
			d.asking = nil
		}
	})
	a.text = widget.NewLabel(q.Text)
	a.text.Wrapping = fyne.TextWrapWord
	keepButton := look.NewButton(q.Keep, nil, keep)
	keepButton.Importance = widget.HighImportance
	quitButton := look.NewButton(q.Quit, theme.LogoutIcon(), answer(onQuit))
	quitButton.Importance = widget.DangerImportance
	w.SetContent(a11y.NewDialog(func() string { return a.title.Text }, container.NewPadded(container.NewBorder(
		container.NewBorder(nil, nil, widget.NewIcon(theme.QuestionIcon()), nil, a.title),
		container.NewHBox(layout.NewSpacer(), quitButton, keepButton), nil, nil, a.text))))
	w.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) {
		switch ev.Name {
		case fyne.KeyEscape:
			keep()
		case fyne.KeyReturn, fyne.KeyEnter:
			keep() // the default; a focused button takes Return itself
		}
	})
	// A dialog: a tiling window manager floats it at its size.
	xwin.Dialog(w)
	d.screen().Show(w, fyne.NewSize(480, 200)) // preferred
	w.RequestFocus()
	w.Canvas().Focus(keepButton) // the choice that changes nothing, where a screen reader says the keyboard is
}

// quit ends Elicit Desk: the core answers every waiting request
// “cancel”, noting in History that the app quit, and the windows close.
func (d *Desk) quit() {
	d.core.Quit()
	d.exit()
}

// closeWithoutTray is closing the Servers window where it stands in for
// the tray. The first time it asks whether to keep running in the
// background, and remembers the answer (Keep, Escape or closing the
// question keep running); Quit then goes the way of every quit, asking
// while requests wait.
func (d *Desk) closeWithoutTray() {
	switch d.settings.NoTrayClose {
	case closeKeepsRunning:
		d.serversWin.Hide()
		return
	case closeQuits:
		d.askQuit()
		return
	}
	d.ask(backgroundQuestion, false, func() {
		d.rememberNoTrayClose(closeKeepsRunning)
		d.serversWin.Hide()
	}, func() {
		d.rememberNoTrayClose(closeQuits)
		d.askQuit()
	})
}

// rememberNoTrayClose keeps what closing the Servers window does from now
// on.
func (d *Desk) rememberNoTrayClose(c noTrayClose) {
	d.settings.NoTrayClose = c
	d.settings.save(d.fyne.Preferences())
}

// addAppKeys gives every window of the app Ctrl+Q, which asks to quit,
// and F1, which opens Help. A canvas keeps one handler per shortcut, so
// adding Ctrl+Q again is harmless; F1, a key without a modifier, which
// Fyne cannot make a shortcut, wraps each window's key handler once. A
// focused text field keeps Ctrl+Q for itself; the app's own hand F1 on
// (keys.ToWindow).
func (d *Desk) addAppKeys() {
	withF1 := map[fyne.Window]bool{} // the windows open now: closed ones are forgotten
	for _, w := range d.fyne.Driver().AllWindows() {
		c := w.Canvas()
		c.AddShortcut(quitShortcut, func(fyne.Shortcut) { d.askQuit() })
		withF1[w] = true
		if d.withF1[w] {
			continue
		}
		before := c.OnTypedKey()
		c.SetOnTypedKey(func(ev *fyne.KeyEvent) {
			if ev.Name == helpShortcut.KeyName {
				d.showHelp()
			} else if before != nil {
				before(ev)
			}
		})
	}
	d.withF1 = withF1
}
