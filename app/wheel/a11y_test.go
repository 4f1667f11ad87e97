package wheel

import (
	"testing"

	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/a11y/a11ytest"
)

func TestAccessible(t *testing.T) {
	test.NewTempApp(t)
	s := NewVScroll(container.NewVBox(widget.NewLabel("First"), widget.NewButton("Open link", nil)))
	a11ytest.Check(t, ".", s)
	if got, want := s.AccessibilityLabel(), "First\nOpen link"; got != want {
		t.Errorf("label = %q, want %q", got, want)
	}
	if got := NewVScroll(container.NewVBox()).AccessibilityLabel(); got == "" {
		t.Error("an empty scroll has no label")
	}
}
