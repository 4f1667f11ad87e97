package app

import (
	"context"
	"errors"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/core"
	"github.com/elicitdesk/elicitdesk/servers"
)

// events are what the core tells the windows, each handled on the UI
// goroutine.
type events struct{ d *Desk }

func (e events) Request(r core.Request)      { e.d.do(func() { e.d.askCore(r) }) }
func (e events) Completed(server, id string) { e.d.local.Complete(server, id) }
func (e events) Bridges([]servers.Bridged)   { e.d.serversWin.BridgesChanged() }
func (e events) Show(s core.Show)            { e.d.do(func() { e.d.show(s) }) }
func (e events) Quit()                       { e.d.do(e.d.exit) }
func (e events) Ended(id string, _ bool, cause string) {
	e.d.do(func() { e.d.ended(id, cause) })
}

func (e events) Servers([]servers.Status) { e.d.serversWin.Update() }

func (e events) HistoryChanged() {
	e.d.do(func() {
		if e.d.historyWin != nil {
			e.d.historyWin.Refresh()
		}
	})
}

// askCore asks a request of the core through the local router, as if its
// server had asked here, and gives the core the person's answer. The core
// checked the request: it is taken as it is. A request told twice (the
// core repeats the pending ones at attach) is asked once.
func (d *Desk) askCore(r core.Request) {
	if _, asked := d.asks[r.ID]; asked {
		return
	}
	p, err := servers.ParseParams(r.Params)
	if err != nil { // not from this core's checks: nobody could answer it
		d.log.Error("a request the core passed on cannot be asked", "server", r.Server.Name, "err", err)
		go d.core.Answer(r.ID, forms.Result{Action: forms.Cancel})
		return
	}
	ctx, cancel := context.WithCancelCause(context.WithValue(d.ctx, coreID{}, r.ID))
	d.asks[r.ID] = cancel
	if r.ByPerson { // a link of the person's own tool call: past the limit, with the keyboard
		d.wanted[r.ID] = true
	}
	go func() {
		defer cancel(nil)
		res, err := d.local.Ask(ctx, r.Server, p)
		if err != nil {
			return // stale, or the windows close
		}
		if err := d.core.Answer(r.ID, res); err != nil {
			d.log.Warn("the answer did not reach the server", "server", r.Server.Name, "err", err)
		}
	}()
}

// ended: the core's request id no longer waits; its window goes stale
// with the core's reason, unless this window answered it.
func (d *Desk) ended(id, cause string) {
	cancel, ok := d.asks[id]
	if !ok {
		return
	}
	delete(d.asks, id)
	delete(d.wanted, id)
	cancel(errors.New(cause))
	d.asking.update(d.pending())
}

// show opens the window the person (or, Own, the core) asked for.
func (d *Desk) show(s core.Show) {
	switch s.Window {
	case core.WindowFront:
		d.Front()
	case core.WindowRequest:
		for _, r := range d.queue.all() {
			if r.coreID == s.Request {
				d.queue.promote(r)
				d.open(r)
				return
			}
		}
		if _, asked := d.asks[s.Request]; asked { // on its way to the queue
			d.wanted[s.Request] = true
		}
	case core.WindowServers:
		switch {
		case s.Own:
			d.whenNoRequests(d.serversWin.Appear)
		case s.Server != "":
			d.serversWin.ShowServer(s.Server)
		default:
			d.serversWin.Show()
		}
	case core.WindowHosts:
		d.hostsWin.Show()
	case core.WindowHistory:
		d.showHistory()
	case core.WindowSettings:
		d.showSettings()
	case core.WindowWelcome:
		if s.Own {
			d.whenNoRequests(func() { d.welcomeBy(byApp) })
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
	d.addQuitKeys()
}
