package formview

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/forms"
)

// AnswerHelp says what Decline and Cancel tell the server, in small muted
// text no taller than the buttons: every window offering those buttons
// shows it beside them, alike.
func AnswerHelp() fyne.CanvasObject {
	h := widget.NewLabel(forms.DeclineHelp + "\n" + forms.CancelHelp)
	h.Wrapping = fyne.TextWrapWord
	h.Importance = widget.LowImportance
	h.SizeName = theme.SizeNameCaptionText
	return container.New(snug{}, h)
}
