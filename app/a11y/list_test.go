package a11y

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/a11y/a11ytest"
)

func TestWidgetsAccessible(t *testing.T) {
	test.NewTempApp(t)
	list := widget.NewList(func() int { return 2 }, func() fyne.CanvasObject { return widget.NewLabel("") }, func(widget.ListItemID, fyne.CanvasObject) {})
	l := NewList("Servers", list, func() (widget.ListItemID, bool) { return 1, true })
	s := NewStatus()
	s.SetText("The link is copied.")
	q := NewDialog(func() string { return "Quit Elicit Desk?" }, widget.NewLabel("2 requests wait."))
	a11ytest.Check(t, ".", l, s, q)
	if q.AccessibilityLabel() != "Quit Elicit Desk?" {
		t.Errorf("the dialog is called %q", q.AccessibilityLabel())
	}
	if row, ok := l.AccessibleSelected(); l.AccessibleTitle() != "Servers" || l.AccessibleList() != list || row != 1 || !ok {
		t.Errorf("the list says %q, %v, row %d %v", l.AccessibleTitle(), l.AccessibleList(), row, ok)
	}
}

// TestListRing draws the row the arrow keys are on with a ring in the
// text's colour while the list has the keyboard, on that row alone, and
// none once the keyboard leaves; Highlighted says the same.
func TestListRing(t *testing.T) {
	test.NewTempApp(t)
	names := []string{"alpha", "beta", "gamma"}
	list := widget.NewList(func() int { return len(names) }, func() fyne.CanvasObject { return widget.NewLabel("") },
		func(i widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(names[i]) })
	l := NewList("Servers", list, func() (widget.ListItemID, bool) { return 0, false })
	other := widget.NewEntry()
	w := test.NewWindow(container.NewBorder(other, nil, nil, nil, l))
	w.Resize(fyne.NewSize(300, 400))
	ringed := func() []string {
		var on []string
		for _, o := range test.LaidOutObjects(w.Content()) {
			row, ok := o.(*fyne.Container)
			if !ok || len(row.Objects) != 2 {
				continue
			}
			label, isLabel := row.Objects[0].(*widget.Label)
			ring, isRing := row.Objects[1].(*canvas.Rectangle)
			if isLabel && isRing && ring.Visible() {
				if ring.StrokeColor != theme.Color(theme.ColorNameForeground) || ring.StrokeWidth < 2 {
					t.Errorf("%s's ring is %v, %v wide: want the text's colour", label.Text, ring.StrokeColor, ring.StrokeWidth)
				}
				on = append(on, label.Text)
			}
		}
		return on
	}
	w.Canvas().Focus(list)
	for _, step := range []struct {
		key  fyne.KeyName
		want string
	}{{"", "alpha"}, {fyne.KeyDown, "beta"}, {fyne.KeyDown, "gamma"}, {fyne.KeyUp, "beta"}} {
		if step.key != "" {
			list.TypedKey(&fyne.KeyEvent{Name: step.key})
		}
		if got := ringed(); !slices.Equal(got, []string{step.want}) {
			t.Errorf("after %q the ring is on %v, want %s", step.key, got, step.want)
		}
		if row, ok := l.Highlighted(); !ok || names[row] != step.want {
			t.Errorf("after %q Highlighted says %d, %v", step.key, row, ok)
		}
	}
	w.Canvas().Focus(other)
	if got := ringed(); len(got) != 0 {
		t.Errorf("with the keyboard elsewhere the ring is on %v", got)
	}
	if _, ok := l.Highlighted(); ok {
		t.Error("Highlighted says the list has the keyboard")
	}
}
