package wheel

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
)

// Fyne scrolls nothing into view as the focus moves: a form that scrolls
// has its fields call these as they take the keyboard, so that Tab never
// leaves the focus out of sight.

// Span is where o, inside s's content, lies: from its top to its bottom.
func Span(s *container.Scroll, o fyne.CanvasObject) (top, bottom float32) {
	d := fyne.CurrentApp().Driver()
	top = d.AbsolutePositionForObject(o).Y - d.AbsolutePositionForObject(s.Content).Y
	return top, top + o.Size().Height
}

// Reveal scrolls s as little as it can so that [top, bottom) of its
// content shows with padding around it: not at all when it shows already.
func Reveal(s *container.Scroll, top, bottom float32) {
	at := scrollToShow(s.Offset.Y, s.Size().Height, s.Content.Size().Height, top, bottom, theme.Padding())
	if at != s.Offset.Y {
		s.ScrollToOffset(fyne.NewPos(0, at))
	}
}

// scrollToShow returns the offset at which a vertical scroll, view tall
// over content of the given height, shows [top, bottom) of its content
// with margin around it, moving from offset as little as it can: not at
// all when the span shows already. A span taller than the view shows from
// its top.
func scrollToShow(offset, view, content, top, bottom, margin float32) float32 {
	if view <= 0 {
		return offset
	}
	top, bottom = max(0, top-margin), min(content, bottom+margin)
	switch {
	case top < offset || bottom-top > view:
		offset = top
	case bottom > offset+view:
		offset = bottom - view
	}
	return max(0, min(offset, content-view))
}
