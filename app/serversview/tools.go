package serversview

import (
	"context"
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/keys"
	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/servers"
)

// listTimeout bounds listing a server's tools.
const listTimeout = 30 * time.Second

// toolsKey names one connection of one server: a reconnect may bring other tools.
type toolsKey struct {
	name  string
	since time.Time
}

// toolsPane is the Tools tab: the selected server's tools, each with Call….
type toolsPane struct {
	w       *Window
	content fyne.CanvasObject
	status  *widget.Label
	spinner *widget.Activity
	reload  *look.Button
	search  *keys.Entry
	box     *fyne.Container // one toolRow per tool that matches the search
	frame   *fyne.Container // laid out again as the status line changes

	server string         // whose tools are listed
	tools  []servers.Tool // all of them, as listed
	loaded toolsKey       // whose tools are shown or loading
	gen    uint64         // loads started, so a late answer is dropped
	cancel context.CancelFunc
}

// newToolsPane is w's Tools tab; its search is an entry of k, the
// window's keys.
func newToolsPane(w *Window, k *keys.Keys) *toolsPane {
	p := &toolsPane{w: w, cancel: func() {}}
	p.status = newValueLabel()
	p.spinner = widget.NewActivity()
	p.spinner.Hide()
	p.reload = look.NewButton("Reload", theme.ViewRefreshIcon(), func() {
		p.loaded = toolsKey{}
		p.show(w.selectedRow())
	})
	p.box = container.NewVBox()
	p.search = k.NewEntry() // Escape and F1 work while typing in it
	p.search.SetPlaceHolder("Search tools by name or description")
	p.search.ActionItem = widget.NewIcon(theme.SearchIcon())
	p.search.OnChanged = func(string) { p.showTools() }
	top := container.NewVBox(container.NewBorder(nil, nil, p.spinner, p.reload, p.status), p.search)
	p.frame = keys.Border(top, nil, nil, nil, container.NewVScroll(p.box)) // Tab: Reload and the search, then the tools
	p.content = container.NewPadded(p.frame)
	return p
}

// show lists r's tools, loading them when r is ready and they are not
// loaded already for its current connection.
func (p *toolsPane) show(r *row) {
	if r == nil {
		p.clear("")
		return
	}
	if st := r.state(); st != servers.StateReady {
		p.clear(notReadyText(r.Name, st))
		return
	}
	if key := (toolsKey{r.Name, r.Status.Since}); key != p.loaded {
		p.load(key)
	}
}

// notReadyText says why a server's tools cannot be listed now.
func notReadyText(server string, st servers.State) string {
	name := untrusted.Text(server)
	switch st {
	case servers.StateConnecting:
		return fmt.Sprintf("%s is connecting; its tools show once it is ready.", name)
	case servers.StateDisabled:
		return fmt.Sprintf("%s is disabled. Enable it to see its tools.", name)
	case servers.StateFailed:
		return fmt.Sprintf("%s is not connected: see Overview for why. Its tools show once it is ready.", name)
	case servers.StateNeedsSignIn:
		return fmt.Sprintf("%s needs you to sign in: see Overview. Its tools show once you have.", name)
	}
	return fmt.Sprintf("%s is not connected, so its tools cannot be listed.", name)
}

// clear stops any load and shows msg instead of tools.
func (p *toolsPane) clear(msg string) {
	p.cancel()
	p.gen++
	p.loaded = toolsKey{}
	p.tools = nil
	p.box.RemoveAll()
	p.search.Hide()
	p.spinner.Stop()
	p.spinner.Hide()
	p.reload.Disable()
	p.status.Importance = widget.MediumImportance
	p.status.SetText(msg)
	p.frame.Refresh()
}

// load lists the tools of key's connection in the background.
func (p *toolsPane) load(key toolsKey) {
	p.clear("Loading tools…")
	p.loaded = key
	p.spinner.Show()
	p.spinner.Start()
	p.frame.Refresh()
	ctx, cancel := context.WithTimeout(context.Background(), listTimeout)
	p.cancel = cancel
	gen := p.gen
	go func() {
		tools, _, err := p.w.deps.Servers.Tools(ctx, key.name)
		cancel()
		p.w.do(func() {
			if gen == p.gen {
				p.loadedTools(key.name, tools, err)
			}
		})
	}()
}

// loadedTools shows the outcome of a load.
func (p *toolsPane) loadedTools(server string, tools []servers.Tool, err error) {
	p.spinner.Stop()
	p.spinner.Hide()
	p.reload.Enable()
	defer p.frame.Refresh()
	switch {
	case err != nil:
		p.status.Importance = widget.DangerImportance
		p.status.SetText("The tools could not be listed: " + problemText(err))
		return
	}
	p.server, p.tools = server, tools
	p.search.Show()
	p.showTools()
}

// showTools lists the tools that match the search, saying how many.
func (p *toolsPane) showTools() {
	if p.tools == nil {
		return
	}
	defer p.frame.Refresh()
	shown := searchTools(p.tools, p.search.Text)
	p.status.Importance = widget.MediumImportance
	p.status.SetText(toolCount(p.server, len(shown), len(p.tools)))
	p.box.RemoveAll()
	for _, t := range shown {
		p.box.Add(newToolRow(t, func() { p.w.openCall(p.server, t) }))
		p.box.Add(widget.NewSeparator())
	}
}

// toolCount says how many tools a server has, and how many match a search.
func toolCount(server string, shown, all int) string {
	name := untrusted.Text(server).Line()
	switch {
	case shown < all && shown == 0:
		return fmt.Sprintf("None of the %d tools of %s match.", all, name)
	case shown < all:
		return fmt.Sprintf("%d of the %d tools of %s match.", shown, all, name)
	case all == 1:
		return name + " has 1 tool."
	}
	return fmt.Sprintf("%s has %d tools.", name, all)
}

// toolRow is one tool in the list: its title and name, its description,
// and the button that calls it.
type toolRow struct {
	widget.BaseWidget
	tool    servers.Tool
	call    *look.Button
	content fyne.CanvasObject
}

func newToolRow(t servers.Tool, onCall func()) *toolRow {
	r := &toolRow{tool: t, call: look.NewButton("Call…", theme.MediaPlayIcon(), onCall)}
	title := widget.NewLabelWithStyle(toolTitle(t).Line(), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.Wrapping = fyne.TextWrapWord
	text := container.NewVBox(title)
	if toolTitle(t) != t.ShownName() {
		name := widget.NewLabelWithStyle(t.ShownName().Line(), fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
		name.Importance = widget.LowImportance
		name.Wrapping = fyne.TextWrapWord
		text.Add(name)
	}
	if t.Description != "" {
		d := widget.NewLabel(t.Description.Block())
		d.Wrapping = fyne.TextWrapWord
		d.Importance = widget.LowImportance
		text.Add(d)
	}
	r.content = container.NewBorder(nil, nil, nil, container.NewVBox(r.call), text)
	r.ExtendBaseWidget(r)
	return r
}

// CreateRenderer implements fyne.Widget.
func (r *toolRow) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(r.content)
}

// toolTitle is what a tool is called for people: its title (servers.Tool
// has the annotations' title when it has none of its own), or its name as
// shown, all the server's words.
func toolTitle(t servers.Tool) untrusted.Text {
	if t.Title != "" {
		return t.Title
	}
	return t.ShownName()
}
