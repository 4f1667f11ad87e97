package app

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/internal/desktop/xwin"
)

// GuardTime is how long after a request window appears nothing in it
// answers, and how soon after it, or after another request window closed,
// the window manager's giving it the keyboard counts as the window
// manager's doing, not the person's: a click or a key aimed at what was
// there a moment before must not land on Accept. Browsers hold their
// permission prompts' buttons for about as long (Firefox: 1 s).
const GuardTime = 750 * time.Millisecond

// opener says who opens a request's window: the app, when the request
// arrives, or the person, from the tray menu, a notification or a second
// start.
type opener bool

const (
	byApp    opener = false
	byPerson opener = true
)

// StartKey ends the hold of a window that has the keyboard but was not
// clicked or switched to: where the window manager gave it the keyboard
// as it appeared, the person cannot switch to it. A function key, as it
// is seldom typed in other applications and types nothing; it counts
// only once the notice naming it has been shown for GuardTime, so a burst
// of keys meant for another application cannot end the hold.
const StartKey = fyne.KeyF6

// heldNotice is what the window says once a key was dropped after
// GuardTime.
const heldNotice = "Typing is held: this window opened by itself, so keys meant for another window cannot answer it. " +
	"Click in it, or press " + string(StartKey) + ", to start typing here."

// hold is where a request window's key hold stands, kept apart from the
// widget so that its rules are tested without a window.
type hold struct {
	shown time.Time     // the window appeared
	guard time.Duration // GuardTime, but in tests
	free  bool          // the person took the window
	had   bool          // keyHold has had the keyboard: it never takes it back
	told  time.Time     // when the notice first showed; zero while it has not
}

// switched is the window getting the keyboard while keyHold has it:
// within the guard time of its appearing, or of another request window's
// closing (closed; openbox then hands the keyboard to the next one, as
// the person presses Enter a second time), the window manager's doing;
// else the person switching to the window.
func (h hold) switched(now, closed time.Time) hold {
	h.had = true
	if now.Sub(h.shown) >= h.guard && now.Sub(closed) >= h.guard {
		h.free = true
	}
	return h
}

// key is a key reaching keyHold, which has the keyboard, start telling
// whether it is StartKey. Keys within the guard time are taken for keys
// meant for another application and change nothing; the first one later
// shows the notice; StartKey ends the hold once the notice has been seen
// for the guard time.
func (h hold) key(now time.Time, start bool) hold {
	switch {
	case h.free || now.Sub(h.shown) < h.guard:
	case h.told.IsZero():
		h.told = now
	case start && now.Sub(h.told) >= h.guard:
		h.free = true
	}
	return h
}

// keyHold keeps the keyboard of a request window the app opened by itself
// until the person shows they mean it. The window appears without focus
// (xwin.Quiet); where the window manager gives it the focus anyway (focus
// follows the pointer, a window manager without focus-stealing prevention,
// openbox focusing the next request window as the one answered closes,
// Wine), keys typed for another application reach keyHold, which has the
// window's keyboard focus, and it drops them all: letters, Tab, Enter,
// Escape and shortcuts. The hold ends when the person clicks in the window
// (anything that takes the focus from keyHold), switches to the window
// after GuardTime (not as another request window closes), or, where the window had the keyboard from the start
// and so cannot be switched to, presses StartKey as the notice shown at
// the top of the window says. The form then gets the keyboard, and
// keyHold is disabled, so no Tab stops on it again.
type keyHold struct {
	widget.BaseWidget
	canvas fyne.Canvas
	now    func() time.Time
	closed func() time.Time // when a request window last closed
	st     hold
	notice *widget.Label   // heldNotice, shown while the hold lasts once a key was dropped late
	body   *fyne.Container // the notice above the window's content
	// focusFirst gives the form the keyboard when the hold ends by a key
	// or by switching to the window.
	focusFirst func()
	// grow makes the window taller by dh, or shorter when negative, as the
	// notice comes and goes, so that the form keeps its room.
	grow func(dh float32)
}

// holdKeys wraps a request window's content in a keyHold that has the
// keyboard from the start, and asks the window manager not to focus the
// window when it appears. A window the person opened gets neither: nil.
// Call it once the content is set, before the window is first shown; grow
// is as keyHold's.
func holdKeys(w fyne.Window, by opener, now, closed func() time.Time, guard time.Duration, focusFirst func(), grow func(dh float32)) *keyHold {
	if by == byPerson {
		return nil
	}
	k := &keyHold{canvas: w.Canvas(), now: now, closed: closed, st: hold{shown: now(), guard: guard}, focusFirst: focusFirst, grow: grow,
		notice: &widget.Label{Text: heldNotice, Wrapping: fyne.TextWrapWord, Importance: widget.WarningImportance}}
	k.ExtendBaseWidget(k)
	k.notice.Hide()
	// Under the whole content: a click on a field or button takes the focus
	// from it, and a click on blank space reaches it (Tapped).
	k.body = container.NewBorder(k.notice, nil, nil, nil, w.Content())
	w.SetContent(container.NewStack(k, k.body))
	xwin.Quiet(w) // sets the content again, which forgets the focus: first
	w.Canvas().Focus(k)
	return k
}

// render shows the notice while the hold lasts, once it was told.
func (k *keyHold) render() {
	showLine(k.notice, k.body, !k.st.told.IsZero() && k.held(), k.grow)
}

// mayAnswer reports whether an answer (a button, Enter, Ctrl+Enter,
// closing the window) may count as the person's: not within GuardTime of
// the window appearing. Keys cannot answer while the hold lasts, as none
// reach the form. A nil keyHold, a window the person opened, always may.
func (k *keyHold) mayAnswer() bool {
	return k == nil || k.now().Sub(k.st.shown) >= k.st.guard
}

// held reports whether the keyboard is still kept from the form: keyHold
// has it, and the person has not taken the window.
func (k *keyHold) held() bool {
	return !k.st.free && k.canvas.Focused() == fyne.Focusable(k)
}

// FocusGained is the window getting the keyboard while keyHold has it.
func (k *keyHold) FocusGained() {
	if k.st.free {
		return
	}
	k.st = k.st.switched(k.now(), k.closed())
	k.release(true)
}

// FocusLost is the window losing the keyboard, or a click taking it for
// something in the window, after which held is false. Either way the
// notice goes: no key reaches keyHold now, and the window's getting the
// keyboard back, after GuardTime, ends the hold.
func (k *keyHold) FocusLost() {
	showLine(k.notice, k.body, false, k.grow)
}

// Tapped is a click on the window's blank space, where nothing takes the
// focus: the person took the window, and its own keys (Escape) work.
func (k *keyHold) Tapped(*fyne.PointEvent) {
	if k.st.free {
		return
	}
	k.st.free = true
	k.release(false)
}

// release ends the hold if the person took the window: the window's own
// keys (Escape) work where no field takes the focus, and when focus is
// true the form's first field gets the keyboard.
func (k *keyHold) release(focus bool) {
	k.render()
	if !k.st.free {
		return
	}
	k.canvas.Unfocus()
	if focus {
		k.focusFirst()
	}
}

// typed is a key reaching keyHold: dropped, but it may show the notice or
// end the hold.
func (k *keyHold) typed(start bool) {
	if k.st.free {
		return
	}
	k.st = k.st.key(k.now(), start)
	k.release(true)
}

// Keys meant for another application go nowhere.
func (k *keyHold) TypedRune(rune)              { k.typed(false) }
func (k *keyHold) TypedKey(ev *fyne.KeyEvent)  { k.typed(ev.Name == StartKey) }
func (k *keyHold) TypedShortcut(fyne.Shortcut) { k.typed(false) }
func (k *keyHold) AcceptsTab() bool            { return true }
func (k *keyHold) Disabled() bool              { return k.st.free || k.st.had && !k.held() }
func (k *keyHold) Enable()                     {}
func (k *keyHold) Disable()                    {}
func (k *keyHold) MinSize() fyne.Size          { return fyne.Size{} }
func (k *keyHold) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(&fyne.Container{})
}
