// Package hostsview is the Hosts window: the MCP hosts found on this
// desktop (Claude Desktop, Cursor, VS Code…), the servers each runs, and
// switches that route them through Elicit Desk, always showing what a
// change does to the host's config before it is written. What to show and
// what a click plans are plain functions, tested without a window.
package hostsview

import (
	"log/slog"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/cmdtext"
	"github.com/elicitdesk/elicitdesk/app/keys"
	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/app/modal"
	"github.com/elicitdesk/elicitdesk/app/wheel"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/desktop/screen"
	"github.com/elicitdesk/elicitdesk/internal/hosts"
	"github.com/elicitdesk/elicitdesk/servers/config"
)

// Deps are what the window works with.
type Deps struct {
	Hosts      []hosts.Host   // where to look, from hosts.Known
	Bridge     hosts.Binaries // the elicitdesk binaries that hosts run as the bridge
	ConfigPath string         // servers.json, which Copy adds to
	Log        *slog.Logger
	// Screen says where a new window goes, on the UI goroutine; nil
	// means screen.Fallback.
	Screen func() screen.Screen
}

// Column widths of a server row; the command line takes the rest.
const (
	nameWidth      = 170
	transportWidth = 64
	switchWidth    = 210
)

// windowWidth is the window's preferred width, in Fyne units; it is as
// tall as its content, within the work area.
const windowWidth = 1040

// Window is the Hosts window, made on first Show.
type Window struct {
	app    fyne.App
	deps   Deps
	win    fyne.Window
	keys   *keys.Keys        // the window's: Escape and Ctrl+W close it
	top    fyne.CanvasObject // the title, the intro and Read again
	body   *fyne.Container
	inner  fyne.CanvasObject // body and its padding, which scrolls
	scroll *container.Scroll // holds inner
	// opened is whether the window was sized and placed: later it keeps
	// the size and place the person gave it.
	opened bool
	found  []hosts.Found
	// keyed are the rows' switches and buttons by config and what they
	// are, so that the one with the keyboard keeps it when the rows are
	// made again.
	keyed map[string]fyne.Focusable
	// stale is whether the configs were read again while a dialog showed:
	// the rows are made again once it closes (settle).
	stale bool
}

// New returns the Hosts window; nothing is shown until Show.
func New(a fyne.App, d Deps) *Window {
	if d.Log == nil {
		d.Log = slog.Default()
	}
	if d.Screen == nil {
		d.Screen = screen.Fallback
	}
	return &Window{app: a, deps: d}
}

// Show reads the hosts' configs again and shows them.
func (w *Window) Show() {
	if w.win == nil {
		w.build()
	}
	w.reload()
	if !w.opened {
		w.opened = true
		w.open()
	}
	w.win.Show()
	w.win.RequestFocus()
}

// Refresh reads the configs again if the window was made: another
// window changed one.
func (w *Window) Refresh() {
	if w.win != nil {
		w.reload()
	}
}

func (w *Window) build() {
	w.win = w.app.NewWindow("Hosts — Elicit Desk")
	title := widget.NewLabelWithStyle("MCP hosts on this computer", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.SizeName = theme.SizeNameSubHeadingText
	intro := wrapped("A server routed through Elicit Desk shows its requests as windows, whichever host starts it. " +
		"Each change to a host's config is shown before it is written, and the file as it was is kept beside it.")
	again := look.NewButton("Read again", theme.ViewRefreshIcon(), w.reload)
	w.body = container.NewVBox()
	w.top = container.NewPadded(container.NewBorder(nil, nil, nil, container.NewVBox(again), container.NewVBox(title, intro)))
	w.inner = container.New(layout.NewCustomPaddedLayout(0, theme.Padding(), theme.Padding(), 4*theme.Padding()), w.body)
	w.scroll = container.NewVScroll(w.inner)
	w.win.SetContent(keys.Border(w.top, nil, nil, nil, w.scroll)) // Tab: Read again, then the hosts
	w.win.SetCloseIntercept(w.win.Hide)
	w.keys = keys.Close(w.win, w.win.Hide)
}

// follow scrolls o, which took the keyboard, into view.
func (w *Window) follow(o fyne.CanvasObject) {
	top, bottom := wheel.Span(w.scroll, o)
	wheel.Reveal(w.scroll, top, bottom)
}

// open sizes the window to its content and places it.
func (w *Window) open() {
	w.deps.Screen().ShowFitted(w.win, windowWidth, func() float32 {
		gap := theme.Padding() // the border layout's, between top and the scroll
		return w.top.MinSize().Height + gap + w.inner.MinSize().Height
	})
}

// reload reads every host's config: small files, read when the person
// asks, so on the UI goroutine.
func (w *Window) reload() {
	w.found = hosts.Find(w.deps.Hosts, w.deps.Bridge)
	w.render()
}

// render shows w.found. A switch or button that had the keyboard hands it
// to its new self (or, gone, to nobody): the old one would keep it unseen,
// taking Escape and Space. While a dialog shows, which keeps the window's
// keyboard from it, the rows wait until it closes (settle).
func (w *Window) render() {
	canvas, had := w.win.Canvas(), ""
	if canvas.Overlays().Top() != nil {
		w.stale = true
		return
	}
	w.stale = false
	if focused := canvas.Focused(); focused != nil {
		for key, o := range w.keyed {
			if o == focused {
				had = key
				canvas.Unfocus()
			}
		}
	}
	w.keyed = map[string]fyne.Focusable{}
	w.body.RemoveAll()
	rows := hostRows(w.found, w.deps.Bridge)
	if len(rows) == 0 {
		var names []string
		for _, h := range w.deps.Hosts {
			names = append(names, h.Name)
		}
		none := wrapped("No MCP host's config was found. Elicit Desk looks for those of " + strings.Join(names, ", ") + ".")
		none.Importance = widget.LowImportance
		w.body.Add(none)
	}
	for i, r := range rows {
		if i > 0 {
			w.body.Add(widget.NewSeparator())
		}
		w.body.Add(w.hostBlock(r, w.found[i]))
	}
	w.body.Refresh()
	if o, ok := w.keyed[had]; ok {
		canvas.Focus(o)
	}
}

// settle makes the rows again if the configs were read while a dialog
// showed; each dialog of the window's runs it once closed.
func (w *Window) settle() {
	if w.stale {
		w.render()
	}
}

// key names a row's switch or button across renders: a project's server
// may share a name with the user's.
func key(c *hosts.Config, what string) string {
	return c.Path + "\x00" + c.Host.Project + "\x00" + what
}

// hostBlock is a host: its name, config path and buttons, then its servers.
func (w *Window) hostBlock(r hostRow, f hosts.Found) fyne.CanvasObject {
	name := widget.NewLabelWithStyle(r.Name, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	name.SizeName = theme.SizeNameSubHeadingText
	path := widget.NewLabel(r.Path)
	path.SizeName = theme.SizeNameCaptionText
	path.Wrapping = fyne.TextWrapWord // the file's name, at the end, always shows
	path.Selectable = true
	box := container.NewVBox()
	if r.ReadOnly != "" {
		box.Add(name)
		box.Add(path)
		box.Add(wrapped("Listed only: Elicit Desk does not edit this file, since " + r.ReadOnly + ". Add its servers to Elicit Desk to answer them here."))
		return box
	}
	if r.Err != "" {
		box.Add(name)
		box.Add(path)
		problem := wrapped("Its config cannot be read, so nothing in it can be changed here: " + r.Err)
		problem.Importance = widget.DangerImportance
		box.Add(problem)
		return box
	}
	copyAll := look.NewButton("Copy servers to Elicit Desk…", theme.ContentCopyIcon(), func() { w.offerCopy(f) })
	if len(r.Servers) == 0 {
		copyAll.Disable()
	}
	route := look.NewButton("Route all through Elicit Desk…", theme.MailForwardIcon(), func() {
		RouteAll(w.win, w.deps.Screen, f.Config, w.deps.Log, w.reload)
	})
	route.Importance = widget.HighImportance
	if r.Routable == 0 {
		route.Disable()
	}
	w.keyed[key(f.Config, "copy")], w.keyed[key(f.Config, "route")] = copyAll, route
	box.Add(container.NewBorder(nil, nil, nil, container.NewCenter(container.NewHBox(copyAll, route)), name))
	box.Add(path) // below the buttons, as wide as the window: it wraps less
	if len(r.Servers) == 0 {
		none := widget.NewLabel("No servers configured.")
		none.Importance = widget.LowImportance
		box.Add(none)
	}
	for _, s := range r.Servers {
		box.Add(w.serverRow(s, f.Config))
	}
	return box
}

// serverRow is a server in columns: name, transport, what it runs with
// any note under it, and its switch.
func (w *Window) serverRow(s serverRow, c *hosts.Config) fyne.CanvasObject {
	name := widget.NewLabel(s.Name)
	name.Truncation = fyne.TextTruncateEllipsis
	transport := widget.NewLabel(s.Transport)
	runs := cmdtext.New(s.Runs) // what runs, whole
	middle := container.NewVBox(runs)
	if s.Note != "" {
		note := widget.NewLabel(s.Note)
		note.Truncation = fyne.TextTruncateEllipsis
		note.SizeName = theme.SizeNameCaptionText
		if s.Broken {
			note.Importance = widget.DangerImportance
		}
		middle.Add(note)
	}
	var right fyne.CanvasObject = widget.NewLabel("")
	if s.Switch != switchNone {
		sw := newRouteSwitch(w.keys, s.Name, s.Switch == switchOn, w.follow)
		sw.OnChanged = func(on bool) {
			var p *hosts.Plan
			var err error
			if on {
				p, err = c.Route(s.Key)
			} else {
				p, err = c.Unroute(s.Key)
			}
			offer(w.win, w.deps.Screen, p, err, on, w.deps.Log, w.reload)
		}
		w.keyed[key(c, "server "+s.Key)] = sw
		right = sw
	}
	return container.NewBorder(nil, nil,
		container.NewHBox(container.New(FixedWidth(nameWidth), name), container.New(FixedWidth(transportWidth), transport)),
		container.New(FixedWidth(switchWidth), container.NewVBox(right)), // at the top, by the name, when the command wraps
		middle)
}

// offerCopy asks before copying a host's servers into servers.json, as
// Elicit Desk then starts them itself.
func (w *Window) offerCopy(f hosts.Found) {
	host := f.Host.Name
	var hide func()
	cancel := look.NewButton("Cancel", theme.CancelIcon(), func() { hide(); w.settle() })
	copyAll := look.NewButton("Copy", theme.ContentCopyIcon(), func() {
		hide()
		w.copyFrom(f)
	})
	copyAll.Importance = widget.HighImportance
	text := "Elicit Desk will connect to " + host + "'s servers itself, starting their commands, so you can call their tools from the Servers window. " +
		host + "'s config is not changed."
	hide = modal.Show(w.win.Canvas(), "Copy "+host+"'s servers into Elicit Desk?", wrapped(text), fyne.NewSize(520, 240), cancel, copyAll)
}

func (w *Window) copyFrom(f hosts.Found) {
	host := f.Host.Name
	cfg, err := config.Load(w.deps.ConfigPath)
	if err != nil {
		modal.Tell(w.win.Canvas(), "Nothing was copied", "Elicit Desk's servers.json cannot be read: "+untrusted.Text(err.Error()).Block(), w.settle)
		return
	}
	res := copyServers(cfg, host, f.Config.Servers)
	if len(res.Added) > 0 {
		if err := cfg.Save(); err != nil {
			modal.Tell(w.win.Canvas(), "Nothing was copied", "servers.json cannot be written: "+untrusted.Text(err.Error()).Block(), w.settle)
			return
		}
		w.deps.Log.Info("servers copied from a host", "host", f.Host.ID, "added", len(res.Added))
	}
	modal.Tell(w.win.Canvas(), "Copied from "+host, copied(host, res), w.settle)
}
