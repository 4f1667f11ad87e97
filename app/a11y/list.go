package a11y

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// List holds a Fyne list and says what a screen reader needs of it and
// Fyne keeps to itself: a name, and which row is selected. It holds the
// list rather than embed it: Fyne makes a list's rows under the list's
// own theme scope, which an embedding type would break.
type List struct {
	widget.BaseWidget
	list     *widget.List
	title    string
	selected func() (widget.ListItemID, bool)
}

// NewList shows list, named title; selected says which row is selected,
// if one is.
func NewList(title string, list *widget.List, selected func() (widget.ListItemID, bool)) *List {
	l := &List{list: list, title: title, selected: selected}
	l.ExtendBaseWidget(l)
	return l
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
