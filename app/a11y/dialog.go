package a11y

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// Dialog is the content of a window that asks the person something (a
// question of the app's, a server's request) or shows one again (a
// replay): AT-SPI shows the window as a dialog (atspi.Dialog), whose
// words a screen reader reads as it opens, not only its title and the
// control that has the keyboard.
type Dialog struct {
	widget.BaseWidget
	name    func() string     // what it asks, kept up to date (the quit question's count)
	Content fyne.CanvasObject // exported: what a screen reader reads inside
}

// NewDialog holds content; name says what it asks.
func NewDialog(name func() string, content fyne.CanvasObject) *Dialog {
	d := &Dialog{name: name, Content: content}
	d.ExtendBaseWidget(d)
	return d
}

func (d *Dialog) CreateRenderer() fyne.WidgetRenderer {
	// At its top left: content that was a padded window's own, as a form
	// window's is before it is wrapped, keeps the padding's offset, which
	// the simple renderer never undoes; the form then ran past the window's
	// right and bottom edges by as much.
	d.Content.Move(fyne.NewPos(0, 0))
	return widget.NewSimpleRenderer(d.Content)
}

// AccessibleDialog implements atspi.Dialog.
func (d *Dialog) AccessibleDialog() {}

// AccessibilityLabel implements fyne.Accessible: what the window asks,
// which names its content where Fyne's bridges read it.
func (d *Dialog) AccessibilityLabel() string { return d.name() }

// AccessibilityRole implements fyne.Accessible: it holds the question's
// words and buttons.
func (d *Dialog) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleContainer }
