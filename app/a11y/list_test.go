package a11y

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/a11y/a11ytest"
)

func TestWidgetsAccessible(t *testing.T) {
	test.NewTempApp(t)
	list := widget.NewList(func() int { return 2 }, func() fyne.CanvasObject { return widget.NewLabel("") }, func(widget.ListItemID, fyne.CanvasObject) {})
	l := NewList("Servers", list, func() (widget.ListItemID, bool) { return 1, true })
	s := NewStatus()
	s.SetText("The link is copied.")
	a11ytest.Check(t, ".", l, s)
	if row, ok := l.AccessibleSelected(); l.AccessibleTitle() != "Servers" || l.AccessibleList() != list || row != 1 || !ok {
		t.Errorf("the list says %q, %v, row %d %v", l.AccessibleTitle(), l.AccessibleList(), row, ok)
	}
}
