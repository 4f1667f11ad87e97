package formview

import (
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	applook "github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/forms"
)

// keys is how a field's controls reach the form wherever the keyboard
// is: an Entry would otherwise swallow Escape, Enter and Ctrl+Enter, and
// Fyne has no shortcut without a modifier, nor a word when focus moves.
type keys struct {
	onEscape func()
	// onAnswer runs for Enter in a field where Enter means nothing else,
	// and for Ctrl+Enter, which a focused entry would keep to itself.
	onAnswer func()
	// onFocus runs when a control of the field takes the keyboard, with
	// that control, or nil for the whole field.
	onFocus func(fyne.CanvasObject)
	// toWindow hands a key the window handles (F1: Help) to the window,
	// reporting whether it did.
	toWindow func(*fyne.KeyEvent) bool
}

// handle runs the form's action for Escape, and for Enter where Enter
// means nothing else, or hands F1 to the window, reporting whether it did.
func (k keys) handle(ev *fyne.KeyEvent, enter bool) bool {
	switch {
	case ev.Name == fyne.KeyEscape:
		k.onEscape()
	case (ev.Name == fyne.KeyReturn || ev.Name == fyne.KeyEnter) && enter:
		k.onAnswer()
	default:
		return k.toWindow != nil && k.toWindow(ev)
	}
	return true
}

// shortcut runs the form's answer for Ctrl+Enter, reporting whether s was it.
func (k keys) shortcut(s fyne.Shortcut) bool {
	if !isAnswerShortcut(s) {
		return false
	}
	k.onAnswer()
	return true
}

// focused tells the form that o, a control of the field, took the keyboard.
func (k keys) focused(o fyne.CanvasObject) {
	if k.onFocus != nil {
		k.onFocus(o)
	}
}

// answerShortcuts are Ctrl+Enter (Cmd+Enter on a Mac), from the main
// keyboard or the keypad: they answer from anywhere in the form.
var answerShortcuts = []*desktop.CustomShortcut{
	{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierShortcutDefault},
	{KeyName: fyne.KeyEnter, Modifier: fyne.KeyModifierShortcutDefault},
}

func isAnswerShortcut(s fyne.Shortcut) bool {
	for _, a := range answerShortcuts {
		if s.ShortcutName() == a.ShortcutName() {
			return true
		}
	}
	return false
}

// entry is a text entry that passes Escape, Enter and Ctrl+Enter on to
// the form, and whose pre-filled text the keyboard first enters selected
// (several lines: at their end).
type entry struct {
	widget.Entry
	keys    keys
	entered bool // has had the keyboard once
	spoken       // what a screen reader calls it (a11y.go)
}

func newEntry(k keys, password, multiLine bool) *entry {
	e := &entry{keys: k}
	e.Password = password
	e.MultiLine = multiLine
	if multiLine {
		e.Wrapping = fyne.TextWrapWord
		e.SetMinRowsVisible(3)
	}
	e.ExtendBaseWidget(e)
	return e
}

func (e *entry) TypedKey(ev *fyne.KeyEvent) {
	if !e.keys.handle(ev, !e.MultiLine) {
		e.Entry.TypedKey(ev)
	}
}

// AcceptsTab is false even for several lines: Tab leaves the field, as
// from every other one, rather than trapping the keyboard in it.
func (e *entry) AcceptsTab() bool { return false }

func (e *entry) TypedShortcut(s fyne.Shortcut) {
	if !e.keys.shortcut(s) {
		e.Entry.TypedShortcut(s)
	}
}

// FocusGained selects a pre-filled line the first time the entry gets
// the keyboard, as Tab does in a browser's or the desktop's own fields:
// typing replaces the server's default, and an arrow key or End keeps it.
// Several lines get the caret at their end, so typing adds to them. A
// click places the caret where it points after this; later, the caret
// stays where the person left it, also when the window is switched back
// to.
func (e *entry) FocusGained() {
	if !e.entered {
		e.entered = true
		e.Entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyPageDown}) // the end of the last line, in every kind of entry
		if !e.MultiLine {
			e.Entry.TypedShortcut(&fyne.ShortcutSelectAll{})
		}
	}
	e.Entry.FocusGained()
	e.keys.focused(nil)
}

// button is an answer's button that passes Escape and F1 on to the form,
// which a focused button would swallow. Enter and Space press it, and a
// ring shows which has the keyboard (applook.Button).
type button struct {
	applook.Button
	keys keys
}

func newButton(k keys, label string, icon fyne.Resource, tapped func()) *button {
	b := &button{keys: k}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

func (b *button) TypedKey(ev *fyne.KeyEvent) {
	if !b.keys.handle(ev, false) {
		b.Button.TypedKey(ev)
	}
}

// check is a checkbox that passes Escape and Enter on to the form: once
// focused, it would swallow them.
type check struct {
	widget.Check
	keys   keys
	spoken // what a screen reader calls it (a11y.go)
}

func newCheck(k keys, label string) *check {
	c := &check{keys: k}
	c.Text = label
	c.ExtendBaseWidget(c)
	return c
}

func (c *check) TypedKey(ev *fyne.KeyEvent) {
	if !c.keys.handle(ev, true) {
		c.Check.TypedKey(ev)
	}
}

func (c *check) FocusGained() {
	c.Check.FocusGained()
	c.keys.focused(c)
}

// toggle is a tap on the check's label: it focuses the box and ticks or
// unticks it, as a tap on the box does.
func (c *check) toggle() {
	if c.Disabled() {
		return
	}
	if cv := fyne.CurrentApp().Driver().CanvasForObject(c); cv != nil {
		cv.Focus(c)
	}
	c.SetChecked(!c.Checked)
}

// choice is a drop-down that passes Escape and Enter on to the form, as
// check does.
type choice struct {
	widget.Select
	keys   keys
	spoken // what a screen reader calls it (a11y.go)
}

func newChoiceSelect(k keys, options []string) *choice {
	s := &choice{keys: k}
	s.Options = options
	s.PlaceHolder = "Choose…"
	s.ExtendBaseWidget(s)
	return s
}

func (s *choice) TypedKey(ev *fyne.KeyEvent) {
	if !s.keys.handle(ev, true) {
		s.Select.TypedKey(ev)
	}
}

func (s *choice) FocusGained() {
	s.Select.FocusGained()
	s.keys.focused(s)
}

// numericEntry is a number field. It keeps every character typed: one
// dropped would change the number unseen ("2.5" in a whole-number field
// read 25, "1,5" 15), where the field's check says what is wrong with it.
// A pasted number loses the spaces around it.
type numericEntry struct {
	entry
}

func newNumericEntry(k keys, password bool) *numericEntry {
	e := &numericEntry{entry: entry{keys: k}}
	e.Password = password
	e.ExtendBaseWidget(e)
	return e
}

func (e *numericEntry) TypedShortcut(s fyne.Shortcut) {
	if paste, ok := s.(*fyne.ShortcutPaste); ok {
		text := strings.TrimSpace(paste.Clipboard.Content())
		for _, r := range text {
			e.TypedRune(r)
		}
		return
	}
	e.entry.TypedShortcut(s)
}

// dateEntry takes a date typed the way the person's locale writes it (or
// as ISO), or picked from a calendar. It is a plain entry rather than
// Fyne's DateEntry, which parses only in Fyne's own idea of the locale and
// marks errors its own way.
type dateEntry struct {
	entry
}

func newDateEntry(k keys, dates forms.DateStyle) *dateEntry {
	e := &dateEntry{entry: entry{keys: k}}
	e.PlaceHolder = dates.Pattern()
	e.ActionItem = newPicker(theme.CalendarIcon(), func() {
		if e.Disabled() {
			return
		}
		c := fyne.CurrentApp().Driver().CanvasForObject(e)
		if c == nil {
			return
		}
		shown := time.Now()
		if t, ok := dates.Parse(e.Text); ok {
			shown = t
		}
		var pop *widget.PopUp
		pop = widget.NewPopUp(widget.NewCalendar(shown, func(t time.Time) {
			pop.Hide()
			e.SetText(dates.Format(t))
		}), c)
		pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(e)
		pop.ShowAtPosition(pos.Add(fyne.NewPos(0, e.Size().Height)))
		pop.Resize(fyne.NewSize(e.Size().Width, pop.MinSize().Height))
	})
	e.ExtendBaseWidget(e)
	return e
}

// picker is an icon that opens a picker when clicked. It takes no
// keyboard focus: the entry beside it takes typing, so Tab goes from
// field to field instead of stopping on a button that shows no focus.
type picker struct {
	widget.Icon
	onTap func()
	title string // what a screen reader calls it (a11y.go)
}

func newPicker(icon fyne.Resource, onTap func()) *picker {
	p := &picker{onTap: onTap}
	p.Resource = icon
	p.ExtendBaseWidget(p)
	return p
}

// Tapped implements fyne.Tappable.
func (p *picker) Tapped(*fyne.PointEvent) { p.onTap() }

// Cursor shows the pointer is over something to click.
func (p *picker) Cursor() desktop.Cursor { return desktop.PointerCursor }

// dateTimeInput takes a date-time: a date and a time of day typed in the
// zone, whose offset shows beside them; together they make the RFC 3339
// text the spec asks for.
type dateTimeInput struct {
	date   *dateEntry
	clock  *entry
	object fyne.CanvasObject
}

// newDateTimeInput shows initial, an RFC 3339 value, in the zone; onChange
// receives the new value, or why there is none yet, after each edit.
func newDateTimeInput(k keys, dates forms.DateStyle, zone *time.Location, initial string, onChange func(text, invalid string)) *dateTimeInput {
	d := &dateTimeInput{date: newDateEntry(k, dates), clock: newEntry(k, false, false)}
	d.clock.PlaceHolder = "09:30"
	offset := widget.NewLabel(time.Now().In(zone).Format("UTC-07:00"))
	d.object = container.NewGridWithColumns(2, d.date, container.NewBorder(nil, nil, nil, offset, d.clock))
	if t, err := time.Parse(time.RFC3339, initial); err == nil {
		t = t.In(zone)
		d.date.Text = dates.Format(t)
		d.clock.Text = t.Format("15:04")
		if t.Second() != 0 {
			d.clock.Text = t.Format("15:04:05")
		}
	}
	changed := func(string) { onChange(dates.DateTimeValue(d.date.Text, d.clock.Text, zone)) }
	d.date.OnChanged, d.clock.OnChanged = changed, changed
	return d
}
