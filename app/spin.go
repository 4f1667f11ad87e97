package app

import (
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/keys"
	"github.com/elicitdesk/elicitdesk/app/look"
)

// spin is a whole number from min to max: typed (digits only), or stepped
// with its − and + buttons or the Up and Down keys, which stop at the
// bounds.
type spin struct {
	widget.Entry
	keys      *keys.Keys // its window's: Escape, Ctrl+W and Ctrl+Tab reach them; nil for none
	min, max  int
	down, up  *stepButton
	object    fyne.CanvasObject // the entry with its buttons
	onChanged func(int)         // told of each valid value
	unit      string            // what it counts, for a screen reader: "days"; "" when its label says it
	title     string            // its name with the unit, where the label beside it says the unit on screen
}

func newSpin(value, min, max int, k *keys.Keys) *spin {
	s := &spin{min: min, max: max, keys: k}
	s.ExtendBaseWidget(s)
	s.SetText(strconv.Itoa(value))
	s.down = newStepButton("One less", theme.ContentRemoveIcon(), func() { s.step(-1) }, s)
	s.up = newStepButton("One more", theme.ContentAddIcon(), func() { s.step(+1) }, s)
	s.OnChanged = func(text string) {
		s.bounds()
		if n, err := s.parse(text); err == nil && s.onChanged != nil {
			s.onChanged(n)
		}
	}
	s.bounds()
	// Wide enough for the largest number and no wider: it is one figure.
	// A number out of bounds shows no mark of its own: its buttons stop at
	// the bounds, and Save says what is wrong.
	width := widget.NewLabel(strings.Repeat("0", len(strconv.Itoa(max))+1)).MinSize().Width + 2*theme.InnerPadding()
	s.object = container.NewHBox(container.NewGridWrap(fyne.NewSize(width, s.MinSize().Height), s), s.down, s.up)
	return s
}

// Value is the number typed, or why it is not one within the bounds.
func (s *spin) Value() (int, error) { return s.parse(s.Text) }

func (s *spin) parse(text string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(text))
	if err != nil || n < s.min || n > s.max {
		return 0, fmt.Errorf("a whole number from %d to %d", s.min, s.max)
	}
	return n, nil
}

// step adds by to the value, within the bounds; a value not yet valid
// steps from the nearest bound.
func (s *spin) step(by int) {
	n, err := s.Value()
	if err != nil {
		n = s.min
		if by < 0 {
			n = s.max
		}
		by = 0
	}
	s.SetText(strconv.Itoa(min(max(n+by, s.min), s.max)))
}

// bounds disables the button that would step past a bound.
func (s *spin) bounds() {
	n, err := s.Value()
	s.enable(s.down, err != nil || n > s.min)
	s.enable(s.up, err != nil || n < s.max)
}

// enable enables or disables b; a button disabled as it has the keyboard
// (stepped to its bound) hands it to the number, where the arrows step
// too: a disabled button would drop it.
func (s *spin) enable(b *stepButton, on bool) {
	if b == nil {
		return
	}
	if on {
		b.Enable()
		return
	}
	if c := fyne.CurrentApp().Driver().CanvasForObject(b); c != nil && c.Focused() == fyne.Focusable(b) {
		c.Focus(s)
	}
	b.Disable()
}

// TypedRune takes digits only: the field holds a number.
func (s *spin) TypedRune(r rune) {
	if r >= '0' && r <= '9' {
		s.Entry.TypedRune(r)
	}
}

// TypedKey steps on Up and Down.
func (s *spin) TypedKey(ev *fyne.KeyEvent) {
	switch {
	case ev.Name == fyne.KeyUp:
		s.step(+1)
	case ev.Name == fyne.KeyDown:
		s.step(-1)
	case s.keys != nil && s.keys.Passed(ev):
	default:
		s.Entry.TypedKey(ev)
	}
}

// TypedShortcut passes the window's shortcuts on, which an entry would
// keep to itself.
func (s *spin) TypedShortcut(sc fyne.Shortcut) {
	if s.keys == nil || !s.keys.TypedShortcut(sc) {
		s.Entry.TypedShortcut(sc)
	}
}

// stepButton is − or +, an icon: a screen reader calls it by what it does
// (app/atspi), not by its icon's file name, and hears the number as its
// description, which it says again as each press changes it.
type stepButton struct {
	look.Button
	title string
	of    *spin
}

func newStepButton(title string, icon fyne.Resource, tapped func(), of *spin) *stepButton {
	b := &stepButton{title: title, of: of}
	b.Icon, b.OnTapped = icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// AccessibleTitle is what the button does.
func (b *stepButton) AccessibleTitle() string { return b.title }

// AccessibleDescription is the number it steps (atspi.Described), with
// what it counts.
func (b *stepButton) AccessibleDescription() string {
	return strings.TrimSpace(b.of.Text + " " + b.of.unit)
}

// AccessibilityLabel implements fyne.Accessible: what the button does,
// where Fyne would say its icon's name.
func (b *stepButton) AccessibilityLabel() string { return b.title }
