package a11y

import (
	"image/color"
	"reflect"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// List holds a Fyne list and says what a screen reader needs of it and
// Fyne keeps to itself: a name, which row is selected, and which row the
// arrow keys are on. It draws that row with a ring in the text's colour:
// Fyne only tints it with the hover colour, about 1.1:1 on white, and not
// at all on a selected row. It holds the list rather than embed it: Fyne
// makes a list's rows under the list's own theme scope, which an
// embedding type would break.
type List struct {
	widget.BaseWidget
	list     *widget.List
	title    string
	selected func() (widget.ListItemID, bool)
}

// NewList shows list, named title; selected says which row is selected,
// if one is. Call it once list's CreateItem and UpdateItem are set: it
// wraps each row to draw the ring.
func NewList(title string, list *widget.List, selected func() (widget.ListItemID, bool)) *List {
	l := &List{list: list, title: title, selected: selected}
	l.ExtendBaseWidget(l)
	create, update := list.CreateItem, list.UpdateItem
	list.CreateItem = func() fyne.CanvasObject {
		ring := canvas.NewRectangle(color.Transparent)
		ring.StrokeWidth = 2
		ring.Hide()
		return container.NewStack(create(), ring)
	}
	list.UpdateItem = func(id widget.ListItemID, o fyne.CanvasObject) {
		row := o.(*fyne.Container)
		update(id, row.Objects[0])
		ring := row.Objects[1].(*canvas.Rectangle)
		th := list.Theme()
		ring.StrokeColor = th.Color(theme.ColorNameForeground, fyne.CurrentApp().Settings().ThemeVariant())
		ring.CornerRadius = th.Size(theme.SizeNameSelectionRadius)
		if on, ok := l.Highlighted(); ok && on == id {
			ring.Show()
		} else {
			ring.Hide()
		}
		ring.Refresh()
	}
	return l
}

// Highlighted is the row the arrow keys are on, and whether the list has
// the keyboard. Fyne keeps both in unexported fields of the list, read
// here alone; it calls UpdateItem for a row each time either changes.
func (l *List) Highlighted() (widget.ListItemID, bool) {
	v := reflect.ValueOf(l.list).Elem()
	focused, row := v.FieldByName("focused"), v.FieldByName("currentHighlight")
	if focused.Kind() != reflect.Bool || !row.CanInt() || !focused.Bool() {
		return 0, false
	}
	return int(row.Int()), true
}

func (l *List) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(l.list) }

// AccessibleList is the list held (atspi.Listing).
func (l *List) AccessibleList() *widget.List { return l.list }

// AccessibleTitle names the list (atspi.Titled).
func (l *List) AccessibleTitle() string { return l.title }

// AccessibleSelected is the row selected (atspi.Selection).
func (l *List) AccessibleSelected() (int, bool) { return l.selected() }

// AccessibilityLabel implements fyne.Accessible: the list's name.
func (l *List) AccessibilityLabel() string { return l.title }

// AccessibilityRole implements fyne.Accessible: it holds its rows.
func (l *List) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleContainer }
