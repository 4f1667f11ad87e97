package app

import (
	"github.com/elicitdesk/elicitdesk/app/trafficview"
	"github.com/elicitdesk/elicitdesk/internal/core"
	"github.com/elicitdesk/elicitdesk/internal/desktop/notify"
	"github.com/elicitdesk/elicitdesk/servers"
)

// events are what the core tells the windows, each handled on the UI
// goroutine, in the order told, and counted there: the windows leave only
// once they took all the core told them (Desk.exitWhenIdle).
type events struct{ d *Desk }

// take runs f on the UI goroutine, in order, and counts the event.
func (e events) take(f func()) {
	e.d.do(func() {
		e.d.taken++
		f()
	})
}

func (e events) Open(r core.Request, by core.Opener) {
	e.take(func() { e.d.opened(r, openerOf(by)) })
}
func (e events) Completed(id string, gone bool) { e.take(func() { e.d.completed(id, gone) }) }
func (e events) Waiting(n core.Count)           { e.take(func() { e.d.waitingNow(n) }) }
func (e events) Show(s core.Show)               { e.take(func() { e.d.show(s) }) }
func (e events) Quit()                          { e.take(e.d.exit) }
func (e events) Notify(n notify.Notice) {
	e.take(func() { e.d.notifyHere(n) })
}
func (e events) Tray(shown bool) { e.take(func() { e.d.trayChanged(shown) }) }
func (e events) Ended(id string, answered bool, cause string) {
	e.take(func() { e.d.ended(id, answered, cause) })
}

// Servers and Bridges: the Servers window reads the news off the UI
// goroutine itself.
func (e events) Servers([]servers.Status) {
	e.d.serversWin.Update()
	e.take(func() {})
}
func (e events) Bridges([]servers.Bridged) {
	e.d.serversWin.BridgesChanged()
	e.take(func() {})
}

func (e events) HistoryChanged() {
	e.take(func() {
		if e.d.historyWin != nil {
			e.d.historyWin.Refresh()
		}
	})
}

func openerOf(by core.Opener) opener {
	if by == core.ByPerson {
		return byPerson
	}
	return byApp
}

// ended: request id no longer waits. One the windows answered closes by
// itself; any other turns read-only, saying why.
func (d *Desk) ended(id string, answered bool, cause string) {
	r, ok := d.request(id)
	if !ok {
		return
	}
	if answered {
		r.ended = true
		return
	}
	r.goStale(core.StaleWords(r.Server.Name, cause))
}

// completed: a URL request's server said the step is done, or went away.
func (d *Desk) completed(id string, gone bool) {
	if r, ok := d.request(id); ok {
		r.complete(gone)
	}
}

// waitingNow keeps how many requests wait, for the quit question, and
// shows how many of them have no window.
func (d *Desk) waitingNow(n core.Count) {
	d.waiting, d.windowless = n.All, n.Windowless
	d.asking.update(n.All)
	d.serversMore.set(n.Windowless)
	for _, r := range d.requests {
		r.more.set(n.Windowless)
	}
}

// show opens the window the person (or, Own, the core) asked for. A
// request's window comes as Open: the core resolves it.
func (d *Desk) show(s core.Show) {
	switch s.Window {
	case core.WindowFront: // a second start, or the wait line's Show, no request waiting
		if d.welcome != nil { // it says what to do
			d.showWelcome()
		} else {
			d.serversWin.Show()
		}
	case core.WindowServers:
		if s.Menu { // the tray host shows no menus: this window has the tray's entries
			d.menuOnServers()
		}
		switch {
		case s.Own:
			d.serversWin.Appear()
		case s.Server != "":
			d.serversWin.ShowServer(s.Server)
		default:
			d.serversWin.Show()
		}
	case core.WindowHosts:
		d.hostsWin.Show()
	case core.WindowHistory:
		d.showHistory()
	case core.WindowTraffic:
		d.showTraffic(trafficview.Of{Server: s.Server})
	case core.WindowSettings:
		d.showSettings()
	case core.WindowWelcome:
		if s.Own {
			d.welcomeBy(byApp)
		} else {
			d.showWelcome()
		}
	case core.WindowAbout:
		d.showAbout()
	case core.WindowHelp:
		d.showHelp()
	case core.WindowQuit:
		d.askQuit()
	}
	d.addAppKeys()
}
