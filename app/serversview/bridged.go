package serversview

import (
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/app/modal"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/servers"
)

// bridgedView is the "Bridged sessions" section as it shows: what a
// render needs, decided without a window. Hidden when no host is bridged.
type bridgedView struct {
	Hidden bool
	Title  string
	Rows   []bridgedRow
}

// bridgedRow is one session: the server first, as configured or as the
// bridge was given it, then for which host, since when and how much it
// asked. Every text went through package untrusted.
type bridgedRow struct {
	Session string // the session's id, to show its traffic
	Server  string // the name the bridge was given
	Host    string // "for Claude Desktop", "on devbox, for Claude Code"
	Machine string // the other machine it runs on, to block; "" for this one
	Detail  string // "since 10:42:07 · 1 waiting of 2 requests asked"
}

// bridgedViewOf is the section for sessions at now.
func bridgedViewOf(sessions []servers.Bridged, now time.Time) bridgedView {
	v := bridgedView{Hidden: len(sessions) == 0, Title: fmt.Sprintf("Bridged sessions (%d)", len(sessions))}
	for _, s := range sessions {
		host := s.Server.AsksFor()
		if host == "" { // a bridged session always names a host, if only by saying none
			host = "for a host that gave no name"
		}
		r := bridgedRow{
			Session: s.ID,
			Machine: s.Server.Machine,
			Server:  untrusted.Text(s.Server.Name).Line(),
			Host:    host,
			Detail:  "since " + sinceText(s.Since, now) + " · " + askedText(s.Asked, s.Open),
		}
		v.Rows = append(v.Rows, r)
	}
	return v
}

// askedText counts a session's requests, and those still waiting for
// the person.
func askedText(asked, open int) string {
	var text string
	switch asked {
	case 0:
		return "nothing asked yet"
	case 1:
		text = "1 request asked"
	default:
		text = fmt.Sprintf("%d requests asked", asked)
	}
	if open > 0 {
		text = fmt.Sprintf("%d waiting of %s", open, text)
	}
	return text
}

// bridgedSection is the widgets of the section, at the foot of the
// server list.
type bridgedSection struct {
	content *fyne.Container
	title   *widget.Label
	rows    *fyne.Container
	traffic func(session string) // nil: no Traffic buttons
	block   func(machine string) // a machine's sessions have a Block button
}

func newBridgedSection(traffic, block func(string)) *bridgedSection {
	b := &bridgedSection{
		traffic: traffic,
		block:   block,
		title:   widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		rows:    container.NewVBox(),
	}
	b.content = container.NewVBox(widget.NewSeparator(), b.title, b.rows)
	b.content.Hide()
	return b
}

// show renders v: the one place the section's widgets are set.
func (b *bridgedSection) show(v bridgedView) {
	b.title.SetText(v.Title)
	objects := make([]fyne.CanvasObject, 0, len(v.Rows))
	for _, r := range v.Rows {
		name := widget.NewLabelWithStyle(r.Server, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		name.Truncation = fyne.TextTruncateEllipsis
		host := widget.NewLabel(r.Host)
		host.Truncation = fyne.TextTruncateEllipsis
		detail := widget.NewLabel(r.Detail)
		detail.SizeName = theme.SizeNameCaptionText
		detail.Importance = widget.LowImportance
		detail.Truncation = fyne.TextTruncateEllipsis
		var row fyne.CanvasObject = container.New(&tightVBox{}, name, host, detail)
		buttons := container.NewHBox()
		if b.traffic != nil {
			session := r.Session
			show := look.NewButton("Traffic…", nil, func() { b.traffic(session) })
			show.Importance = widget.LowImportance
			buttons.Add(show)
		}
		if r.Machine != "" {
			machine := r.Machine
			block := look.NewButton("Block "+untrusted.Text(machine).Headline(24)+"…", nil, func() { b.block(machine) })
			block.Importance = widget.LowImportance
			buttons.Add(block)
		}
		switch len(buttons.Objects) {
		case 1: // beside the texts, which keep the room they need
			row = container.NewBorder(nil, nil, nil, container.NewCenter(buttons), row)
		case 2: // under them: beside, two would cut the host's name short
			row = container.NewVBox(row, buttons)
		}
		objects = append(objects, row)
	}
	b.rows.Objects = objects
	b.rows.Refresh()
	b.content.Hidden = v.Hidden
	b.content.Refresh()
}

// confirmBlock asks before blocking machine, then has the core stop
// answering it, off the UI goroutine: the core answers over its
// connection.
func (w *Window) confirmBlock(machine string) {
	name := untrusted.Text(machine).Line()
	modal.Confirm(w.win.Canvas(), "Block "+name+"?",
		"Requests from "+name+"'s bridges will no longer reach you; those waiting now end, and its hosts get no answer from you. Run elicitdesk remote for it to answer it again.",
		"Keep answering", "Block", func() {
			go func() {
				if err := w.deps.Servers.Block(machine); err != nil {
					w.do(func() { w.showError("blocking "+name, err) })
				}
			}()
		})
}

// BridgesChanged tells the window the bridged sessions changed. It may be
// called from any goroutine; the latest list is shown.
func (w *Window) BridgesChanged() {
	if w.deps.Bridged == nil {
		return
	}
	w.mu.Lock()
	list := w.deps.Bridged()
	w.takenBridges++
	n := w.takenBridges
	w.mu.Unlock()
	w.do(func() {
		if n <= w.shownBridges {
			return
		}
		w.shownBridges, w.bridged = n, list
		if w.win != nil {
			w.showBridged()
		}
	})
}

// showBridged renders the sessions last taken.
func (w *Window) showBridged() {
	w.list.bridged.show(bridgedViewOf(w.bridged, time.Now()))
}
