package formview

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// radios is a group of radio buttons that is one Tab stop, as a desktop's
// own radio groups are: the arrow keys move the choice inside it, and Tab
// leaves it. Fyne's RadioGroup makes each button a stop of its own, so a
// form of a few choices takes dozens of Tabs to cross. It looks like
// Fyne's, drawn from the same theme icons.
type radios struct {
	widget.DisableableWidget

	options    []string
	selected   int  // -1 when none is
	horizontal bool // side by side, else one under another
	required   bool // the selected option cannot be tapped off
	onChanged  func(option string)
	keys       keys
	spoken     // what a screen reader calls it (a11y.go)

	focused bool
	hovered int // -1 when the pointer is over none
}

func newRadios(k keys, options []string, horizontal bool) *radios {
	r := &radios{keys: k, options: options, horizontal: horizontal, selected: -1, hovered: -1}
	r.ExtendBaseWidget(r)
	return r
}

// Selected returns the selected option, or "".
func (r *radios) Selected() string {
	if r.selected < 0 {
		return ""
	}
	return r.options[r.selected]
}

// setSelected selects option without calling onChanged, as the first
// state is set.
func (r *radios) setSelected(option string) {
	r.selected = -1
	for i, o := range r.options {
		if o == option {
			r.selected = i
		}
	}
}

// choose selects option i, or none for -1, as the person did.
func (r *radios) choose(i int) {
	if r.Disabled() || i == r.selected {
		return
	}
	r.selected = i
	r.Refresh()
	if r.onChanged != nil {
		r.onChanged(r.Selected())
	}
}

// cursor is the option the keyboard is on: the selected one, else the first.
func (r *radios) cursor() int { return max(r.selected, 0) }

// toggle is a tap or Space on option i: it selects it, or unselects it
// when it was selected and the group may be left without a choice.
func (r *radios) toggle(i int) {
	if i == r.selected {
		if !r.required {
			r.choose(-1)
		}
		return
	}
	r.choose(i)
}

// FocusGained implements fyne.Focusable.
func (r *radios) FocusGained() {
	r.focused = true
	r.Refresh()
	r.keys.focused(r)
}

// FocusLost implements fyne.Focusable.
func (r *radios) FocusLost() {
	r.focused = false
	r.Refresh()
}

// TypedRune implements fyne.Focusable: Space chooses the option the
// keyboard is on.
func (r *radios) TypedRune(c rune) {
	if c == ' ' {
		r.toggle(r.cursor())
	}
}

// TypedKey implements fyne.Focusable: the arrows choose the next or the
// previous option, round the ends, as radio groups do everywhere.
func (r *radios) TypedKey(ev *fyne.KeyEvent) {
	if r.keys.handle(ev, true) || len(r.options) == 0 {
		return
	}
	switch ev.Name {
	case fyne.KeyDown, fyne.KeyRight:
		if r.selected < 0 {
			r.choose(0)
		} else {
			r.choose((r.selected + 1) % len(r.options))
		}
	case fyne.KeyUp, fyne.KeyLeft:
		r.choose((r.cursor() + len(r.options) - 1) % len(r.options))
	}
}

// Tapped implements fyne.Tappable: the option under the pointer.
func (r *radios) Tapped(ev *fyne.PointEvent) {
	if r.Disabled() {
		return
	}
	i := r.at(ev.Position)
	if i < 0 {
		return
	}
	if c := fyne.CurrentApp().Driver().CanvasForObject(r); c != nil && !r.focused {
		c.Focus(r)
	}
	r.toggle(i)
}

// MouseIn implements desktop.Hoverable.
func (r *radios) MouseIn(ev *desktop.MouseEvent) { r.MouseMoved(ev) }

// MouseMoved implements desktop.Hoverable.
func (r *radios) MouseMoved(ev *desktop.MouseEvent) {
	if i := r.at(ev.Position); i != r.hovered && !r.Disabled() {
		r.hovered = i
		r.Refresh()
	}
}

// MouseOut implements desktop.Hoverable.
func (r *radios) MouseOut() {
	if r.hovered >= 0 {
		r.hovered = -1
		r.Refresh()
	}
}

// at is the option at pos, or -1: every option has the same share of
// the group, as the renderer lays them out.
func (r *radios) at(pos fyne.Position) int {
	if len(r.options) == 0 || pos.X < 0 || pos.Y < 0 {
		return -1
	}
	item := r.item()
	i := int(pos.Y / item.Height)
	if r.horizontal {
		i = int(pos.X / item.Width)
	}
	if i >= len(r.options) || (r.horizontal && pos.Y > item.Height) || (!r.horizontal && pos.X > item.Width) {
		return -1
	}
	return i
}

// item is the size of one option: the largest option's.
func (r *radios) item() fyne.Size {
	th := r.Theme()
	var s fyne.Size
	for _, o := range r.options {
		text := fyne.MeasureText(o, th.Size(theme.SizeNameText), fyne.TextStyle{})
		s = s.Max(text.AddWidthHeight(2*th.Size(theme.SizeNameInnerPadding)+th.Size(theme.SizeNameInlineIcon)+th.Size(theme.SizeNamePadding),
			2*th.Size(theme.SizeNameInnerPadding)))
	}
	return s
}

// CreateRenderer implements fyne.Widget.
func (r *radios) CreateRenderer() fyne.WidgetRenderer {
	rr := &radiosRenderer{r: r}
	for _, o := range r.options {
		text := canvas.NewText(o, color.Transparent)
		rr.items = append(rr.items, radioLook{ring: &canvas.Circle{}, fill: &canvas.Image{}, edge: &canvas.Image{}, text: text})
	}
	rr.Refresh()
	return rr
}

// radioLook is what one option draws.
type radioLook struct {
	ring       *canvas.Circle // focus or hover
	fill, edge *canvas.Image
	text       *canvas.Text
}

type radiosRenderer struct {
	r     *radios
	items []radioLook
}

func (rr *radiosRenderer) Destroy() {}

func (rr *radiosRenderer) MinSize() fyne.Size {
	item := rr.r.item()
	n := float32(len(rr.items))
	if rr.r.horizontal {
		return fyne.NewSize(item.Width*n, item.Height)
	}
	return fyne.NewSize(item.Width, item.Height*n)
}

func (rr *radiosRenderer) Layout(fyne.Size) {
	th := rr.r.Theme()
	inner, border, icon := th.Size(theme.SizeNameInnerPadding), th.Size(theme.SizeNameInputBorder), th.Size(theme.SizeNameInlineIcon)
	item := rr.r.item()
	for i, it := range rr.items {
		at := fyne.NewPos(0, float32(i)*item.Height)
		if rr.r.horizontal {
			at = fyne.NewPos(float32(i)*item.Width, 0)
		}
		ring := fyne.NewSquareSize(icon + inner)
		it.ring.Resize(ring)
		it.ring.Move(at.AddXY(border, (item.Height-ring.Height)/2))
		iconAt := at.AddXY(inner/2+border, (item.Height-icon)/2)
		for _, img := range []*canvas.Image{it.fill, it.edge} {
			img.Resize(fyne.NewSquareSize(icon))
			img.Move(iconAt)
		}
		it.text.Resize(fyne.NewSize(item.Width-ring.Width-th.Size(theme.SizeNamePadding), item.Height))
		it.text.Move(at.AddXY(ring.Width+th.Size(theme.SizeNamePadding), 0))
	}
}

func (rr *radiosRenderer) Objects() []fyne.CanvasObject {
	var out []fyne.CanvasObject
	for _, it := range rr.items {
		out = append(out, it.ring, it.fill, it.edge, it.text)
	}
	return out
}

// Refresh draws each option as Fyne's radio buttons do.
func (rr *radiosRenderer) Refresh() {
	r := rr.r
	th := r.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	for i, it := range rr.items {
		edge := theme.NewThemedResource(th.Icon(theme.IconNameRadioButton))
		fill := theme.NewThemedResource(th.Icon(theme.IconNameRadioButtonFill))
		edge.ColorName, fill.ColorName = theme.ColorNameInputBorder, theme.ColorNameInputBackground
		if i == r.selected {
			edge.ColorName, fill.ColorName = theme.ColorNameForeground, theme.ColorNamePrimary
		}
		it.text.Color = th.Color(theme.ColorNameForeground, v)
		it.text.TextSize = th.Size(theme.SizeNameText)
		it.ring.FillColor = color.Transparent
		switch {
		case r.Disabled():
			edge.ColorName, fill.ColorName = theme.ColorNameDisabled, theme.ColorNameBackground
			if i == r.selected {
				fill.ColorName = theme.ColorNameDisabled
			}
			it.text.Color = th.Color(theme.ColorNameDisabled, v)
		case r.focused && i == r.cursor():
			it.ring.FillColor = th.Color(theme.ColorNameFocus, v)
		case i == r.hovered:
			it.ring.FillColor = th.Color(theme.ColorNameHover, v)
		}
		it.edge.Resource, it.fill.Resource = edge, fill
		it.edge.Refresh()
		it.fill.Refresh()
		it.ring.Refresh()
		it.text.Refresh()
	}
	rr.Layout(r.Size())
}
