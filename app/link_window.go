package app

import (
	"net/url"
	"slices"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/a11y"
	"github.com/elicitdesk/elicitdesk/app/look"
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
	linkOpening                   // the browser is starting; nothing sent yet
	linkFailed                    // the browser did not open; nothing sent: Copy link, Decline, Cancel, I opened it
	linkWaiting                   // accepted: the server has not said the step is complete
	linkComplete                  // the server says the step is complete
	linkGone                      // accepted, but the server went away before it said the step was complete
	linkStale                     // the request no longer waits
)

// linkState is what a URL request's window shows.
type linkState struct {
	phase linkPhase
	// openErr says why the browser did not start (linkFailed).
	openErr error
	// copied is whether Copy link copied it, which the window says while
	// asking, or once the browser did not open.
	copied bool
}

// linkLook is what a linkState shows: which parts are visible, and the
// sentence under the link.
type linkLook struct {
	answers bool // Copy link, Decline, Cancel
	open    bool // Open link, among the answers
	opened  bool // I opened it, among the answers: the person opened the copied link
	after   bool // Copy link beside the status, after Open link
	done    bool // Done, beside it
	busy    bool // the progress bar
	failed  bool // the status says what went wrong
	status  string
}

// linkLookOf is what s shows; server is the configured server's name as a
// line. Accept is sent only once the browser opened: when it did not, the
// person still has the link to copy and open themselves, then say so (I
// opened it), and both other answers.
func linkLookOf(s linkState, server string) linkLook {
	switch s.phase {
	case linkAsking:
		if s.copied {
			return linkLook{answers: true, open: true, status: "The link is copied."}
		}
		return linkLook{answers: true, open: true}
	case linkOpening:
		return linkLook{after: true, busy: true, status: "Opening the browser…"}
	case linkFailed:
		then := "You can copy the link, open it yourself, and then press I opened it."
		if s.copied {
			then = "The link is copied: open it yourself, and then press I opened it."
		}
		return linkLook{answers: true, opened: true, failed: true,
			status: "The browser did not open (" + s.openErr.Error() + "), so nothing was sent to " + server + ". " + then}
	case linkWaiting:
		return linkLook{after: true, done: true, busy: true,
			status: "Waiting for " + server + " to finish. Press Done when you have finished in the browser."}
	case linkComplete:
		return linkLook{after: true, done: true, status: server + " says this step is complete."}
	case linkGone:
		return linkLook{after: true, done: true, failed: true,
			status: server + " went away before it said this step was complete: what you did in the browser may not have reached it."}
	}
	return linkLook{}
}

// linkWindow asks the person to open a URL-mode request's link. Nothing is
// fetched or opened before they press Open link, and the server hears
// Accept only once the browser opened; after it, the window waits for the
// server to say the step is complete, or for the person's Done. Like a form window it says first who asks and what they say, then
// the link.
type linkWindow struct {
	w       fyne.Window
	head    *header
	server  string // the server's name as a line
	state   linkState
	buttons *fyne.Container // the answers, under their help
	// answerRow holds the answers' buttons, which buttons hides with it.
	answerRow *fyne.Container
	// keysPassed: the keyboard was on a button the state hid, and goes to
	// the next that shows (passKeys).
	keysPassed bool
	openB      *look.Button
	openedB    *look.Button    // I opened it, when the browser did not open
	after      *fyne.Container // Copy link and Done, after Open link
	doneB      *look.Button
	status     *a11y.Status
	progress   *widget.ProgressBarInfinite
	size       *sized
	hold       *keyHold      // nil when the person opened it
	gone       chan struct{} // closed with the window
	closed     bool
}

// newLinkWindow builds the window of a URL request, sized to it and placed
// at.
func (d *Desk) newLinkWindow(r *request, at place, by opener) *linkWindow {
	lw := &linkWindow{w: d.fyne.NewWindow(r.title), gone: make(chan struct{}), server: untrusted.Text(r.Server.Name).Line()}
	lw.head = newHeader(r, d.others(r.Server.Name), lw.close)
	link := trust.InspectLink(r.URL)

	// The same buttons, icons and order as a form window's: Decline,
	// Cancel, then the answer that goes ahead.
	lw.openB = look.NewButton("Open link", theme.ConfirmIcon(), func() {
		if lw.hold.mayAnswer() && !r.ended {
			lw.open(r, link.URL, d)
		}
	})
	// A link with a warning is opened on purpose only: not the default,
	// and Enter does not press it.
	warned := len(link.Warnings) > 0
	if !warned {
		lw.openB.Importance = widget.HighImportance
	}
	if !link.Openable {
		lw.openB.Disable()
	}
	copyLink := func() *look.Button {
		return look.NewButton("Copy link", theme.ContentCopyIcon(), func() {
			d.fyne.Clipboard().SetContent(string(r.URL)) // the link as sent: pasting it opens what Open link would
			if s := lw.state; s.phase == linkAsking || s.phase == linkFailed {
				s.copied = true
				lw.set(s)
			}
		})
	}
	decline := look.NewButton("Decline", nil, func() {
		if lw.hold.mayAnswer() {
			r.reply(forms.Result{Action: forms.Decline}, lw.close)
		}
	})
	cancel := look.NewButton("Cancel", nil, func() {
		if lw.hold.mayAnswer() {
			r.reply(forms.Result{Action: forms.Cancel}, lw.close)
		}
	})
	lw.openedB = look.NewButton("I opened it", theme.ConfirmIcon(), func() {
		if lw.hold.mayAnswer() && !r.ended && lw.state.phase == linkFailed {
			lw.accepted(r, d)
		}
	})
	lw.openedB.Importance = widget.HighImportance
	lw.answerRow = container.NewHBox(copyLink(), layout.NewSpacer(), decline, cancel, lw.openB, lw.openedB)
	lw.buttons = container.NewVBox(formview.AnswerHelp(), lw.answerRow)

	lw.status = a11y.NewStatus()
	lw.doneB = look.NewButton("Done", theme.ConfirmIcon(), lw.close)
	lw.doneB.Importance = widget.HighImportance
	lw.progress = widget.NewProgressBarInfinite()
	lw.after = container.NewCenter(container.NewHBox(copyLink(), lw.doneB)) // at their height, beside a taller status
	// The status beside Copy link and Done after Open link, and above the
	// answers when the browser did not open.
	statusRow := container.NewBorder(nil, nil, nil, lw.after, container.NewVBox(lw.progress, lw.status))

	// Who asks and what they say first, scrolled when long; the link,
	// where it leads and its warnings below it, never scrolled away; the
	// buttons always in view.
	said := wheel.NewVScroll(lw.head.object)
	bottom := container.NewVBox(widget.NewSeparator(), linkBox(link), statusRow, lw.buttons)
	lw.w.SetContent(a11y.NewDialog(lw.w.Title, container.NewBorder(r.more.box, bottom, nil, nil, said)))
	lw.render()
	lw.size = newSized(lw.w, at, linkWidth, func(width, height float32) float32 {
		c := lw.w.Content()
		c.Resize(fyne.NewSize(width, height)) // wraps the texts at width
		return c.MinSize().Height - said.MinSize().Height + said.Content.MinSize().Height
	})
	r.more.toggled = lw.size.grow
	lw.hold = holdKeys(lw.w, by, d.now, d.lastClosed, d.guard, func() {}, lw.size.grow)
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
		switch ev.Name {
		case fyne.KeyEscape:
			cancel.OnTapped()
		case fyne.KeyReturn, fyne.KeyEnter: // with no button focused, as Enter accepts a form
			if lw.openB.Visible() && !warned {
				lw.openB.Press()
			}
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
	urlBox := look.ScrollUpTo(url, 3*theme.TextSize()+2*theme.InnerPadding())
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
// to fail), and sends Accept once it opened; then it waits for the server
// to say the step is complete. A browser that did not open leaves the
// request unanswered.
func (lw *linkWindow) open(r *request, u *url.URL, d *Desk) {
	lw.set(linkState{phase: linkOpening})
	go func() {
		err := d.openURL(u)
		d.do(func() {
			if lw.closed || lw.state.phase != linkOpening {
				return // closed, answered or gone stale meanwhile
			}
			if err != nil {
				d.log.Warn("the browser did not open: nothing sent", "err", err)
				lw.set(linkState{phase: linkFailed, openErr: err})
				return
			}
			lw.accepted(r, d)
		})
	}()
}

// accepted sends Accept, the link open in a browser, and then waits for
// the server to say the step is complete.
func (lw *linkWindow) accepted(r *request, d *Desk) {
	r.reply(forms.Result{Action: forms.Accept}, func() {
		lw.set(linkState{phase: linkWaiting})
		lw.awaitCompletion(r, d)
	})
}

// awaitCompletion shows the step complete once the server says so, which
// may have come before the Accept, or that the server went away first.
func (lw *linkWindow) awaitCompletion(r *request, d *Desk) {
	go func() {
		select {
		case <-r.completed:
			d.do(func() {
				if lw.state.phase != linkWaiting {
					return
				}
				phase := linkComplete
				if r.gone {
					phase = linkGone
				}
				lw.set(linkState{phase: phase})
			})
		case <-lw.gone:
		}
	}()
}

// set makes s the window's state and shows it; a window that needs
// more room for it (the sentence saying the browser did not open) grows,
// so that the message above does not scroll away.
func (lw *linkWindow) set(s linkState) {
	before := lw.size.need()
	lw.state = s
	lw.render()
	lw.passKeys()
	switch need := lw.size.need(); {
	case need > before:
		lw.size.grow(need - before)
	case s.phase == linkWaiting || s.phase == linkComplete || s.phase == linkGone || s.phase == linkStale:
		// The answers went for good: no gap is left where they were.
		// Not while the browser opens, which may fail in a moment and
		// bring them back.
		lw.size.snug()
	}
}

// passKeys hands the keyboard, when the state hid the button that had it
// (Open link, I opened it, pressed with the keyboard), to the button that
// goes on now: Done, or I opened it. While neither shows (the browser
// opening) nothing has it, so that no key presses a hidden button, and
// Done takes it once it shows.
func (lw *linkWindow) passKeys() {
	c := lw.w.Canvas()
	if o, ok := c.Focused().(fyne.CanvasObject); ok {
		if o.Visible() && (lw.buttons.Visible() || !slices.Contains(lw.answerRow.Objects, o)) {
			return // still shown
		}
		lw.keysPassed = true
	}
	if !lw.keysPassed {
		return
	}
	switch {
	case lw.doneB.Visible():
		c.Focus(lw.doneB)
	case lw.openedB.Visible() && lw.buttons.Visible():
		c.Focus(lw.openedB)
	default:
		c.Unfocus()
		return
	}
	lw.keysPassed = false
}

// render shows lw.state.
func (lw *linkWindow) render() {
	l := linkLookOf(lw.state, lw.server)
	look.Visible(lw.buttons, l.answers)
	look.Visible(lw.openB, l.open)
	look.Visible(lw.openedB, l.opened)
	look.Visible(lw.after, l.after)
	look.Visible(lw.doneB, l.done)
	look.Visible(lw.progress, l.busy)
	if l.busy {
		lw.progress.Start()
	} else {
		lw.progress.Stop()
	}
	lw.status.Importance = widget.MediumImportance
	if l.failed {
		lw.status.Importance = widget.DangerImportance
	}
	lw.status.SetText(l.status)
	look.Visible(lw.status, l.status != "")
}

func (lw *linkWindow) show(by opener) { lw.size.show(by) }

func (lw *linkWindow) stale(reason string) {
	lw.set(linkState{phase: linkStale})
	lw.head.showStale(reason, lw.size.grow)
	lw.size.calm()
	closeOnKeys(lw.w.Canvas(), lw.close)
}

func (lw *linkWindow) tick(now time.Time) { lw.head.tick(now) }

func (lw *linkWindow) close() {
	if !lw.closed {
		lw.w.Close()
	}
}
