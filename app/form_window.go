package app

import (
	"time"

	"fyne.io/fyne/v2"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/forms/formview"
)

// formWindow asks the person to fill in a form-mode request.
type formWindow struct {
	w      fyne.Window
	head   *header
	view   *formview.View
	closed bool
}

// newFormWindow builds the window of a form request, from the schema
// parsed when the request arrived.
func (d *Desk) newFormWindow(r *request) *formWindow {
	fw := &formWindow{w: d.fyne.NewWindow(title(r.Elicitation))}
	fw.head = newHeader(r.Elicitation, d.others(r.Server.Name), fw.close)
	fw.view = formview.New(forms.NewForm(r.Form), "", formview.Options{Header: fw.head.object})
	fw.view.OnResult = func(res forms.Result) {
		if r.reply(res) {
			fw.close()
		}
	}
	fw.view.Install(fw.w)
	fw.w.SetContent(capped(fw.w.Content()))
	fw.view.FocusFirst(fw.w.Canvas()) // a new content has no focus
	fw.w.SetOnClosed(func() {
		fw.closed = true
		d.windowClosed(r)
	})
	fw.w.Resize(fit(fyne.NewSize(820, 640)))
	return fw
}

func (fw *formWindow) show() {
	fw.w.Show()
	fw.w.RequestFocus()
}

func (fw *formWindow) stale(reason string) {
	fw.view.Freeze()
	fw.head.showStale(reason)
	fw.w.Canvas().SetOnTypedKey(closeOnKeys(fw.close))
}

// closeOnKeys lets Escape or Enter close a window with nothing left to
// answer.
func closeOnKeys(close func()) func(*fyne.KeyEvent) {
	return func(ev *fyne.KeyEvent) {
		switch ev.Name {
		case fyne.KeyEscape, fyne.KeyReturn, fyne.KeyEnter:
			close()
		}
	}
}

func (fw *formWindow) close() {
	if !fw.closed {
		fw.w.Close()
	}
}

func (fw *formWindow) tick(now time.Time) { fw.head.tick(now) }
