package a11y

import (
	"image/color"
	"reflect"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/keys"
)

// List is a Fyne list that says what a screen reader needs of it and
// Fyne keeps to itself: a name, which row is selected, and which row the
// arrow keys are on. It draws that row with a ring in the text's colour:
// Fyne only tints it with the hover colour, about 1.1:1 on white, and not
// at all on a selected row. And it passes the keys it has no use for
// (Escape, F1, the page keys) on to its window, which a focused Fyne list
// swallows: Escape in History's list closed nothing. Its rows do not take
// the theme of a container.ThemeOverride above it (Fyne looks a list up
// under its own pointer, which the extending type hides): rows that need
// one hold their own.
type List struct {
	widget.BaseWidget
	rows     *rows
	selected func() (widget.ListItemID, bool)
}

// rows is the list itself, extended for its keys.
type rows struct {
	widget.List
	title string
}

// AccessibilityLabel implements fyne.Accessible: the list's name.
func (r *rows) AccessibilityLabel() string { return r.title }

// AccessibilityRole implements fyne.Accessible: it holds its rows.
func (r *rows) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleContainer }

func (r *rows) TypedKey(ev *fyne.KeyEvent) {
	if !keys.PassOn(fyne.CurrentApp().Driver().CanvasForObject(r), ev) {
		r.List.TypedKey(ev)
	}
}

// NewList makes a list named title of length rows, each made by create
// and filled in by update; selected says which row is selected, if one
// is.
func NewList(title string, length func() int, create func() fyne.CanvasObject, update func(widget.ListItemID, fyne.CanvasObject), selected func() (widget.ListItemID, bool)) *List {
	l := &List{rows: &rows{title: title}, selected: selected}
	l.ExtendBaseWidget(l)
	r := l.rows
	r.Length = length
	r.CreateItem = func() fyne.CanvasObject {
		ring := canvas.NewRectangle(color.Transparent)
		ring.StrokeWidth = 2
		ring.Hide()
		return container.NewStack(create(), ring)
	}
	r.UpdateItem = func(id widget.ListItemID, o fyne.CanvasObject) {
		row := o.(*fyne.Container)
		update(id, row.Objects[0])
		ring := row.Objects[1].(*canvas.Rectangle)
		th := r.Theme()
		ring.StrokeColor = th.Color(theme.ColorNameForeground, fyne.CurrentApp().Settings().ThemeVariant())
		ring.CornerRadius = th.Size(theme.SizeNameSelectionRadius)
		if on, ok := l.Highlighted(); ok && on == id {
			ring.Show()
		} else {
			ring.Hide()
		}
		ring.Refresh()
	}
	r.ExtendBaseWidget(r)
	return l
}

// Rows is the list, for its selection and scrolling.
func (l *List) Rows() *widget.List { return &l.rows.List }

// Highlighted is the row the arrow keys are on, and whether the list has
// the keyboard. Fyne keeps both in unexported fields of the list, read
// here alone; it calls UpdateItem for a row each time either changes.
func (l *List) Highlighted() (widget.ListItemID, bool) {
	v := reflect.ValueOf(&l.rows.List).Elem()
	focused, row := v.FieldByName("focused"), v.FieldByName("currentHighlight")
	if focused.Kind() != reflect.Bool || !row.CanInt() || !focused.Bool() {
		return 0, false
	}
	return int(row.Int()), true
}

func (l *List) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(l.rows) }

// AccessibleList is the list held, and what takes the keyboard for it
// (atspi.Listing).
func (l *List) AccessibleList() (*widget.List, fyne.Focusable) { return &l.rows.List, l.rows }

// AccessibleTitle names the list (atspi.Titled).
func (l *List) AccessibleTitle() string { return l.rows.title }

// AccessibleSelected is the row selected (atspi.Selection).
func (l *List) AccessibleSelected() (int, bool) { return l.selected() }

// AccessibilityLabel implements fyne.Accessible: the list's name.
func (l *List) AccessibilityLabel() string { return l.rows.title }

// AccessibilityRole implements fyne.Accessible: it holds its rows.
func (l *List) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleContainer }
