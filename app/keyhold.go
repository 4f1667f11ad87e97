package app

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/internal/desktop/xwin"
)

// GuardTime is how long after a request window appears nothing in it
// answers, and how soon after it the window manager's giving it the
// keyboard counts as the window manager's doing, not the person's: a click
// or a key aimed at what was there a moment before must not land on
// Accept. Browsers hold their permission prompts' buttons for about as
// long (Firefox: 1 s).
const GuardTime = 750 * time.Millisecond

// opener says who opens a request's window: the app, when the request
// arrives, or the person, from the tray menu, a notification or a second
// start.
type opener bool

const (
	byApp    opener = false
	byPerson opener = true
)

// keyHold keeps the keyboard of a request window the app opened by itself
// until the person shows they mean it. The window appears without focus
// (xwin.Quiet); where the window manager gives it the focus anyway (focus
// follows the pointer, or a window manager without focus-stealing
// prevention), keys typed for another application reach keyHold, which
// has the window's keyboard focus, and it drops them all: letters, Tab,
// Enter, Escape and shortcuts. The hold ends when the person clicks in the
// window (anything that takes the focus from keyHold), or switches to the
// window after GuardTime (the keyboard then goes to the form's first
// field). Once it ends, keyHold is disabled, so no Tab stops on it again.
type keyHold struct {
	widget.BaseWidget
	canvas fyne.Canvas
	shown  time.Time
	now    func() time.Time
	guard  time.Duration // GuardTime, but in tests
	// free: the person took the window; focusFirst gives the form the
	// keyboard when that was by switching to the window.
	free       bool
	focusFirst func()
	had        bool // has had the keyboard: it never takes it back

}

// holdKeys wraps a request window's content in a keyHold that has the
// keyboard from the start, and asks the window manager not to focus the
// window when it appears. A window the person opened gets neither: nil.
// Call it once the content is set, before the window is first shown.
func holdKeys(w fyne.Window, by opener, now func() time.Time, guard time.Duration, focusFirst func()) *keyHold {
	if by == byPerson {
		return nil
	}
	k := &keyHold{canvas: w.Canvas(), shown: now(), now: now, guard: guard, focusFirst: focusFirst}
	k.ExtendBaseWidget(k)
	// Under the whole content: a click on a field or button takes the focus
	// from it, and a click on blank space reaches it (Tapped).
	w.SetContent(container.NewStack(k, w.Content()))
	xwin.Quiet(w) // sets the content again, which forgets the focus: first
	w.Canvas().Focus(k)
	return k
}

// mayAnswer reports whether an answer (a button, Enter, Ctrl+Enter,
// closing the window) may count as the person's: not within GuardTime of
// the window appearing. Keys cannot answer while the hold lasts, as none
// reach the form. A nil keyHold, a window the person opened, always may.
func (k *keyHold) mayAnswer() bool {
	return k == nil || k.now().Sub(k.shown) >= k.guard
}

// held reports whether the keyboard is still kept from the form: keyHold
// has it, and the person has not taken the window.
func (k *keyHold) held() bool {
	return !k.free && k.canvas.Focused() == fyne.Focusable(k)
}

// FocusGained is the window getting the keyboard while keyHold has it:
// within GuardTime of appearing, the window manager's doing; later, the
// person switching to the window.
func (k *keyHold) FocusGained() {
	k.had = true
	if k.free || k.now().Sub(k.shown) < k.guard {
		return
	}
	k.free = true
	k.canvas.Unfocus() // the window's own keys (Escape) work where no field takes the focus
	k.focusFirst()
}

// FocusLost is the window losing the keyboard, or a click taking it for
// something in the window, after which held is false.
func (k *keyHold) FocusLost() {}

// Tapped is a click on the window's blank space, where nothing takes the
// focus: the person took the window, and its own keys (Escape) work.
func (k *keyHold) Tapped(*fyne.PointEvent) {
	if k.free {
		return
	}
	k.free = true
	k.canvas.Unfocus()
}

// Keys meant for another application go nowhere.
func (k *keyHold) TypedRune(rune)              {}
func (k *keyHold) TypedKey(*fyne.KeyEvent)     {}
func (k *keyHold) TypedShortcut(fyne.Shortcut) {}
func (k *keyHold) AcceptsTab() bool            { return true }
func (k *keyHold) Disabled() bool              { return k.free || k.had && !k.held() }
func (k *keyHold) Enable()                     {}
func (k *keyHold) Disable()                    {}
func (k *keyHold) MinSize() fyne.Size          { return fyne.Size{} }
func (k *keyHold) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(&fyne.Container{})
}
