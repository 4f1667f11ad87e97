package historyview

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/a11y"
	"github.com/elicitdesk/elicitdesk/app/keys"
	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/forms/formview"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/history"
)

// replayHeading heads every Replay window, so none passes for a live
// request.
const replayHeading = "Replay — nothing will be sent to the server"

// replayTitle is a Replay window's title, which the taskbar and Alt-Tab
// show apart from a live request's "… asks".
func replayTitle(e history.Entry) string {
	return "Replay: " + e.Server.CalledShort(titleServer) + " — " + e.Headline(40) + " — Elicit Desk"
}

// titleServer is how many characters of a server's name a Replay title
// shows, as a request window's does: a bridged name may be hundreds.
const titleServer = 24

// replayForm is the entry's form filled in with the answer that was sent,
// as far as the history kept it (secrets are redacted); filled says
// whether any of it was. It is nil when the entry cannot be replayed.
func replayForm(e history.Entry) (f *forms.Form, filled bool) {
	schema := replaySchema(e)
	if schema == nil {
		return nil, false
	}
	f = forms.NewForm(schema)
	if e.Outcome != history.Accepted {
		return f, false
	}
	var values map[string]any
	d := json.NewDecoder(bytes.NewReader(e.Content))
	d.UseNumber()
	if d.Decode(&values) != nil {
		return f, false
	}
	for name, v := range values {
		// The history's text is untrusted: a text field shows it with
		// hidden characters made visible. A choice must stay one offered.
		if text, ok := v.(string); ok && f.Set(name, untrusted.Text(text).Block()) == nil {
			filled = true
		} else if f.Set(name, v) == nil {
			filled = true
		}
	}
	return f, filled
}

// replayNote says what a replay shows: the form as it was asked, with the
// answer sent or as it first showed.
func replayNote(e history.Entry, filled bool) string {
	asked := fmt.Sprintf("The form %s asked on %s", untrusted.Text(e.Server.Name).Line(), e.Received.Local().Format("2006-01-02 15:04"))
	if filled {
		return asked + ", filled in with the answer you sent then. It is read-only."
	}
	return asked + ", as it first showed (" + outcomeLabel(e.Outcome) + "). It is read-only."
}

// replayReview heads a replay's review: its JSON is the answer sent, or
// only the form's first state when none was.
func replayReview(filled bool) string {
	if filled {
		return "What you sent then"
	}
	return "Not sent: the form as it first showed"
}

// replay shows the entry's form again, read-only, in a window of its own
// that says in its title, its heading and its one button that it is a
// replay: it has no Accept, Decline or Cancel, and sends nothing.
func (w *Window) replay(e history.Entry) {
	f, filled := replayForm(e)
	if f == nil {
		return
	}
	rw := w.app.NewWindow(replayTitle(e))
	v := formview.New(f, e.Message, formview.Options{Header: replayBanner(replayNote(e, filled)), Dates: w.opts.Dates, Replay: replayReview(filled)})
	done := look.NewButton("Close replay", theme.CancelIcon(), rw.Close)
	done.Importance = widget.HighImportance
	bar := container.NewHBox(layout.NewSpacer(), done)
	rw.SetContent(a11y.NewDialog(rw.Title, container.NewBorder(nil, bar, nil, nil, v))) // read as it opens: the banner, the form
	rw.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) {
		switch ev.Name {
		case fyne.KeyReturn, fyne.KeyEnter: // its one button
			rw.Close()
		}
	})
	keys.Close(rw, nil)
	// As tall as the form, within the work area: a form of one check box
	// needs a short window, a long one scrolls.
	w.opts.Screen().ShowFitted(rw, 800, func() float32 {
		gap := theme.Padding() // the border layout's, between the form and the bar
		return v.FullHeight() + gap + bar.MinSize().Height
	})
}

// replayBanner is the heading of a Replay window on a tinted band, with
// note under it.
func replayBanner(note string) fyne.CanvasObject {
	heading := widget.NewLabelWithStyle(replayHeading, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	heading.Wrapping = fyne.TextWrapWord
	text := widget.NewLabel(note)
	text.Wrapping = fyne.TextWrapWord
	r, g, b, _ := theme.Color(theme.ColorNameWarning).RGBA()
	band := canvas.NewRectangle(color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 0x40})
	band.CornerRadius = theme.InputRadiusSize()
	body := container.NewBorder(nil, nil, widget.NewIcon(theme.MediaReplayIcon()), nil, container.NewVBox(heading, text))
	return container.NewStack(band, container.NewPadded(body))
}
