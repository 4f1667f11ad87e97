package hostsview

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/modal"
)

// tell shows text over win with one button that closes it, then runs then.
func tell(win fyne.Window, title, text string, then func()) {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	var hide func()
	ok := widget.NewButton("OK", func() {
		hide()
		if then != nil {
			then()
		}
	})
	ok.Importance = widget.HighImportance
	hide = modal.Show(win.Canvas(), title, container.NewVScroll(l), fyne.NewSize(520, 240), ok)
}
