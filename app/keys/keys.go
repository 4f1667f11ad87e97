// Package keys gives the app's own windows (History, Hosts, Welcome,
// Settings, a tool call…, never a request window) the keys a person
// expects of a desktop window: Ctrl+W and Escape close it, Ctrl+F goes
// to its search, and Ctrl+Tab and Ctrl+Page Down (with Shift, or Page Up,
// back) move between its tabs. One place installs them, so every such
// window behaves alike.
//
// Fyne hands a key to the focused widget first: an entry keeps Escape
// and every shortcut it is given. An Entry made by Keys.NewEntry passes
// them on.
package keys

import (
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// The shortcuts, with the platform's modifier (Ctrl, or Cmd on macOS).
var (
	closeShortcut = &desktop.CustomShortcut{KeyName: fyne.KeyW, Modifier: fyne.KeyModifierShortcutDefault}
	findShortcut  = &desktop.CustomShortcut{KeyName: fyne.KeyF, Modifier: fyne.KeyModifierShortcutDefault}
	// Every desktop's keys to the next tab and the one before; Ctrl+Tab
	// is Ctrl on a Mac too.
	nextTab = []fyne.Shortcut{
		&desktop.CustomShortcut{KeyName: fyne.KeyTab, Modifier: fyne.KeyModifierControl},
		&desktop.CustomShortcut{KeyName: fyne.KeyPageDown, Modifier: fyne.KeyModifierShortcutDefault},
	}
	previousTab = []fyne.Shortcut{
		&desktop.CustomShortcut{KeyName: fyne.KeyTab, Modifier: fyne.KeyModifierControl | fyne.KeyModifierShift},
		&desktop.CustomShortcut{KeyName: fyne.KeyPageUp, Modifier: fyne.KeyModifierShortcutDefault},
	}
)

// Keys are the keys of one window.
type Keys struct {
	win    fyne.Window
	close  func()
	search fyne.Focusable     // nil for none
	tabs   *container.AppTabs // nil for none
	scroll *container.Scroll  // nil for none
}

// Close makes Ctrl+W and Escape close w by calling close (w.Close when
// nil, which a close intercept may turn into hiding). Escape leaves a
// dialog shown over w to that dialog, and keys w's canvas handled before
// still reach that handler.
func Close(w fyne.Window, close func()) *Keys {
	if close == nil {
		close = w.Close
	}
	k := &Keys{win: w, close: close}
	c := w.Canvas()
	c.AddShortcut(closeShortcut, func(fyne.Shortcut) { k.close() })
	c.AddShortcut(findShortcut, func(fyne.Shortcut) { k.find() })
	before := c.OnTypedKey()
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if !k.TypedKey(ev) && before != nil {
			before(ev)
		}
	})
	return k
}

// Find makes Ctrl+F focus search, so the person can type at once.
func (k *Keys) Find(search fyne.Focusable) { k.search = search }

// Tabs makes Ctrl+Tab and Ctrl+Page Down select the next of tabs, and
// Ctrl+Shift+Tab and Ctrl+Page Up the one before, round the ends: Fyne's
// tabs take no key, so a tab would be the mouse's alone.
func (k *Keys) Tabs(tabs *container.AppTabs) {
	k.tabs = tabs
	c := k.win.Canvas()
	for _, s := range append(slices.Clone(nextTab), previousTab...) {
		c.AddShortcut(s, func(s fyne.Shortcut) { k.TypedShortcut(s) })
	}
}

// moveTab selects the tab by tabs away from the selected one, and gives
// the keyboard to its first control (else the window's first): the one it
// was on may be in the tab now hidden, where typing would go unseen.
func (k *Keys) moveTab(by int) {
	if k.win.Canvas().Overlays().Top() != nil {
		return // a dialog is over the tabs: they stay as the dialog found them
	}
	if n := len(k.tabs.Items); n > 0 {
		k.tabs.SelectIndex((k.tabs.SelectedIndex() + by + n) % n)
		c := k.win.Canvas()
		c.Unfocus()
		if f := firstControl(k.tabs.Selected().Content); f != nil {
			if c.Focus(f); c.Focused() == f {
				return
			}
		}
		c.FocusNext()
	}
}

// firstControl is the first shown control in o that takes the keyboard,
// found through containers, scrolls and forms, or nil.
func firstControl(o fyne.CanvasObject) fyne.Focusable {
	if o == nil || !o.Visible() {
		return nil
	}
	if f, ok := o.(fyne.Focusable); ok {
		if d, ok := o.(fyne.Disableable); !ok || !d.Disabled() {
			return f
		}
	}
	var parts []fyne.CanvasObject
	switch x := o.(type) {
	case *fyne.Container:
		parts = x.Objects
	case *container.Scroll:
		parts = []fyne.CanvasObject{x.Content}
	case *widget.Form:
		for _, it := range x.Items {
			parts = append(parts, it.Widget)
		}
	}
	for _, p := range parts {
		if f := firstControl(p); f != nil {
			return f
		}
	}
	return nil
}

func (k *Keys) find() {
	if k.search != nil {
		k.win.Canvas().Focus(k.search)
	}
}

// TypedKey handles Escape, closing the window unless a dialog is over it
// (a dialog of modal's takes its keys first), and Scroll's keys, and says
// whether it handled ev.
func (k *Keys) TypedKey(ev *fyne.KeyEvent) bool {
	if k.win.Canvas().Overlays().Top() != nil {
		return false
	}
	if ev.Name == fyne.KeyEscape {
		k.close()
		return true
	}
	return k.scrolled(ev.Name)
}

// Scroll makes Up, Down, Page Up, Page Down, Home and End scroll s while
// no widget takes them: a window that is one long text (Help) reads to
// its end without the mouse.
func (k *Keys) Scroll(s *container.Scroll) { k.scroll = s }

// scrolled scrolls for key, and says whether it was one of Scroll's.
func (k *Keys) scrolled(key fyne.KeyName) bool {
	if k.scroll == nil {
		return false
	}
	s := k.scroll
	line, page := theme.TextSize()*2, max(s.Size().Height-theme.TextSize()*2, 1)
	y := s.Offset.Y
	switch key {
	case fyne.KeyUp:
		y -= line
	case fyne.KeyDown:
		y += line
	case fyne.KeyPageUp:
		y -= page
	case fyne.KeyPageDown:
		y += page
	case fyne.KeyHome:
		y = 0
	case fyne.KeyEnd:
		y = s.Content.MinSize().Height
	default:
		return false
	}
	y = max(0, min(y, s.Content.MinSize().Height-s.Size().Height))
	s.ScrollToOffset(fyne.NewPos(s.Offset.X, y))
	return true
}

// TypedShortcut handles Ctrl+W, Ctrl+F and the tabs' keys, and says
// whether it handled s.
func (k *Keys) TypedShortcut(s fyne.Shortcut) bool {
	named := func(list []fyne.Shortcut) bool {
		return k.tabs != nil && slices.ContainsFunc(list, func(t fyne.Shortcut) bool { return t.ShortcutName() == s.ShortcutName() })
	}
	switch {
	case s.ShortcutName() == closeShortcut.ShortcutName():
		k.close()
	case s.ShortcutName() == findShortcut.ShortcutName():
		k.find()
	case named(nextTab):
		k.moveTab(1)
	case named(previousTab):
		k.moveTab(-1)
	default:
		return false
	}
	return true
}

// PassOn hands Escape, F1 and the page keys from a focused control that
// has no use for them (a button, a list) to c's own key handler (closing
// the window or a dialog, Help, scrolling), and reports whether ev was one
// of them: Fyne gives a focused widget every key.
func PassOn(c fyne.Canvas, ev *fyne.KeyEvent) bool {
	switch ev.Name {
	case fyne.KeyEscape, fyne.KeyF1, fyne.KeyPageUp, fyne.KeyPageDown, fyne.KeyHome, fyne.KeyEnd:
		if c != nil && c.OnTypedKey() != nil {
			c.OnTypedKey()(ev)
		}
		return true
	}
	return false
}

// ToWindow hands F1 from a focused widget to c's own key handler, where
// the app opens Help, and reports whether ev was F1: Fyne gives a focused
// widget every key, and has no shortcut without a modifier. The app's
// text fields call it before they take a key.
func ToWindow(c fyne.Canvas, ev *fyne.KeyEvent) bool {
	if ev.Name != fyne.KeyF1 {
		return false
	}
	if h := c.OnTypedKey(); h != nil {
		h(ev)
	}
	return true
}

// Entry is a single-line entry that passes Escape, Ctrl+W and Ctrl+F on
// to its window's Keys, and F1 to the window, so they work while the
// person types in it.
type Entry struct {
	widget.Entry
	keys *Keys
}

// NewEntry returns an empty Entry of k's window.
func (k *Keys) NewEntry() *Entry {
	e := &Entry{keys: k}
	e.ExtendBaseWidget(e)
	return e
}

// NewMultiLineEntry returns an empty multi-line Entry of k's window, as
// widget.NewMultiLineEntry makes one.
func (k *Keys) NewMultiLineEntry() *Entry {
	e := k.NewEntry()
	e.MultiLine, e.Wrapping = true, fyne.TextWrap(fyne.TextTruncateClip)
	return e
}

// AcceptsTab is false for a multi-line Entry too (Fyne's takes Tab as
// text): Tab moves on, as from a browser's text area, so that a person on
// the keyboard is never trapped in it (Settings' patterns to redact).
func (e *Entry) AcceptsTab() bool { return false }

// TypedKey implements fyne.Focusable.
func (e *Entry) TypedKey(ev *fyne.KeyEvent) {
	if !e.keys.Passed(ev) {
		e.Entry.TypedKey(ev)
	}
}

// TypedShortcut implements fyne.Shortcutable.
func (e *Entry) TypedShortcut(s fyne.Shortcut) {
	if !e.keys.TypedShortcut(s) {
		e.Entry.TypedShortcut(s)
	}
}

// Border is container.NewBorder with its objects in the order they read,
// top, left, centre, right, bottom, which is the order Tab follows:
// Fyne's puts the centre first, so Tab went from a list to the search
// above it. nil sides are left out.
func Border(top, bottom, left, right fyne.CanvasObject, center ...fyne.CanvasObject) *fyne.Container {
	var objects []fyne.CanvasObject
	for _, o := range append(append([]fyne.CanvasObject{top, left}, center...), right, bottom) {
		if o != nil {
			objects = append(objects, o)
		}
	}
	return container.New(layout.NewBorderLayout(top, bottom, left, right), objects...)
}
