package app

import (
	"net/url"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/wheel"
	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/forms/formview"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/trust"
)

// linkPhase is where a URL request's window is: asking, or after Open link.
type linkPhase int

const (
	linkAsking   linkPhase = iota // Open link, Decline, Cancel
	linkOpening                   // the browser is starting
	linkWaiting                   // the server has not said the step is complete
	linkComplete                  // the server says the step is complete
	linkStale                     // the request no longer waits
)

// linkState is what a URL request's window shows.
type linkState struct {
	phase linkPhase
	// openErr says why the browser did not start: the person copies the
	// link instead, and is told even when the server completes the step.
	openErr error
}

// linkStatus is the sentence under the link after Open link; server is
// the configured server's name as a line.
func linkStatus(s linkState, server string) string {
	failed := ""
	if s.openErr != nil {
		failed = "Could not open the browser: " + s.openErr.Error() + ". "
	}
	switch s.phase {
	case linkOpening:
		return "Opening the browser…"
	case linkWaiting:
		if failed != "" {
			return failed + "Copy the link and open it in a browser yourself; press Done when you have finished."
		}
		return "Waiting for " + server + " to finish. Press Done when you have finished in the browser."
	case linkComplete:
		return failed + server + " says this step is complete."
	}
	return ""
}

// linkWindow asks the person to open a URL-mode request's link. Nothing is
// fetched or opened before they press Open link; after it, the window
// waits for the server to say the step is complete, or for the person's
// Done. Like a form window it says first who asks and what they say, then
// the link.
type linkWindow struct {
	w        fyne.Window
	head     *header
	server   string // the server's name as a line
	state    linkState
	buttons  *fyne.Container
	waiting  *fyne.Container
	status   *widget.Label
	progress *widget.ProgressBarInfinite
	size     *sized
	hold     *keyHold      // nil when the person opened it
	gone     chan struct{} // closed with the window
	closed   bool
}

// newLinkWindow builds the window of a URL request, sized to it and placed
// at.
func (d *Desk) newLinkWindow(r *request, at place, by opener) *linkWindow {
	lw := &linkWindow{w: d.fyne.NewWindow(title(r.Server, r.Params)), gone: make(chan struct{}), server: untrusted.Text(r.Server.Name).Line()}
	lw.head = newHeader(r, d.others(r.Server.Name), lw.close)
	link := trust.InspectLink(r.URL)

	// The same buttons, icons and order as a form window's: Decline,
	// Cancel, then the answer that goes ahead.
	open := widget.NewButtonWithIcon("Open link", theme.ConfirmIcon(), func() {
		if lw.hold.mayAnswer() {
			r.reply(forms.Result{Action: forms.Accept}, func() { lw.open(r, link.URL, d) })
		}
	})
	open.Importance = widget.HighImportance
	if !link.Openable {
		open.Disable()
	}
	copyLink := func() *widget.Button {
		return widget.NewButtonWithIcon("Copy link", theme.ContentCopyIcon(), func() {
			d.fyne.Clipboard().SetContent(string(r.URL)) // the link as sent: pasting it opens what Open link would
		})
	}
	decline := widget.NewButton("Decline", func() {
		if lw.hold.mayAnswer() {
			r.reply(forms.Result{Action: forms.Decline}, lw.close)
		}
	})
	cancel := widget.NewButton("Cancel", func() {
		if lw.hold.mayAnswer() {
			r.reply(forms.Result{Action: forms.Cancel}, lw.close)
		}
	})
	lw.buttons = container.NewVBox(formview.AnswerHelp(), container.NewHBox(copyLink(), layout.NewSpacer(), decline, cancel, open))

	lw.status = widget.NewLabel("")
	lw.status.Wrapping = fyne.TextWrapWord
	done := widget.NewButtonWithIcon("Done", theme.ConfirmIcon(), lw.close)
	done.Importance = widget.HighImportance
	lw.progress = widget.NewProgressBarInfinite()
	lw.waiting = container.NewBorder(nil, nil, nil, container.NewHBox(copyLink(), done), container.NewVBox(lw.progress, lw.status))

	// Who asks and what they say first, scrolled when long; the link,
	// where it leads and its warnings below it, never scrolled away; the
	// buttons always in view.
	said := wheel.NewVScroll(lw.head.object)
	bottom := container.NewVBox(widget.NewSeparator(), linkBox(link), lw.waiting, lw.buttons)
	lw.w.SetContent(container.NewBorder(nil, bottom, nil, nil, said))
	lw.render()
	lw.size = newSized(lw.w, at, linkWidth, func(width, height float32) float32 {
		c := lw.w.Content()
		c.Resize(fyne.NewSize(width, height)) // wraps the texts at width
		return c.MinSize().Height - said.MinSize().Height + said.Content.MinSize().Height
	})
	lw.hold = holdKeys(lw.w, by, d.now, d.guard, func() {})
	lw.w.SetCloseIntercept(func() {
		r.reply(forms.Result{Action: forms.Cancel}, func() {})
		lw.close()
	})
	lw.w.SetOnClosed(func() {
		lw.closed = true
		close(lw.gone)
		d.windowClosed(r)
	})
	lw.w.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if ev.Name == fyne.KeyEscape {
			cancel.OnTapped()
		}
	})
	return lw
}

// linkBox shows the whole link with its domain highlighted, where it
// really leads, and what to beware of.
func linkBox(link trust.Link) fyne.CanvasObject {
	plain := widget.RichTextStyleInline
	domain := widget.RichTextStyleStrong
	domain.Inline = true
	domain.ColorName = theme.ColorNamePrimary
	url := widget.NewRichText(
		&widget.TextSegment{Style: plain, Text: link.Before},
		&widget.TextSegment{Style: domain, Text: link.Domain},
		&widget.TextSegment{Style: plain, Text: link.After},
	)
	url.Wrapping = fyne.TextWrapBreak
	// A long link scrolls in a few lines of its own: the server chose it,
	// and it must not push where it leads out of view.
	urlBox := container.NewVScroll(url)
	urlBox.SetMinSize(fyne.NewSize(0, 3*theme.TextSize()+2*theme.InnerPadding()))
	box := container.NewVBox(widget.NewLabelWithStyle("It asks you to open this link:", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), urlBox)
	if link.Host != "" {
		leads := widget.NewLabel("It leads to " + link.Host + ".")
		leads.Wrapping = fyne.TextWrapBreak
		box.Add(leads)
	}
	for _, w := range link.Warnings {
		box.Add(warning(w))
	}
	if link.Err != nil {
		box.Add(warning("Elicit Desk will not open it: " + link.Err.Error()))
	}
	return box
}

// open starts the browser on u, off the UI goroutine (it may take a while
// to fail), and waits for the server to say the step is complete.
func (lw *linkWindow) open(r *request, u *url.URL, d *Desk) {
	lw.set(linkState{phase: linkOpening})
	go func() {
		err := d.openURL(u)
		if err != nil {
			d.log.Warn("the browser did not open", "err", err)
		}
		d.do(func() {
			s := lw.state
			switch {
			case lw.closed || s.phase == linkStale:
				return
			case s.phase == linkOpening:
				s.phase = linkWaiting
			}
			s.openErr = err
			lw.set(s)
		})
	}()
	go func() {
		select {
		case <-r.completed:
			d.do(func() {
				if s := lw.state; s.phase != linkStale {
					s.phase = linkComplete
					lw.set(s)
				}
			})
		case <-lw.gone:
		}
	}()
}

// set makes s the window's state and shows it.
func (lw *linkWindow) set(s linkState) {
	lw.state = s
	lw.render()
}

// render shows lw.state.
func (lw *linkWindow) render() {
	s := lw.state
	visible(lw.buttons, s.phase == linkAsking)
	visible(lw.waiting, s.phase != linkAsking && s.phase != linkStale)
	busy := s.phase == linkOpening || (s.phase == linkWaiting && s.openErr == nil)
	visible(lw.progress, busy)
	if busy {
		lw.progress.Start()
	} else {
		lw.progress.Stop()
	}
	lw.status.Importance = widget.MediumImportance
	if s.openErr != nil {
		lw.status.Importance = widget.DangerImportance
	}
	lw.status.SetText(linkStatus(s, lw.server))
}

// visible shows or hides o.
func visible(o fyne.CanvasObject, show bool) {
	if show {
		o.Show()
	} else {
		o.Hide()
	}
}

func (lw *linkWindow) show(by opener) { lw.size.show(by) }

func (lw *linkWindow) stale(reason string) {
	lw.set(linkState{phase: linkStale})
	lw.head.showStale(reason)
	closeOnKeys(lw.w.Canvas(), lw.close)
}

func (lw *linkWindow) tick(now time.Time) { lw.head.tick(now) }

func (lw *linkWindow) close() {
	if !lw.closed {
		lw.w.Close()
	}
}
