package historyview

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/a11y"
	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/history"
)

// detail is the pane showing the selected entry. The message and every
// other text are plain labels: nothing a server sent is read as markup or
// turned into a link.
type detail struct {
	object fyne.CanvasObject
	empty  *widget.Label
	body   fyne.CanvasObject

	identity, message, mode, outcome, times *widget.Label
	request, response                       *widget.Label
	copy, replay                            *look.Button
	copied                                  *a11y.Status // says Copy as JSON did, seen and heard

	entry history.Entry
}

func newDetail(w *Window) *detail {
	d := &detail{
		empty:    widget.NewLabel("Select a request to see it here."),
		identity: plainLabel(),
		message:  plainLabel(),
		mode:     plainLabel(),
		outcome:  plainLabel(),
		times:    plainLabel(),
		request:  jsonLabel(),
		response: jsonLabel(),
	}
	d.copied = a11y.NewStatus()
	d.copied.Wrapping = fyne.TextWrapOff
	d.copied.Importance = widget.LowImportance
	d.copy = look.NewButton("Copy as JSON", theme.ContentCopyIcon(), func() {
		w.app.Clipboard().SetContent(entryJSON(d.entry))
		d.copied.SetText("Copied.")
	})
	d.replay = look.NewButton("Replay", theme.MediaReplayIcon(), func() { w.replay(d.entry) })
	form := widget.NewForm(
		widget.NewFormItem("Server", d.identity),
		widget.NewFormItem("Message", d.message),
		widget.NewFormItem("Mode", d.mode),
		widget.NewFormItem("Outcome", d.outcome),
		widget.NewFormItem("Times", d.times),
	)
	d.body = container.NewVBox(
		container.NewHBox(d.copy, d.replay, d.copied),
		form,
		widget.NewLabelWithStyle("Request", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		d.request,
		widget.NewLabelWithStyle("Response", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		d.response,
	)
	d.body.Hide()
	d.object = container.NewVScroll(container.NewStack(d.empty, d.body))
	return d
}

// plainLabel shows text as it is, wrapped, and lets the person select it.
func plainLabel() *widget.Label {
	l := widget.NewLabel("")
	l.Wrapping = fyne.TextWrapWord
	l.Selectable = true
	return l
}

// jsonLabel shows JSON in a fixed-width font, read-only and selectable.
func jsonLabel() *widget.Label {
	l := widget.NewLabel("")
	l.TextStyle = fyne.TextStyle{Monospace: true}
	l.Wrapping = fyne.TextWrapBreak // long strings must not widen the pane
	l.Selectable = true
	return l
}

// detailAtMost bounds, in characters, each text the pane lays out: Fyne
// wraps slowly (the 64 KB the history keeps of a message took 1.7 s to
// show), and nobody reads that much here.
const detailAtMost = 4000

// bounded is text cut to detailAtMost characters for display, saying so.
func bounded(text string) string {
	head, cut := untrusted.Fold(text, detailAtMost)
	if cut {
		head += "\n\n[Cut here for display. Copy as JSON copies all that the history keeps.]"
	}
	return head
}

// show fills the pane with e.
func (d *detail) show(e history.Entry) {
	if e.ID != d.entry.ID {
		d.copied.SetText("")
	}
	d.entry = e
	// Everything here came from a server: shown as plain text with hidden
	// characters made visible, as in the request window.
	d.identity.SetText(identityText(e.Server))
	d.message.SetText(bounded(e.Message.Block()))
	d.mode.SetText(untrusted.Text(string(e.Mode)).Block())
	d.outcome.SetText(untrusted.Text(outcomeText(e)).Block())
	d.times.SetText(timesText(e))
	// untrusted.JSON: hidden characters escaped, the JSON still the same.
	d.request.SetText(bounded(untrusted.JSON([]byte(indented(e.Request())))))
	d.response.SetText(bounded(untrusted.JSON([]byte(indented(e.Response())))))
	if replaySchema(e) != nil {
		d.replay.Enable()
	} else {
		d.replay.Disable()
	}
	d.empty.Hide()
	d.body.Show()
	d.object.Refresh() // the texts changed size: lay the pane out again
}

// clear empties the pane when nothing is selected.
func (d *detail) clear() {
	d.entry = history.Entry{}
	d.body.Hide()
	d.empty.Show()
}
