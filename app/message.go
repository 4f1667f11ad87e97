package app

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

const (
	// foldAt is how much of a message shows before "Show more".
	foldAt = 600
	// showAtMost bounds what "Show more" lays out: a megabyte of wrapped
	// text would freeze the window, and nobody reads that much.
	showAtMost = 64 << 10
)

// questionSize is the size of a request's message, the question: nothing
// in its window is drawn larger (the form's review heading is as large).
const questionSize = theme.SizeNameSubHeadingText

// newMessageBox shows a server's message as plain, untrusted text: no
// links, no markup, hidden characters made visible, long text folded.
func newMessageBox(message untrusted.Text) fyne.CanvasObject {
	text := message.Block()
	head, folded := untrusted.Fold(text, foldAt)
	label := widget.NewLabel(head)
	label.Wrapping = fyne.TextWrapWord
	label.TextStyle = fyne.TextStyle{Bold: true}
	label.SizeName = questionSize // the primary text of the window
	// Not selectable: a selectable label is a Tab stop that shows no focus,
	// the first one of the window, before the form's first field. History
	// keeps the message to copy, and a long one has Copy message here.
	if !folded {
		return label
	}
	full, cut := untrusted.Fold(text, showAtMost)
	if cut {
		full += fmt.Sprintf("\n\n[The message is %s; the rest is not shown. Copy message copies all of it.]", size(len(message)))
	}
	box := container.NewVBox(label)
	var more *look.Button
	more = look.NewButton("Show more", nil, func() {
		if more.Text == "Show more" {
			label.SetText(full)
			more.SetText("Show less")
		} else {
			label.SetText(head)
			more.SetText("Show more")
		}
	})
	more.Importance = widget.LowImportance
	copyAll := look.NewButton("Copy message", nil, func() {
		fyne.CurrentApp().Clipboard().SetContent(text)
	})
	copyAll.Importance = widget.LowImportance
	box.Add(container.NewHBox(more, copyAll))
	return box
}

// size renders a byte count for people.
func size(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
