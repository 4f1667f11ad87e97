package xwin

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver"
)

// QuietTime is how long after it is made a quiet window takes no input:
// long enough for a window manager to have mapped it (sway maps a window
// within a frame or two of its first drawing).
const QuietTime = time.Second

// Quiet makes w, a window the app opens by itself, appear without taking
// the keyboard. Call it once the content is set and before the window is
// shown: before its first Show it wraps w's content, once, to act before
// Fyne maps the window; before a Show of an X11 window hidden since, it
// acts at once. Elsewhere a later call does nothing.
func Quiet(w fyne.Window) {
	switch {
	case made(w):
		quiet(w)
	case !wrapped(w):
		beforeShown(w, quiet)
	}
}

// wrapped reports whether w's content is beforeShown's wrapper: a window
// that is no X11 one (or no native one) keeps its first.
func wrapped(w fyne.Window) bool {
	c, ok := w.Content().(*fyne.Container)
	if !ok {
		return false
	}
	_, ok = c.Layout.(*beforeMap)
	return ok
}

// quiet asks the window manager not to focus w's X11 window when it maps
// it, and lets the window take input QuietTime later.
func quiet(w fyne.Window) {
	withX11(w, noFocusOnMap)
	time.AfterFunc(QuietTime, func() { fyne.Do(func() { withX11(w, takesInput) }) })
}

// Dialog marks w as a dialog (EWMH _NET_WM_WINDOW_TYPE_DIALOG), as a
// window that asks the person is: a tiling window manager (sway, i3)
// floats it at its own size, where it would tile it into a strip too
// narrow for its form. Call it once the content is set, before the
// window is first shown.
func Dialog(w fyne.Window) {
	beforeShown(w, func(w fyne.Window) { withX11(w, dialogType) })
}

// beforeShown wraps w's content so that f runs on w once, as Fyne's first
// Show has made the X11 window and not yet mapped it.
func beforeShown(w fyne.Window, f func(fyne.Window)) {
	w.SetContent(&fyne.Container{Layout: &beforeMap{w: w, f: f}, Objects: []fyne.CanvasObject{w.Content()}})
}

// made reports whether w's X11 window exists: it was shown before.
func made(w fyne.Window) bool {
	return ask(w, false, func(uintptr) bool { return true })
}

// Attention marks a shown window as waiting for the person, so that the
// taskbar flashes it; focusing the window clears the mark.
func Attention(w fyne.Window) {
	withX11(w, demandAttention)
}

// Calm takes Attention's mark off w: what it asked for needs the person
// no more (its server gave up), and a taskbar or a workspace flashing for
// it would call them to nothing.
func Calm(w fyne.Window) {
	withX11(w, calm)
}

// Shown reports whether w is on screen: made and not hidden. Fyne has no
// word for it, and a window hidden by Hide stays among the app's windows.
// A test driver's window, and one that is not an X11 window, counts as
// shown.
func Shown(w fyne.Window) bool { return ask(w, true, mapped) }

// Active reports whether w has the keyboard: the X11 input focus. Fyne
// has no word for it either. A test driver's window is active when
// something in it has the focus; a window that is not an X11 one counts
// as active.
func Active(w fyne.Window) bool {
	if _, ok := w.(driver.NativeWindow); !ok {
		return w.Canvas().Focused() != nil
	}
	return ask(w, true, focused)
}

// Origin is where w's top left corner is on the screen, in pixels: Fyne
// does not say. It is zero where that cannot be known.
func Origin(w fyne.Window) fyne.Position {
	var at fyne.Position
	ask(w, false, func(x uintptr) bool {
		ox, oy := origin(x)
		at = fyne.NewPos(float32(ox), float32(oy))
		return true
	})
	return at
}

// ask is f's answer on w's X11 window; other is the answer for a window
// that is not one, and false for a window not made yet.
func ask(w fyne.Window, other bool, f func(uintptr) bool) bool {
	nw, ok := w.(driver.NativeWindow)
	if !ok {
		return other
	}
	answer := false
	nw.RunNative(func(ctx any) {
		x, ok := ctx.(driver.X11WindowContext)
		switch {
		case !ok:
			answer = other
		case x.WindowHandle != 0:
			answer = f(x.WindowHandle)
		}
	})
	return answer
}

// beforeMap lays its one object out over the whole window, and on the
// first measure that finds the X11 window made (inside Fyne's first Show,
// before it maps the window) runs f on the window.
type beforeMap struct {
	w    fyne.Window
	f    func(fyne.Window)
	done bool
}

func (b *beforeMap) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

func (b *beforeMap) MinSize(objs []fyne.CanvasObject) fyne.Size {
	if !b.done {
		if b.done = withX11(b.w, func(uintptr) {}); b.done {
			b.f(b.w)
		}
	}
	var m fyne.Size
	for _, o := range objs {
		m = m.Max(o.MinSize())
	}
	return m
}

// withX11 runs f with w's X11 window and reports whether w has a native
// window yet: true also where it is not an X11 one, as there is then
// nothing to do.
func withX11(w fyne.Window, f func(uintptr)) (made bool) {
	nw, ok := w.(driver.NativeWindow)
	if !ok {
		return true // the test driver's windows
	}
	nw.RunNative(func(ctx any) {
		x, ok := ctx.(driver.X11WindowContext)
		if !ok {
			made = true
			return
		}
		if x.WindowHandle == 0 {
			return
		}
		made = true
		f(x.WindowHandle)
	})
	return made
}
