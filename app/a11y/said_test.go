package a11y

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

func TestSaid(t *testing.T) {
	test.NewTempApp(t)
	hidden := widget.NewLabel("hidden")
	hidden.Hide()
	tests := []struct {
		name string
		o    fyne.CanvasObject
		want []string
	}{
		{"nil", nil, nil},
		{"label", widget.NewLabel("Hello"), []string{"Hello"}},
		{"empty label", widget.NewLabel(""), nil},
		{"container in order", container.NewVBox(widget.NewLabel("a"), container.NewHBox(widget.NewButton("b", nil)), hidden), []string{"a", "b"}},
		{"not inside a widget", container.NewVScroll(widget.NewLabel("inside")), nil},
		{"not an Accessible", widget.NewEntry(), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Said(tt.o); !slices.Equal(got, tt.want) {
				t.Errorf("Said = %q, want %q", got, tt.want)
			}
		})
	}
}
