package formview

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// boxFirst lays out a check box before its label: the box as tall as a
// line of input, at the top, and the label's text block beside it, its
// first line centred on the box.
type boxFirst struct{}

func (boxFirst) MinSize(objects []fyne.CanvasObject) fyne.Size {
	box, text := objects[0].MinSize(), objects[1].MinSize()
	return fyne.NewSize(box.Width+text.Width, max(box.Height, line(), text.Height+trim()))
}

func (l boxFirst) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	box := objects[0].MinSize()
	objects[0].Move(fyne.NewPos(0, 0))
	objects[0].Resize(fyne.NewSize(box.Width, max(box.Height, line())))
	objects[1].Move(fyne.NewPos(box.Width, 0))
	objects[1].Resize(fyne.NewSize(size.Width-box.Width, size.Height))
}

// tapArea is content that runs onTap when clicked: a check box's label.
type tapArea struct {
	widget.BaseWidget
	content fyne.CanvasObject
	onTap   func()
}

func newTapArea(content fyne.CanvasObject, onTap func()) *tapArea {
	t := &tapArea{content: content, onTap: onTap}
	t.ExtendBaseWidget(t)
	return t
}

// CreateRenderer implements fyne.Widget.
func (t *tapArea) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(t.content) }

// Tapped implements fyne.Tappable.
func (t *tapArea) Tapped(*fyne.PointEvent) { t.onTap() }

// Cursor shows the pointer is over something to click.
func (t *tapArea) Cursor() desktop.Cursor { return desktop.PointerCursor }
