package app

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// quitQuestion is what closing the Servers window asks when it would quit
// the app with requests waiting; "" when nothing waits and it just quits.
func quitQuestion(waiting int) string {
	switch waiting {
	case 0:
		return ""
	case 1:
		return "A request is waiting for your answer. Quitting cancels it and Elicit Desk stops taking requests."
	}
	return fmt.Sprintf("%d requests are waiting for your answer. Quitting cancels them and Elicit Desk stops taking requests.", waiting)
}

// closeWithoutTray is closing the Servers window where it stands in for
// the tray: closing it quits, so it asks first while requests wait.
func (d *Desk) closeWithoutTray() {
	q := quitQuestion(d.pending())
	if q == "" {
		d.quit()
		return
	}
	if d.asking != nil {
		return // already asking
	}
	text := widget.NewLabel(q)
	text.Wrapping = fyne.TextWrapWord
	keep := widget.NewButton("Keep running", d.keepRunning)
	keep.Importance = widget.HighImportance
	quit := widget.NewButtonWithIcon("Quit", theme.LogoutIcon(), func() {
		d.keepRunning()
		d.quit()
	})
	quit.Importance = widget.DangerImportance
	body := container.NewBorder(
		widget.NewLabelWithStyle("Quit Elicit Desk?", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		container.NewHBox(layout.NewSpacer(), quit, keep), nil, nil, text)
	d.asking = widget.NewModalPopUp(container.NewPadded(body), d.serversWin.Window().Canvas())
	d.asking.Resize(fyne.NewSize(460, 200))
	d.asking.Show()
}

// keepRunning puts the question away.
func (d *Desk) keepRunning() {
	if d.asking != nil {
		d.asking.Hide()
		d.asking = nil
	}
}

// serversKeys handles keys the Servers window's widgets leave: Escape
// puts the quit question away and never quits, wherever it came from.
func (d *Desk) serversKeys(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape {
		d.keepRunning()
	}
}
