package hostsview

import (
	"log/slog"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/modal"
	"github.com/elicitdesk/elicitdesk/internal/hosts"
	"github.com/elicitdesk/elicitdesk/internal/untrusted"
)

// RouteAll offers to route every stdio server of c through exe's bridge,
// over win: what changes, then, once confirmed, the change written and a
// reminder to restart the host. done runs once the person has decided,
// whatever they decided, so the caller shows the configs as they are now.
func RouteAll(win fyne.Window, c *hosts.Config, exe string, log *slog.Logger, done func()) {
	p, err := c.Route(exe)
	offer(win, p, err, true, log, done)
}

// offer shows what p changes and writes it when the person confirms. A
// plan that could not be made (err) is reported instead.
func offer(win fyne.Window, p *hosts.Plan, err error, routing bool, log *slog.Logger, done func()) {
	if err != nil {
		tell(win, "Nothing was changed", untrusted.Text(err.Error()).Block(), done)
		return
	}
	v := describePlan(p, routing)
	host := p.Config.Host.Name
	var hide func()
	cancel := widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), func() { hide(); done() })
	if v.Verb == "" {
		cancel.SetText("Close")
		hide = modal.Show(win.Canvas(), v.Title, planContent(v), planSize(v), cancel)
		return
	}
	apply := widget.NewButtonWithIcon(v.Verb, theme.ConfirmIcon(), func() {
		hide()
		backup, err := p.Apply()
		if err != nil {
			log.Warn("host config not changed", "host", p.Config.Host.ID, "err", err)
			tell(win, "Nothing was changed", applyError(host, err), nil)
		} else {
			log.Info("host config changed", "host", p.Config.Host.ID, "path", p.Config.Path, "backup", backup, "servers", len(p.Changes))
			tell(win, host+"'s config is changed", applied(host, backup), nil)
		}
		done()
	})
	apply.Importance = widget.HighImportance
	hide = modal.Show(win.Canvas(), v.Title, planContent(v), planSize(v), cancel, apply)
}

// planContent lists a plan's changes, each server's command line before
// and after, and the servers it leaves alone with why.
func planContent(v planView) fyne.CanvasObject {
	box := container.NewVBox(wrapped(v.Intro))
	for _, c := range v.Changes {
		box.Add(widget.NewLabelWithStyle(c.Name, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
		box.Add(commandRow("Now:", c.From))
		box.Add(commandRow("After:", c.To))
	}
	if len(v.Skipped) > 0 {
		box.Add(widget.NewSeparator())
		box.Add(widget.NewLabelWithStyle("Left as they are", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
		for _, s := range v.Skipped {
			box.Add(wrapped(s.Name + ": " + s.Reason))
		}
	}
	return container.NewVScroll(box)
}

// planSize fits the dialog to a short plan and lets a long one scroll.
func planSize(v planView) fyne.Size {
	lines := 3 + 3*len(v.Changes) + 2*len(v.Skipped)
	if len(v.Skipped) > 0 {
		lines++
	}
	return fyne.NewSize(720, min(520, 110+float32(lines)*34))
}

// commandRow is a command line under a caption, wrapped at any character
// so that none of it is hidden.
func commandRow(caption, line string) fyne.CanvasObject {
	c := widget.NewLabel(caption)
	l := widget.NewLabelWithStyle(line, fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	l.Wrapping = fyne.TextWrapBreak
	l.Selectable = true
	return container.NewBorder(nil, nil, container.New(FixedWidth(64), c), nil, l)
}

func wrapped(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	return l
}
