package formview

import (
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/forms"
)

// keys carries the two keys a form handles wherever focus is: an Entry would
// otherwise swallow Escape, and Fyne has no shortcut without a modifier.
type keys struct {
	onEscape func()
	onEnter  func()
}

// entry is a text entry that passes Escape and Enter on to the form.
type entry struct {
	widget.Entry
	keys  keys
	title string // what a screen reader calls it (a11y.go)
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

// handle runs the form's action for Escape, and for Enter where Enter
// means nothing else, reporting whether it did.
func (k keys) handle(ev *fyne.KeyEvent, enter bool) bool {
	switch {
	case ev.Name == fyne.KeyEscape:
		k.onEscape()
	case (ev.Name == fyne.KeyReturn || ev.Name == fyne.KeyEnter) && enter:
		k.onEnter()
	default:
		return false
	}
	return true
}

// check is a checkbox that passes Escape and Enter on to the form: once
// focused, it would swallow them.
type check struct {
	widget.Check
	keys  keys
	title string // what a screen reader calls it (a11y.go)
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

// choice is a drop-down that passes Escape and Enter on to the form, as
// check does.
type choice struct {
	widget.Select
	keys  keys
	title string // what a screen reader calls it (a11y.go)
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

// numericEntry refuses characters that cannot be part of a number, so a
// number field never holds words.
type numericEntry struct {
	entry
	integer bool
}

func newNumericEntry(k keys, integer, password bool) *numericEntry {
	e := &numericEntry{entry: entry{keys: k}, integer: integer}
	e.Password = password
	e.ExtendBaseWidget(e)
	return e
}

func (e *numericEntry) TypedRune(r rune) {
	allowed := "0123456789-"
	if !e.integer {
		allowed += ".eE+"
	}
	if strings.ContainsRune(allowed, r) {
		e.Entry.TypedRune(r)
	}
}

func (e *numericEntry) TypedShortcut(s fyne.Shortcut) {
	if paste, ok := s.(*fyne.ShortcutPaste); ok {
		text := strings.TrimSpace(paste.Clipboard.Content())
		for _, r := range text {
			e.TypedRune(r)
		}
		return
	}
	e.Entry.TypedShortcut(s)
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
