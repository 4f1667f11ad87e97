package core

import (
	"fmt"

	"github.com/elicitdesk/elicitdesk/assets"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/desktop/autostart"
	"github.com/elicitdesk/elicitdesk/internal/desktop/tray"
	"github.com/elicitdesk/elicitdesk/servers"
)

// MenuEntry is one of Elicit Desk's own menu entries: a window to show,
// launch at login to turn on or off, or a separator (the zero entry).
type MenuEntry struct {
	Label  string
	Window Window // WindowQuit: quit, asking first while requests wait
	Login  bool
}

// Menu is Elicit Desk's own menu, after the requests: in the core's tray
// and, where no tray host shows it, in the Servers window's menu bar.
var Menu = []MenuEntry{
	{Label: "Servers…", Window: WindowServers},
	{Label: "Hosts…", Window: WindowHosts},
	{Label: "History…", Window: WindowHistory},
	{Label: "Traffic…", Window: WindowTraffic},
	{Label: "Settings…", Window: WindowSettings},
	{Label: "Welcome…", Window: WindowWelcome},
	{Label: "Launch at login", Login: true},
	{},
	{Label: "Help", Window: WindowHelp},
	{Label: "About Elicit Desk…", Window: WindowAbout},
	{},
	{Label: "Quit", Window: WindowQuit},
}

// Tray shows the core's state in t from now on: the requests that wait
// and the servers that cannot connect; its entries open the windows.
func (c *Core) Tray(t *tray.Tray, login autostart.Entry) {
	c.mu.Lock()
	c.tray, c.login = t, login
	c.mu.Unlock()
	t.OnIcon(c.IconClicked)
	c.refreshTray()
}

// IconClicked is a click on the tray icon where the host shows no menu
// (swaybar), which would have listed the requests that wait: the oldest
// of them comes forward, as at a second start, else the Servers window
// with the tray's entries in its menu bar.
func (c *Core) IconClicked() {
	if len(c.pending.all()) > 0 {
		c.Show(Show{Window: WindowFront})
		return
	}
	c.Show(Show{Window: WindowServers, Menu: true})
}

// TrayShown reports whether a tray host shows the core's icon, as
// TrayHost was last told: a windows' process starts knowing it.
func (c *Core) TrayShown() bool { return c.feed.tray() }

// TrayHost tells the core whether a tray host shows its icon: at start,
// what tray.Host said, and then each change tray.WatchHost hears. The
// core is the one that knows; the windows are told (Events.Tray). When
// the host goes away (the panel crashed or was turned off, swaybar
// exited), the Servers window stands in for the tray at once, without
// the keyboard, starting the windows' process if none runs, as at a start
// without a tray host, though requests wait: the tray menu that listed
// them is gone. When a host comes back, the windows go back to the
// tray's ways for what they show next.
func (c *Core) TrayHost(shown bool) {
	if !c.feed.setTray(shown) {
		return
	}
	c.log.Debug("whether a tray host shows the icon changed", "shown", shown)
	if shown || c.ctx.Err() != nil || c.quitting.Load() {
		return
	}
	c.feed.push(event{show: &Show{Window: WindowServers, Own: true}})
	c.needUI()
}

// refreshTray shows the current requests and servers in the tray. The
// state is read and shown under one lock, so a refresh that read an older
// state cannot show it after a newer one; Set returns at once.
func (c *Core) refreshTray() {
	c.refreshing.Lock()
	defer c.refreshing.Unlock()
	c.mu.Lock()
	t := c.tray
	c.mu.Unlock()
	if t == nil || c.ctx.Err() != nil {
		return
	}
	st := c.trayState()
	t.Set(st.icon(), c.trayItems(st))
}

// TrayItems is the tray's menu now.
func (c *Core) TrayItems() []tray.Item { return c.trayItems(c.trayState()) }

func (c *Core) trayState() trayState {
	windowed, windowless := c.pending.split()
	return trayStateOf(windowed, windowless, c.manager.Statuses())
}

// trayState is what the tray shows: the requests that wait, those with a
// window and those without, and the enabled servers that cannot connect.
type trayState struct {
	windowed, windowless []*waiting // each in arrival order
	down                 []string   // in name order
}

func trayStateOf(windowed, windowless []*waiting, statuses []servers.Status) trayState {
	st := trayState{windowed: windowed, windowless: windowless}
	for _, s := range statuses {
		if CannotConnect(s) {
			st.down = append(st.down, s.Name)
		}
	}
	return st
}

// CannotConnect reports whether an enabled server is down: failed, trying
// again after a failure, or waiting for the person to sign in. A disabled
// or stopped server is not a problem, and one connecting for the first
// time not yet.
func CannotConnect(s servers.Status) bool {
	switch s.State {
	case servers.StateFailed, servers.StateNeedsSignIn:
		return true
	case servers.StateConnecting:
		return !s.FailedSince.IsZero()
	}
	return false
}

// icon is the tray icon: a dot while requests wait, a warning mark while a
// server cannot connect.
func (st trayState) icon() []byte {
	return assets.TrayIconPNG(st.waiting() > 0, len(st.down) > 0)
}

// waiting is how many requests wait, with a window or without.
func (st trayState) waiting() int { return len(st.windowed) + len(st.windowless) }

// summary is the menu's first line: how many requests wait.
func (st trayState) summary() string {
	switch n := st.waiting(); n {
	case 0:
		return "No requests waiting"
	case 1:
		return "1 request waiting"
	default:
		return fmt.Sprintf("%d requests waiting", n)
	}
}

// downLine is the menu's line about the servers that cannot connect; ""
// when all can.
func (st trayState) downLine() string {
	switch len(st.down) {
	case 0:
		return ""
	case 1:
		return untrusted.Text(st.down[0]).Short(menuName) + " can't connect…"
	default:
		return fmt.Sprintf("%d servers can't connect…", len(st.down))
	}
}

// trayItems is the tray menu: the servers that cannot connect, how many
// requests wait, those in a window and those waiting for one, each group
// in arrival order, then Menu.
func (c *Core) trayItems(st trayState) []tray.Item {
	var items []tray.Item
	if line := st.downLine(); line != "" {
		first := st.down[0]
		items = append(items, tray.Item{Label: line, Action: func() { c.Show(Show{Window: WindowServers, Server: first}) }})
	}
	items = append(items, tray.Item{Label: st.summary(), Disabled: true})
	for _, g := range []struct {
		heading string
		list    []*waiting
	}{{"In a window", st.windowed}, {"Waiting for a window", st.windowless}} {
		if len(g.list) == 0 {
			continue
		}
		items = append(items, tray.Item{Separator: true}, tray.Item{Label: g.heading, Disabled: true})
		for _, w := range g.list {
			id := w.ID
			items = append(items, tray.Item{Label: MenuLabel(w.e), Action: func() { c.Show(Show{Window: WindowRequest, Request: id}) }})
		}
	}
	items = append(items, tray.Item{Separator: true})
	c.mu.Lock()
	login := c.login
	c.mu.Unlock()
	for _, e := range Menu {
		switch {
		case e.Login:
			on, err := login.Enabled()
			items = append(items, tray.Item{Label: e.Label, Check: true, Checked: err == nil && on, Action: func() { c.toggleLogin(login) }})
		case e.Window == WindowQuit:
			items = append(items, tray.Item{Label: e.Label, Action: c.askQuit})
		case e.Window != "":
			items = append(items, tray.Item{Label: e.Label, Action: func() { c.Show(Show{Window: e.Window}) }})
		default:
			items = append(items, tray.Item{Separator: true})
		}
	}
	return items
}

// toggleLogin turns launch at login on or off; where the system refuses,
// the log says why.
func (c *Core) toggleLogin(login autostart.Entry) {
	on, _ := login.Enabled()
	var err error
	if on {
		err = login.Disable()
	} else {
		err = login.Enable()
	}
	if err != nil {
		c.log.Error("launch at login not changed", "err", err)
	}
	c.refreshTray()
}

// askQuit quits at once when no request waits, and otherwise has the UI
// ask the person first.
func (c *Core) askQuit() {
	if len(c.pending.all()) > 0 {
		c.Show(Show{Window: WindowQuit})
		return
	}
	c.Quit()
}

// menuName is how many characters of a server's name a menu shows.
const menuName = 32

// MenuLabel is a request in a menu: the server and the first words of
// its message.
func MenuLabel(e *servers.Elicitation) string {
	return untrusted.Text(e.Server.Name).Short(menuName) + ": " + e.Message.Headline(48) + e.Received.Local().Format(" (15:04:05)")
}
