// Package serversview is the Servers window: every configured MCP server
// with its status light, identity, protocol, last error and stderr; adding,
// editing, enabling, disabling and removing entries of servers.json; and
// each server's tools, which can be called with arguments entered in a form
// or as JSON. The Fyne code is kept thin: what to show and what to save is
// decided by plain functions tested without a window.
package serversview

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"

	"github.com/elicitdesk/elicitdesk/app/keys"
	"github.com/elicitdesk/elicitdesk/app/modal"
	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/gate"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/desktop/screen"
	"github.com/elicitdesk/elicitdesk/internal/desktop/xwin"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/config"
	"github.com/elicitdesk/elicitdesk/servers/signin"
)

// Servers are the connections the window shows and works with: the
// core's, in its process or from the windows' process.
type Servers interface {
	// Statuses are where each configured server stands, in name order.
	Statuses() []servers.Status
	// Retry brings forward the next attempt to connect, and reports
	// whether one was waiting.
	Retry(name string) bool
	// Restart connects to a server again at once, a local command's
	// process started anew, and reports whether the server is known.
	Restart(name string) bool
	SignIn(ctx context.Context, name string, progress func(signin.Status)) error
	SignOut(name string) error
	// Tools lists a connected server's tools.
	Tools(ctx context.Context, server string) ([]servers.Tool, servers.Identity, error)
	// CallTool calls a tool of a connected server; script is false for the
	// window's calls: they do not wait for a server still connecting, and
	// the window shows a -32042 error's links itself.
	CallTool(ctx context.Context, server, tool string, args map[string]any, script bool) (*servers.ToolResult, servers.Identity, error)
	// Block stops answering another machine's bridges (elicitdesk
	// remote): the requests it waits on end.
	Block(machine string) error
}

// Deps are what the window works with.
type Deps struct {
	// Servers gives the statuses and calls on the live connections.
	Servers Servers
	// Bridged lists the hosts' sessions through elicitdesk bridge, below
	// the servers; nil lists none.
	Bridged func() []servers.Bridged
	// ConfigPath is servers.json. Edits load it, change one entry and save;
	// the app's Manager.Watch applies the saved file by itself.
	ConfigPath string
	// ShowLinks shows the URL elicitations a tool call's -32042 error
	// carries, the same way as URL-mode requests; done is closed when the
	// person has dealt with all of them.
	ShowLinks func(who servers.Identity, links []servers.Params) (done <-chan struct{})
	// ShowTraffic opens the Traffic window on a configured server's
	// messages, or on a bridged session's; nil offers no Traffic buttons.
	ShowTraffic func(server, session string)
	Log         *slog.Logger
	// Do runs a function on the UI goroutine, later; nil means fyne.Do.
	// Tests whose driver runs fyne.Do inline pass a queue of their own.
	Do func(func())
	// Now is the clock of the countdown to a retry; nil means time.Now.
	Now func() time.Time
	// Tick is how often the countdown moves; 0 means every second.
	Tick time.Duration
	// Screen says where a new window goes, on the UI goroutine; nil
	// means screen.Fallback.
	Screen func() screen.Screen
	// Top is shown above the servers, such as the line of requests that
	// wait for a window; nil shows nothing there.
	Top fyne.CanvasObject
}

// Window is the Servers window. Its fyne.Window is made on first Show and
// only hidden when closed, so selection and open calls survive.
type Window struct {
	app  fyne.App
	deps Deps

	mu sync.Mutex // guards the flags below, set off the UI goroutine
	// refreshing: a goroutine reads servers.json and the statuses; stale:
	// they changed since it last began to.
	refreshing, stale bool
	// takenBridges counts the lists of bridged sessions taken.
	takenBridges uint64

	work gate.Gate // goWork's goroutines and the ticker; shut by Close: no more updates
	// ctx ends at Close, and with it the ticker and the sign-ins under way.
	ctx    context.Context
	cancel context.CancelFunc

	// The rest belongs to the UI goroutine.
	// opened is whether the window was sized and placed: later it keeps
	// the size and place the person gave it.
	opened  bool
	visible bool // shown and not hidden since
	// shownBridges is the latest list of bridged sessions shown.
	shownBridges uint64
	bridged      []servers.Bridged
	rows         []row
	fileErr      error // why servers.json could not be read, if it could not
	selected     string
	win          fyne.Window
	list         *serverList
	detail       *detail
	tools        *toolsPane
	editor       *editor                       // the open Add/Edit dialog, if any
	calls        map[string]*callWindow        // open call windows by server and tool
	stopTicking  chan struct{}                 // ends the ticker while one runs
	signIns      map[string]signInAttempt      // by server, while one runs or after it failed
	cancels      map[string]context.CancelFunc // ends each sign-in under way
	// onClose is what the close button, Ctrl+W and Escape do, when set;
	// else they hide the window.
	onClose func()
	menu    *fyne.MainMenu // the menu bar, kept for a window not made yet
}

// New returns the Servers window; nothing is shown until Show.
func New(a fyne.App, d Deps) *Window {
	if d.Log == nil {
		d.Log = slog.Default()
	}
	if d.Do == nil {
		d.Do = fyne.Do
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Tick == 0 {
		d.Tick = time.Second
	}
	if d.Screen == nil {
		d.Screen = screen.Fallback
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Window{app: a, deps: d, calls: map[string]*callWindow{},
		ctx: ctx, cancel: cancel, signIns: map[string]signInAttempt{}, cancels: map[string]context.CancelFunc{}}
}

// Show shows the window and brings it to the front with the keyboard: the
// person asked for it.
func (w *Window) Show() {
	w.show()
	w.win.RequestFocus()
}

// Appear shows the window without taking the keyboard from the application
// the person works in: the app opened it by itself, at a start without a
// tray.
func (w *Window) Appear() {
	if !w.visible { // shown for the first time, or again since hidden
		xwin.Quiet(w.Window())
	}
	w.show()
}

func (w *Window) show() {
	w.visible = true
	if !w.opened {
		w.opened = true
		w.deps.Screen().Show(w.Window(), fyne.NewSize(1000, 660)) // preferred
	}
	w.Window().Show()
	w.refresh()
}

// ShowServer shows the window with name selected, for the tray's line
// about servers that cannot connect.
func (w *Window) ShowServer(name string) {
	w.Window()
	w.selected = name
	w.showRows()
	w.Show()
}

// FormAsked tells the call windows whose call to server runs that a form
// asking message came from server: each says what hosts do with it.
func (w *Window) FormAsked(server string, message untrusted.Text, s *forms.Schema) {
	for _, c := range w.calls {
		if c.server == server && c.state.stage == callRunning {
			c.formAsked(message, s)
		}
	}
}

// TopChanged lays the window out again once Deps.Top showed or hid:
// Fyne redraws an unfocused window around a container just shown, but
// not the container, until its whole content is refreshed.
func (w *Window) TopChanged() {
	if w.win != nil {
		w.win.Content().Refresh()
	}
}

// Hide hides the window, keeping its state for the next Show.
func (w *Window) Hide() {
	w.visible = false
	if w.win != nil {
		w.win.Hide()
	}
}

// Visible reports whether the window shows: made, shown and not hidden
// since.
func (w *Window) Visible() bool { return w.visible }

// SetOnClose makes the close button, Ctrl+W and Escape call f instead of
// hiding the window, as where the window stands in for the tray; nil
// hides it again. A window not made yet gets it when made.
func (w *Window) SetOnClose(f func()) { w.onClose = f }

// SetMenu gives the window a menu bar, or none for nil: now, or when the
// window is made. A windows' process started for a request need not make
// a window it does not show.
func (w *Window) SetMenu(m *fyne.MainMenu) {
	w.menu = m
	if w.win != nil {
		w.win.SetMainMenu(m)
	}
}

// close is what the close button, Ctrl+W and Escape do.
func (w *Window) close() {
	if w.onClose != nil {
		w.onClose()
		return
	}
	w.Hide()
}

// HiddenAs reports whether win is this window, made and hidden: there
// but not showing.
func (w *Window) HiddenAs(win fyne.Window) bool { return w.win != nil && win == w.win && !w.visible }

// Window is the window itself, made on first use.
func (w *Window) Window() fyne.Window {
	if w.win == nil {
		w.build()
	}
	return w.win
}

// Update tells the window the servers' statuses changed, one or all: it
// reads them afresh. It may be called from any goroutine.
func (w *Window) Update() { w.refresh() }

// refresh reads servers.json and every status in the background, off the
// UI goroutine because it reads a file, and then shows them. One
// goroutine reads at a time, again while refreshes were asked for during
// its read, so what shows last was read last; the lock guards only the
// flags, never the read.
func (w *Window) refresh() {
	w.mu.Lock()
	w.stale = true
	running := w.refreshing
	w.refreshing = true
	w.mu.Unlock()
	if running {
		return
	}
	w.goWork(func() {
		for {
			w.mu.Lock()
			if !w.stale {
				w.refreshing = false
				w.mu.Unlock()
				return
			}
			w.stale = false
			w.mu.Unlock()
			statuses := w.deps.Servers.Statuses()
			cfg, err := config.Load(w.deps.ConfigPath)
			w.do(func() {
				w.rows, w.fileErr = mergeRows(cfg, statuses), err
				if w.win != nil {
					w.showRows()
				}
			})
		}
	})
}

// goWork runs f in a goroutine that Close waits for, unless the window
// is closed.
func (w *Window) goWork(f func()) { w.work.Go(f) }

// do runs f on the UI goroutine, unless the window is closed by then.
func (w *Window) do(f func()) {
	w.deps.Do(func() {
		if !w.work.IsShut() {
			f()
		}
	})
}

// Close stops the window's updates and waits for those under way: the
// manager's last status changes, as it shuts down after the UI loop has
// ended, must not reach widgets. Call it before closing the manager.
func (w *Window) Close() {
	w.work.Shut()
	w.cancel()
	w.work.Wait()
}

// now is the window's clock.
func (w *Window) now() time.Time { return w.deps.Now() }

// viewStatus is r's status as the Overview shows it now.
func (w *Window) viewStatus(r row) statusView {
	return viewStatus(r, w.signIns[r.Name], w.now())
}

// tick moves the countdowns on; the ticker calls it while one shows.
func (w *Window) tick() {
	if w.win == nil {
		return
	}
	if r := w.selectedRow(); r != nil {
		v := w.viewStatus(*r)
		w.detail.showStatus(v)
		w.keepTicking(v.Ticking)
	}
}

// keepTicking starts the window's one ticker when a countdown shows and
// stops it when none does.
func (w *Window) keepTicking(need bool) {
	switch {
	case need && w.stopTicking == nil:
		stop := make(chan struct{})
		w.stopTicking = stop
		w.goWork(func() {
			t := time.NewTicker(w.deps.Tick)
			defer t.Stop()
			for {
				select {
				case <-t.C:
					w.do(w.tick)
				case <-stop:
					return
				case <-w.ctx.Done():
					return
				}
			}
		})
	case !need && w.stopTicking != nil:
		close(w.stopTicking)
		w.stopTicking = nil
	}
}

// retryServer asks the manager to try the server at once.
func (w *Window) retryServer(name string) {
	if w.deps.Servers.Retry(name) {
		w.detail.retry.Disable() // until the new status shows
	}
}

func (w *Window) build() {
	w.win = w.app.NewWindow("Servers — Elicit Desk")
	k := keys.Close(w.win, w.close)

	w.list = newServerList(w)
	w.detail = newDetail(w)
	w.tools = newToolsPane(w, k)
	tabs := container.NewAppTabs(
		// Scrolled, so a small screen shows the window whole.
		container.NewTabItemWithIcon("Overview", theme.InfoIcon(), container.NewVScroll(w.detail.content)),
		container.NewTabItemWithIcon("Tools", theme.ListIcon(), w.tools.content),
	)
	k.Tabs(tabs)
	split := container.NewHSplit(w.list.content, tabs)
	split.Offset = 0.28
	w.win.SetContent(keys.Border(w.deps.Top, nil, nil, nil, split)) // Tab: the wait line, then the servers
	w.win.SetCloseIntercept(w.close)
	if w.menu != nil {
		w.win.SetMainMenu(w.menu)
	}
	w.showRows()
	w.showBridged()
}

// showRows brings the list and the selected server's panes up to date.
// A selected server missing from the rows stays selected: it may be one
// just added or renamed that a snapshot taken before the save lacks.
func (w *Window) showRows() {
	if w.selected == "" && len(w.rows) > 0 {
		w.selected = w.rows[0].Name
	}
	w.list.show(w.rows, w.selected, w.fileErr)
	w.showSelected()
}

// selectedRow is the row of the selected server, or nil.
func (w *Window) selectedRow() *row {
	for i := range w.rows {
		if w.rows[i].Name == w.selected {
			return &w.rows[i]
		}
	}
	return nil
}

// selectServer makes name the server the panes show.
func (w *Window) selectServer(name string) {
	if name == w.selected {
		return
	}
	w.selected = name
	w.showSelected()
}

func (w *Window) showSelected() {
	r := w.selectedRow()
	w.detail.show(r)
	w.tools.show(r)
	w.keepTicking(r != nil && w.viewStatus(*r).Ticking)
}

// showError reports a failed action in a dialog over the window.
func (w *Window) showError(what string, err error) {
	w.deps.Log.Warn(what, "err", err)
	modal.Tell(w.win.Canvas(), "Something went wrong", err.Error(), nil)
}
