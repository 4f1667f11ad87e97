package formview

import (
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
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
	keys keys
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
	keys keys
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
	keys keys
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

// dateEntry is Fyne's DateEntry (typed in the locale's format, or picked
// from a calendar) passing Escape and Enter on to the form.
type dateEntry struct {
	widget.DateEntry
	keys keys
}

func newDateEntry(k keys) *dateEntry {
	e := &dateEntry{keys: k}
	e.ExtendBaseWidget(e)
	e.Wrapping = fyne.TextWrap(fyne.TextTruncateClip) // as widget.NewDateEntry does
	return e
}

func (e *dateEntry) TypedKey(ev *fyne.KeyEvent) {
	if !e.keys.handle(ev, true) {
		e.DateEntry.TypedKey(ev)
	}
}

// dateTimeInput picks a date-time: a date, a time of day and the local UTC
// offset, which together make the RFC 3339 text the spec asks for.
type dateTimeInput struct {
	date     *dateEntry
	clock    *widget.SelectEntry
	zone     *time.Location
	object   fyne.CanvasObject
	onChange func(text string, invalid string)
}

// clockLayouts are the time-of-day spellings a person may type.
var clockLayouts = []string{"15:04", "15:04:05", "3:04 PM", "3:04PM", "3:04 pm", "3:04pm"}

// newDateTimeInput shows initial, an RFC 3339 value, in the zone; onChange
// receives the new value, or why there is none yet, after each edit.
func newDateTimeInput(k keys, zone *time.Location, initial string, onChange func(text, invalid string)) *dateTimeInput {
	d := &dateTimeInput{date: newDateEntry(k), zone: zone, onChange: onChange}
	var times []string
	for h := 0; h < 24; h++ {
		times = append(times, fmt.Sprintf("%02d:00", h), fmt.Sprintf("%02d:30", h))
	}
	d.clock = widget.NewSelectEntry(times)
	d.clock.SetPlaceHolder("09:30")
	offset := widget.NewLabel(time.Now().In(zone).Format("UTC-07:00"))
	// Half the row each: a drop-down at its own minimum width clips "09:30".
	d.object = container.NewGridWithColumns(2, d.date, container.NewBorder(nil, nil, nil, offset, d.clock))
	if t, err := time.Parse(time.RFC3339, initial); err == nil {
		t = t.In(zone)
		d.date.SetDate(&t)
		d.clock.SetText(t.Format("15:04:05"))
	}
	d.date.OnChanged = func(*time.Time) { d.changed() }
	d.clock.OnChanged = func(string) { d.changed() }
	return d
}

func (d *dateTimeInput) changed() {
	clock := strings.TrimSpace(d.clock.Text)
	if d.date.Date == nil && clock == "" && d.date.Text == "" {
		d.onChange("", "")
		return
	}
	if d.date.Date == nil {
		d.onChange("", "Pick a date from the calendar")
		return
	}
	for _, layout := range clockLayouts {
		if c, err := time.ParseInLocation(layout, clock, d.zone); err == nil {
			y, m, day := d.date.Date.Date()
			t := time.Date(y, m, day, c.Hour(), c.Minute(), c.Second(), 0, d.zone)
			d.onChange(t.Format(time.RFC3339), "")
			return
		}
	}
	d.onChange("", "Enter a time like 09:30")
}
