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
	l := NewList("Servers", func() int { return 2 }, func() fyne.CanvasObject { return widget.NewLabel("") }, func(widget.ListItemID, fyne.CanvasObject) {},
		func() (widget.ListItemID, bool) { return 1, true })
	s := NewStatus()
	s.SetText("The link is copied.")
	q := NewDialog(func() string { return "Quit Elicit Desk?" }, widget.NewLabel("2 requests wait."))
	_, keyboard := l.AccessibleList()
	a11ytest.Check(t, ".", l, keyboard.(fyne.CanvasObject), s, q)
	if q.AccessibilityLabel() != "Quit Elicit Desk?" {
		t.Errorf("the dialog is called %q", q.AccessibilityLabel())
	}
	list, _ := l.AccessibleList()
	if row, ok := l.AccessibleSelected(); l.AccessibleTitle() != "Servers" || list != l.Rows() || keyboard == nil || row != 1 || !ok {
		t.Errorf("the list says %q, %v, %v, row %d %v", l.AccessibleTitle(), list, keyboard, row, ok)
	}
}

// TestListRing draws the row the arrow keys are on with a ring in the
// text's colour while the list has the keyboard, on that row alone, and
// none once the keyboard leaves; Highlighted says the same.
func TestListRing(t *testing.T) {
	test.NewTempApp(t)
	names := []string{"alpha", "beta", "gamma"}
	l := NewList("Servers", func() int { return len(names) }, func() fyne.CanvasObject { return widget.NewLabel("") },
		func(i widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(names[i]) },
		func() (widget.ListItemID, bool) { return 0, false })
	_, keyboard := l.AccessibleList()
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
	w.Canvas().Focus(keyboard)
	for _, step := range []struct {
		key  fyne.KeyName
		want string
	}{{"", "alpha"}, {fyne.KeyDown, "beta"}, {fyne.KeyDown, "gamma"}, {fyne.KeyUp, "beta"}} {
		if step.key != "" {
			keyboard.TypedKey(&fyne.KeyEvent{Name: step.key})
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

// TestListPassesWindowKeys: the keys a list has no use for reach its
// window's own handler (Escape closes History, F1 opens Help) while the
// list has the keyboard; its arrows and Space stay the list's.
func TestListPassesWindowKeys(t *testing.T) {
	test.NewTempApp(t)
	names := []string{"alpha", "beta"}
	selected := -1
	l := NewList("Requests", func() int { return len(names) }, func() fyne.CanvasObject { return widget.NewLabel("") },
		func(i widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(names[i]) },
		func() (widget.ListItemID, bool) { return selected, selected >= 0 })
	l.Rows().OnSelected = func(i widget.ListItemID) { selected = i }
	_, keyboard := l.AccessibleList()
	w := test.NewWindow(l)
	w.Resize(fyne.NewSize(300, 300))
	var got []fyne.KeyName
	w.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) { got = append(got, ev.Name) })
	w.Canvas().Focus(keyboard)
	for _, k := range []fyne.KeyName{fyne.KeyEscape, fyne.KeyDown, fyne.KeyF1, fyne.KeySpace, fyne.KeyPageDown, fyne.KeyEnd} {
		w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: k})
	}
	if want := []fyne.KeyName{fyne.KeyEscape, fyne.KeyF1, fyne.KeyPageDown, fyne.KeyEnd}; !slices.Equal(got, want) {
		t.Errorf("the window got %v, want %v", got, want)
	}
	if selected != 1 {
		t.Errorf("Down, then Space selected row %d, want 1", selected)
	}
}
