package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/hostsview"
	"github.com/elicitdesk/elicitdesk/app/keys"
	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/assets"
	"github.com/elicitdesk/elicitdesk/internal/desktop/xwin"
	"github.com/elicitdesk/elicitdesk/internal/hosts"
	"github.com/elicitdesk/elicitdesk/servers/config"
)

// welcome is the Welcome window, shown at the first start and from the
// menu: what the app does, a demo request, and the hosts to route.
type welcome struct {
	d     *Desk
	win   fyne.Window
	hosts *fyne.Container
	// oneByOne opens the Hosts window, shown only when a host was found:
	// without one there is nothing to choose.
	oneByOne *look.Button
	try      *look.Button
	tried    *widget.Label // how the demo request went
}

// showWelcome opens the Welcome window, or brings it forward: the person
// asked for it.
func (d *Desk) showWelcome() { d.welcomeBy(byPerson) }

// welcomeBy opens the Welcome window, or brings it forward; with the
// keyboard only when the person asked for it.
func (d *Desk) welcomeBy(by opener) {
	if d.welcome != nil {
		d.welcome.showHosts()
		d.welcome.win.Show()
		if by == byPerson {
			d.welcome.win.RequestFocus()
		}
		return
	}
	w := &welcome{d: d, win: d.fyne.NewWindow("Welcome — Elicit Desk")}
	d.welcome = w
	w.win.SetOnClosed(func() { d.welcome = nil })
	keys.Close(w.win, nil)

	icon := canvas.NewImageFromResource(assets.Icon())
	icon.FillMode = canvas.ImageFillContain
	icon.SetMinSize(fyne.NewSquareSize(48))
	title := widget.NewLabelWithStyle("Welcome to Elicit Desk", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.SizeName = theme.SizeNameHeadingText

	w.try = look.NewButton("Try a demo request", theme.MediaPlayIcon(), w.tryDemo)
	w.try.Importance = widget.HighImportance
	w.tried = paragraph("")
	w.tried.Hide()

	w.hosts = container.NewVBox()
	// Each may make its window: it gets the app's keys (Ctrl+Q, F1) then.
	w.oneByOne = look.NewButton("Choose servers one by one…", theme.ListIcon(), func() {
		d.hostsWin.Show()
		d.addAppKeys()
	})
	w.showHosts()
	add := look.NewButton("Add a server…", theme.ContentAddIcon(), func() {
		d.serversWin.AddServer()
		d.addAppKeys()
	})
	closeBtn := look.NewButton("Close", nil, w.win.Close)

	content := container.NewVBox(
		container.NewBorder(nil, nil, icon, nil, title),
		paragraph(welcomeIntro),
		paragraph(whereRequests(d.opts.TrayShown)),
		section("See a request", "The demo server built into Elicit Desk asks you a question.", w.try),
		w.tried,
		section("Your MCP hosts", "Route a host's servers through Elicit Desk, and their requests show here instead of in the host.", w.oneByOne),
		w.hosts,
		paragraph(welcomeRemote),
		section("Your own servers", "Elicit Desk can connect to MCP servers itself, so you can call their tools.", add),
	)
	bottom := container.NewPadded(container.NewHBox(layout.NewSpacer(), closeBtn))
	inner := container.New(layout.NewCustomPaddedLayout(theme.Padding(), theme.Padding(), 2*theme.Padding(), 4*theme.Padding()), content)
	w.win.SetContent(container.NewBorder(nil, bottom, nil, nil, container.NewVScroll(inner)))
	if by == byApp {
		xwin.Quiet(w.win)
	}
	// As tall as its content, which scrolls on a small screen.
	d.screen().ShowFitted(w.win, 820, func() float32 {
		gap := theme.Padding() // the border layout's, between the scroll and Close
		return inner.MinSize().Height + gap + bottom.MinSize().Height
	})
}

// showHosts lists the hosts found, each with the button that routes it,
// reading their configs again: small files, read on a click.
func (w *welcome) showHosts() {
	w.hosts.RemoveAll()
	found := hosts.Find(w.d.opts.Hosts, w.d.opts.Bridge)
	if len(found) == 0 {
		w.hosts.Add(paragraph("No MCP host's config was found on this computer (Claude Desktop, Cursor, VS Code, Zed, Codex…)."))
		w.oneByOne.Hide()
	} else {
		w.oneByOne.Show()
	}
	for _, f := range found {
		sum := hostsview.Summarize(f, w.d.opts.Bridge)
		name := widget.NewLabelWithStyle(hostsview.Title(f.Host), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		name.Wrapping = fyne.TextWrapWord // a profile or a project is told apart by the end of its title
		route := look.NewButton("Route through Elicit Desk…", theme.MailForwardIcon(), func() {
			hostsview.RouteAll(w.win, w.d.screen, f.Config, w.d.log, func() {
				w.showHosts()
				w.d.hostsWin.Refresh()
			})
		})
		if sum.Done {
			route.SetText("Routed")
			route.SetIcon(theme.ConfirmIcon())
		}
		if !sum.Routable {
			route.Disable()
		}
		summary := widget.NewLabel(sum.Line)
		summary.Truncation = fyne.TextTruncateEllipsis
		w.hosts.Add(container.NewBorder(nil, nil, container.New(hostsview.FixedWidth(150), name), container.NewVBox(route), summary)) // the button by the title's first line
	}
	if c := w.win.Content(); c != nil {
		c.Refresh() // lays out again what holds oneByOne, shown or hidden
	} else {
		w.hosts.Refresh()
	}
}

// tryDemo has the demo server ask the person something, through the
// app's own connection, which may still be connecting: CallTool waits.
func (w *welcome) tryDemo() {
	w.try.Disable()
	w.tried.SetText("The demo server asks you something in a window of its own: answer it there.")
	showLine(w.tried, w.win.Content(), true, w.grow)
	d := w.d
	name := d.opts.Demo.Name
	if name == "" {
		name = config.DemoName // as config.Ensure names it
	}
	go func() {
		res, _, err := d.core.CallTool(d.ctx, name, config.DemoTry, nil, false)
		if d.ctx.Err() != nil {
			return
		}
		d.do(func() {
			if d.welcome != w {
				return // closed meanwhile
			}
			w.try.Enable()
			before := w.tried.MinSize().Height
			w.tried.SetText(demoOutcome(res, err)) // a failure's words may take more lines
			if dh := w.tried.MinSize().Height - before; dh > 0 {
				w.grow(dh)
			}
		})
	}()
}

// grow makes the window dh taller, within the work area, so that a line
// shown in it (how the demo went) pushes nothing below out of view.
func (w *welcome) grow(dh float32) {
	growWindow(w.win, dh, w.d.screen().Size().Height)
}

func paragraph(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	return l
}

// section is a heading with a line under it and a button on the right.
func section(heading, text string, button *look.Button) fyne.CanvasObject {
	h := widget.NewLabelWithStyle(heading, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	h.SizeName = theme.SizeNameSubHeadingText
	return container.NewVBox(widget.NewSeparator(),
		container.NewBorder(nil, nil, nil, container.NewCenter(button), container.NewVBox(h, paragraph(text))))
}
