package look

import (
	"image/color"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/keys"
)

// Button is Fyne's button with its keyboard focus drawn as a ring just
// inside its edge, in its label's colour, pressed by Space as the
// desktop's buttons are (TypedRune). Fyne shows a focused button
// only by tinting its fill with the focus colour: on a blue or red button
// that changes it by about 1.5:1, where a focus indicator needs 3:1, so a
// person tabbing to Accept could hardly tell it had the keyboard. The
// label's colour reads on the fill (4.5:1, pairs_test.go), so the ring does
// too.
type Button struct {
	widget.Button
	focused bool
	outer   fyne.Widget // what the window holds: this Button, or a type embedding it
}

// NewButton is a Button labelled label, with icon (nil for none), that
// runs tapped.
func NewButton(label string, icon fyne.Resource, tapped func()) *Button {
	b := &Button{}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// ringInset and ringWidth place the ring: inside the edge, clear of the
// label (Fyne pads it by the inner padding), drawn by the button alone.
const (
	ringInset = 3
	ringWidth = 2
)

// CreateRenderer draws Fyne's button with the ring over it.
func (b *Button) CreateRenderer() fyne.WidgetRenderer {
	b.ExtendBaseWidget(b)
	r := &ringRenderer{WidgetRenderer: b.Button.CreateRenderer(), ring: canvas.NewRectangle(color.Transparent), b: b}
	r.ring.StrokeWidth = ringWidth
	r.update()
	return r
}

// TypedKey leaves Space to TypedRune: the desktop sends a key's press,
// then its character, to whatever has the keyboard by then, and a press
// that closed a dialog or opened one would hand its space to the field
// focused next (an answer changed unseen, a radio button unticked).
// Enter presses the button too, as on the desktop (it has no
// character). Escape, F1 and the page keys go on to the window's own keys
// (closing it or a dialog, Help, scrolling), which a focused widget would
// otherwise swallow.
func (b *Button) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeySpace:
	case fyne.KeyReturn, fyne.KeyEnter:
		b.Press()
	default:
		if !keys.PassOn(b.canvas(), ev) {
			b.Button.TypedKey(ev)
		}
	}
}

// TypedRune presses the button on Space's character, which ends the key.
func (b *Button) TypedRune(r rune) {
	if r == ' ' {
		b.Press()
	}
}

// Press does what a click does, from the keyboard: unlike Fyne's tap, it
// leaves the keyboard on the button, where the person left it.
func (b *Button) Press() {
	if !b.Disabled() && b.OnTapped != nil {
		b.OnTapped()
	}
	if f, _ := b.outer.(fyne.Focusable); !b.Visible() && f != nil {
		if c := b.canvas(); c != nil && c.Focused() == f {
			c.Unfocus() // the press hid it: no key may press it again unseen
		}
	}
}

// ExtendBaseWidget is Fyne's, noting the widget the window holds, through
// which the button finds its window.
func (b *Button) ExtendBaseWidget(w fyne.Widget) {
	if b.outer == nil {
		b.outer = w
	}
	b.Button.ExtendBaseWidget(w)
}

// canvas is the window's canvas the button is in, or nil.
func (b *Button) canvas() fyne.Canvas {
	return fyne.CurrentApp().Driver().CanvasForObject(b.outer)
}

// FocusGained shows the ring.
func (b *Button) FocusGained() {
	b.focused = true
	b.Button.FocusGained()
}

// FocusLost hides the ring.
func (b *Button) FocusLost() {
	b.focused = false
	b.Button.FocusLost()
}

// labelColor is the colour Fyne draws b's label in (widget/button.go:371-397).
func (b *Button) labelColor() fyne.ThemeColorName {
	switch {
	case b.Disabled():
		return theme.ColorNameDisabled
	case b.Importance == widget.HighImportance:
		return theme.ColorNameForegroundOnPrimary
	case b.Importance == widget.DangerImportance:
		return theme.ColorNameForegroundOnError
	case b.Importance == widget.SuccessImportance:
		return theme.ColorNameForegroundOnSuccess
	case b.Importance == widget.WarningImportance:
		return theme.ColorNameForegroundOnWarning
	}
	return theme.ColorNameForeground
}

type ringRenderer struct {
	fyne.WidgetRenderer
	ring    *canvas.Rectangle
	b       *Button
	objects []fyne.CanvasObject // Fyne's, then the ring
}

func (r *ringRenderer) Layout(size fyne.Size) {
	r.WidgetRenderer.Layout(size)
	r.ring.Move(fyne.NewSquareOffsetPos(ringInset))
	r.ring.Resize(size.SubtractWidthHeight(2*ringInset, 2*ringInset))
}

func (r *ringRenderer) Objects() []fyne.CanvasObject { return r.objects }

func (r *ringRenderer) Refresh() {
	r.WidgetRenderer.Refresh() // may add the icon to Fyne's objects
	r.update()
	r.ring.Refresh()
}

// update takes the ring's look and Fyne's objects afresh.
func (r *ringRenderer) update() {
	th := r.b.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	r.ring.StrokeColor = th.Color(r.b.labelColor(), v)
	r.ring.CornerRadius = max(th.Size(theme.SizeNameButtonRadius)-ringInset, 0)
	r.ring.Hidden = !r.b.focused || r.b.Disabled()
	r.objects = append(slices.Clone(r.WidgetRenderer.Objects()), r.ring)
}
