package hostsview

import (
	"log/slog"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/cmdtext"
	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/app/modal"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/desktop/screen"
	"github.com/elicitdesk/elicitdesk/internal/hosts"
)

// RouteAll offers to route every stdio server of c through the bridge,
// over win: what changes, then, once confirmed, the change written and a
// reminder to restart the host. done runs once the person has decided,
// whatever they decided, so the caller shows the configs as they are now.
// at says where win is, so that a window too short for the list of
// changes grows to show it.
func RouteAll(win fyne.Window, at func() screen.Screen, c *hosts.Config, log *slog.Logger, done func()) {
	p, err := c.Route()
	offer(win, at, p, err, true, log, done)
}

// offer shows what p changes and writes it when the person confirms. A
// plan that could not be made (err) is reported instead.
func offer(win fyne.Window, at func() screen.Screen, p *hosts.Plan, err error, routing bool, log *slog.Logger, done func()) {
	if err != nil {
		modal.Tell(win.Canvas(), "Nothing was changed", untrusted.Text(err.Error()).Block(), done)
		return
	}
	v := describePlan(p, routing)
	host := p.Config.Host.Name
	var hide func()
	cancel := look.NewButton("Cancel", theme.CancelIcon(), func() { hide(); done() })
	if v.Verb == "" {
		cancel.SetText("Close")
		hide = showFitted(win, at, v.Title, planContent(v), cancel)
		return
	}
	apply := look.NewButton(v.Verb, theme.ConfirmIcon(), func() {
		hide()
		backup, err := p.Apply()
		// done once the outcome is read: the rows made again while it
		// shows would leave the keyboard with the old switch when it closes.
		if err != nil {
			log.Warn("host config not changed", "host", p.Config.Host.ID, "err", err)
			modal.Tell(win.Canvas(), "Nothing was changed", applyError(host, err), done)
		} else {
			log.Info("host config changed", "host", p.Config.Host.ID, "path", p.Config.Path, "backup", backup, "servers", len(p.Changes))
			modal.Tell(win.Canvas(), "Changed "+host+"'s config", applied(host, backup), done)
		}
	})
	apply.Importance = widget.HighImportance
	hide = showFitted(win, at, v.Title, planContent(v), cancel, apply)
}

// planWidth is the width of a plan's dialog, in Fyne units.
const planWidth = 720

// showFitted shows a dialog over win as tall as its content, growing win
// first when it is too short for it, as far as the work area allows;
// what still does not fit scrolls, above the buttons.
func showFitted(win fyne.Window, at func() screen.Screen, title string, content fyne.CanvasObject, buttons ...*look.Button) (hide func()) {
	need := modal.Height(title, content, planWidth, buttons...)
	if room := win.Canvas().Size(); room.Height < need+modal.Margin || room.Width < planWidth+modal.Margin {
		s := at()
		most := s.Size()
		grown := fyne.NewSize(min(max(room.Width, planWidth+modal.Margin), most.Width), min(max(room.Height, need+modal.Margin), most.Height))
		if grown != room {
			s.Put(win, grown, 0)
		}
	}
	return modal.Show(win.Canvas(), title, content, fyne.NewSize(planWidth, need), buttons...)
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

// commandRow is a command line beside a caption, wrapped at spaces and
// path separators so that all of it shows.
func commandRow(caption, line string) fyne.CanvasObject {
	c := widget.NewLabel(caption)
	return container.NewBorder(nil, nil, container.New(FixedWidth(64), c), nil, cmdtext.New(line))
}

func wrapped(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	return l
}
