package app

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/forms/formview"
	"github.com/elicitdesk/elicitdesk/internal/trust"
	"github.com/elicitdesk/elicitdesk/internal/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/wheel"
)

// linkWindow asks the person to open a URL-mode request's link. Nothing is
// fetched or opened before they press Open; after it, the window waits for
// the server to say the step is complete, or for the person's Done.
type linkWindow struct {
	w        fyne.Window
	head     *header
	buttons  *fyne.Container
	waiting  *fyne.Container
	status   *widget.Label
	progress *widget.ProgressBarInfinite
	size     *sized
	gone     chan struct{} // closed with the window
	closed   bool
}

// newLinkWindow builds the window of a URL request, sized to it and placed
// at.
func (d *Desk) newLinkWindow(r *request, at place, by opener) *linkWindow {
	lw := &linkWindow{w: d.fyne.NewWindow(title(r.Elicitation)), gone: make(chan struct{})}
	lw.head = newHeader(r.Elicitation, d.others(r.Server.Name), lw.close)
	link := trust.InspectLink(r.URL)

	open := widget.NewButtonWithIcon("Open link", theme.ComputerIcon(), func() {
		if r.reply(forms.Result{Action: forms.Accept}) {
			if err := d.openURL(link.URL); err != nil {
				lw.status.SetText("Could not open the browser: " + err.Error() + ". Copy the link instead.")
			}
			lw.await(r, d.do)
		}
	})
	open.Importance = widget.HighImportance
	if !link.Openable {
		open.Disable()
	}
	copyLink := widget.NewButtonWithIcon("Copy link", theme.ContentCopyIcon(), func() {
		d.fyne.Clipboard().SetContent(string(r.URL)) // the link as sent: pasting it opens what Open link would
	})
	decline := widget.NewButtonWithIcon("Decline", theme.CancelIcon(), func() {
		if r.reply(forms.Result{Action: forms.Decline}) {
			lw.close()
		}
	})
	cancel := widget.NewButton("Cancel", func() {
		if r.reply(forms.Result{Action: forms.Cancel}) {
			lw.close()
		}
	})
	lw.buttons = container.NewVBox(formview.AnswerHelp(), container.NewHBox(copyLink, layout.NewSpacer(), decline, cancel, open))

	lw.status = widget.NewLabel("")
	lw.status.Wrapping = fyne.TextWrapWord
	done := widget.NewButtonWithIcon("Done", theme.ConfirmIcon(), lw.close)
	done.Importance = widget.HighImportance
	lw.progress = widget.NewProgressBarInfinite()
	lw.waiting = container.NewBorder(nil, nil, nil, done, container.NewVBox(lw.progress, lw.status))
	lw.waiting.Hide()

	// The link, where it leads and its warnings first and never scrolled
	// away; what the server wrote about itself below, scrolled; the
	// buttons always in view.
	top := container.NewVBox(linkBox(link), widget.NewSeparator())
	bottom := container.NewVBox(lw.waiting, lw.buttons)
	said := wheel.NewVScroll(lw.head.object)
	lw.w.SetContent(container.NewBorder(top, bottom, nil, nil, said))
	lw.size = newSized(lw.w, at, linkWidth, func(width, height float32) float32 {
		c := lw.w.Content()
		c.Resize(fyne.NewSize(width, height)) // wraps the texts at width
		return c.MinSize().Height - said.MinSize().Height + said.Content.MinSize().Height
	})
	lw.w.SetCloseIntercept(func() {
		r.reply(forms.Result{Action: forms.Cancel})
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
	box := container.NewVBox(widget.NewLabelWithStyle("The server asks you to open this link:", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), urlBox)
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

// await shows that the person went to the link and the server has not yet
// said the step is complete.
func (lw *linkWindow) await(r *request, do func(func())) {
	lw.buttons.Hide()
	if lw.status.Text == "" {
		lw.status.SetText("Waiting for " + untrusted.Text(r.Server.Name).Line() + " to finish. Press Done when you have finished in the browser.")
	}
	lw.waiting.Show()
	go func() {
		select {
		case <-r.Completed():
			do(func() {
				lw.status.SetText(untrusted.Text(r.Server.Name).Line() + " says this step is complete.")
				lw.progress.Stop()
				lw.progress.Hide()
			})
		case <-lw.gone:
		}
	}()
}

func (lw *linkWindow) show(by opener) { lw.size.show(by) }

func (lw *linkWindow) stale(reason string) {
	lw.buttons.Hide()
	lw.waiting.Hide()
	lw.head.showStale(reason)
	closeOnKeys(lw.w.Canvas(), lw.close)
}

func (lw *linkWindow) tick(now time.Time) { lw.head.tick(now) }

func (lw *linkWindow) close() {
	if !lw.closed {
		lw.w.Close()
	}
}
