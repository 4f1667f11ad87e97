package app

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"github.com/elicitdesk/elicitdesk/app/a11y"
	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/forms/formview"
)

// formWindow asks the person to fill in a form-mode request.
type formWindow struct {
	w      fyne.Window
	head   *header
	view   *formview.View
	size   *sized
	hold   *keyHold // nil when the person opened it
	closed bool
}

// newFormWindow builds the window of a form request, from the schema
// parsed when the request arrived, sized to it and placed at. A window the
// app opens by itself holds the keyboard until the person takes it.
func (d *Desk) newFormWindow(r *request, at place, by opener) *formWindow {
	fw := &formWindow{w: d.fyne.NewWindow(r.title)}
	fw.head = newHeader(r, d.others(r.Server.Name), fw.close)
	header := container.NewVBox(r.more.box, fw.head.object)
	fw.view = formview.New(forms.NewForm(r.Form), "", formview.Options{Header: header, Dates: d.opts.Dates,
		MayAnswer: func() bool { return fw.hold.mayAnswer() },
		Grow: func(dh float32) {
			if fw.size != nil {
				fw.size.grow(dh)
			}
		}})
	fw.view.OnResult = func(res forms.Result) {
		if !fw.hold.mayAnswer() {
			return // a click or a key aimed at what was there before the window
		}
		r.reply(res, fw.close)
	}
	fw.view.Install(fw.w)
	// A server asks the person: AT-SPI shows the window as a dialog, whose
	// words a screen reader reads as it opens (who asks, their warnings,
	// the message), not only its title and the field with the keyboard.
	fw.w.SetContent(a11y.NewDialog(fw.w.Title, fw.w.Content()))
	fw.size = newSized(fw.w, at, formWidth, func(width, height float32) float32 {
		fw.w.Content().Resize(fyne.NewSize(width, height)) // wraps the texts at width
		return fw.view.FullHeight()
	})
	r.more.toggled = fw.size.grow
	if by == byPerson {
		fw.view.FocusFirst(fw.w.Canvas()) // a new content has no focus
	}
	fw.hold = holdKeys(fw.w, by, d.now, d.lastClosed, d.guard, func() { fw.view.FocusFirst(fw.w.Canvas()) }, fw.size.grow)
	fw.w.SetOnClosed(func() {
		fw.closed = true
		d.windowClosed(r)
	})
	return fw
}

func (fw *formWindow) show(by opener) { fw.size.show(by) }

func (fw *formWindow) stale(reason string) {
	fw.view.Freeze()
	fw.head.showStale(reason, fw.size.grow)
	fw.size.calm()
	closeOnKeys(fw.w.Canvas(), fw.close)
}

// closeOnKeys lets Escape or Enter close a window with nothing left to
// answer. Nothing keeps the keyboard: a frozen field or a hidden button
// would keep those keys to itself.
func closeOnKeys(c fyne.Canvas, close func()) {
	c.Unfocus()
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) {
		switch ev.Name {
		case fyne.KeyEscape, fyne.KeyReturn, fyne.KeyEnter:
			close()
		}
	})
}

func (fw *formWindow) close() {
	if !fw.closed {
		fw.w.Close()
	}
}

func (fw *formWindow) tick(now time.Time) { fw.head.tick(now) }
