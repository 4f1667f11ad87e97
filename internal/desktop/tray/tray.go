// Package tray shows an icon and a menu in the desktop's tray, over
// fyne.io/systray and without Fyne's windows or GL, for a process that
// stays resident and must idle quietly: on Linux and the BSDs it speaks
// StatusNotifierItem and com.canonical.dbusmenu on the DBus session bus,
// on macOS an NSStatusItem, on Windows a notification-area icon.
//
// systray keeps its state in package variables and cannot start again
// once stopped, so a process shows one Tray, once. On Linux it holds the
// item on godbus's shared connection (dbus.SessionBus) and closes that
// connection with the tray: other DBus clients in the process should dial
// connections of their own.
package tray

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"

	"fyne.io/systray"
)

// Item is one menu entry: a label, or a separator when Separator is set.
// A Check entry is a check item, ticked when Checked, so that an unticked
// one still reads as something that can be ticked; a Checked entry is
// always a check item. A disabled entry, or one without an Action, cannot
// be picked.
type Item struct {
	Label                               string
	Disabled, Check, Checked, Separator bool
	Action                              func()
}

// Tray is the icon and menu in the tray.
type Tray struct {
	log     *slog.Logger
	loop    loop          // systray's event loop, as the platform runs it
	stop    func()        // ends the tray (Close, or Start's context ending)
	wake    chan struct{} // a Set waits to be shown; buffered, one is enough
	stopped chan struct{} // closed once the tray is gone

	mu      sync.Mutex
	icon    []byte // what Set asked for, shown by show
	items   []Item
	menu    int      // the menu shown, counted: a click on an earlier one is stale
	actions []func() // the shown menu's actions, by position
	queue   []func() // picked entries' actions waiting to run
	running bool     // a goroutine is running the queue
	closed  bool     // no action starts any more
	onIcon  func()   // see OnIcon
}

// started is set by the first Start: systray cannot show a second tray.
var started atomic.Bool

// Start shows icon (PNG bytes) and items in the tray, until Close or ctx
// ends, or on Linux until its session bus connection ends (Run returns
// then; the error is logged, never a panic). title names the tray for the desktop: its tooltip, and on Linux
// the StatusNotifierItem's Title and Id (hosts remember by the Id whether
// the person hid the item, so it should not change between runs). An error says no tray can be shown: no
// session bus answers (Linux), systray could not set up (Windows), or a
// tray was already started in this process. On Linux an item is shown
// whenever a tray host runs: Host tells whether one does now.
//
// On macOS the tray shows once the main goroutine calls Run.
func Start(ctx context.Context, title string, icon []byte, items []Item, log *slog.Logger) (*Tray, error) {
	if err := available(ctx); err != nil {
		return nil, err
	}
	if !started.CompareAndSwap(false, true) {
		return nil, errors.New("a tray was already started in this process")
	}
	t := &Tray{
		log:     log,
		wake:    make(chan struct{}, 1),
		stopped: make(chan struct{}),
		icon:    icon,
		items:   slices.Clone(items),
	}
	ready, iconShown, err := t.loop.start(ctx, title, icon, t.iconClicked)
	if err != nil {
		return nil, err
	}
	var shown []byte
	if iconShown {
		shown = icon
	}
	ctx, t.stop = context.WithCancel(ctx)
	go t.run(ctx, ready, shown)
	return t, nil
}

// Set replaces the icon and the whole menu, from any goroutine. It returns
// at once; the tray shows the latest Set. A menu that looks the same as
// the one shown (labels, marks, separators, which entries can be picked)
// keeps its entries and takes the new actions, so the desktop sees no
// change.
func (t *Tray) Set(icon []byte, items []Item) {
	t.mu.Lock()
	t.icon, t.items = icon, slices.Clone(items)
	t.mu.Unlock()
	select {
	case t.wake <- struct{}{}:
	default: // a wake is pending already
	}
}

// OnIcon makes f run, as a picked entry's action does, when the person
// clicks the icon of a tray host that cannot show menus: swaybar 1.7
// asks the item to show its menu itself, which systray cannot, so a click
// there did nothing. Elsewhere a click opens the menu, and f is not run.
func (t *Tray) OnIcon(f func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.onIcon = f
}

// iconClicked queues OnIcon's function.
func (t *Tray) iconClicked() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.onIcon != nil {
		t.enqueue(t.onIcon)
	}
}

// Close removes the tray and waits until it is gone; no action starts
// after it returns (one running, say the one that called Close, runs on).
// It may be called more than once.
func (t *Tray) Close() {
	t.stop()
	<-t.stopped
}

// Run gives the tray the calling goroutine where the platform needs one,
// and returns once the tray is gone (Close, Start's context ending, or on
// Linux its session bus connection ending).
// On macOS AppKit runs on the main thread only, and Run runs its event
// loop there: call it from the program's main goroutine (systray locks
// that goroutine to the main thread when the program starts), after
// Start. On Linux and Windows the tray needs no goroutine of the caller's
// and Run only waits.
func (t *Tray) Run() {
	t.loop.run()
	<-t.stopped
}

// run shows what Set asks for until ctx ends or the platform loses the
// tray (its bus connection ended), then removes the tray; icon is the one
// shown already, if any. It is the only goroutine that changes systray's
// menu and icon, so changes arrive in order.
func (t *Tray) run(ctx context.Context, ready <-chan struct{}, icon []byte) {
	defer close(t.stopped)
	var clicks sync.WaitGroup // the goroutines that pass entries' clicks on
	select {
	case <-ready:
		var menu menuLook
		lost := t.loop.lost()
	shown:
		for ctx.Err() == nil {
			icon, menu = t.show(icon, menu, &clicks)
			select {
			case <-t.wake:
			case <-ctx.Done():
			case <-lost:
				t.log.Warn("the tray is gone: its session bus connection ended")
				break shown
			}
		}
	case <-ctx.Done():
	}
	t.mu.Lock()
	t.closed, t.queue = true, nil
	t.mu.Unlock()
	systray.ResetMenu() // closes the entries' ClickedCh, which ends their goroutines
	clicks.Wait()
	t.loop.stop()
}

// show puts what Set asked for in the tray; icon and menu are what it
// shows, which it returns updated.
func (t *Tray) show(icon []byte, menu menuLook, clicks *sync.WaitGroup) ([]byte, menuLook) {
	t.mu.Lock()
	wantIcon, items := t.icon, t.items
	actions := make([]func(), len(items))
	for i, it := range items {
		actions[i] = it.Action
	}
	look := lookOf(items)
	same := slices.Equal(look, menu)
	if !same {
		t.menu++ // clicks on the menu shown until now are stale from here on
	}
	t.actions = actions
	id := t.menu
	t.mu.Unlock()

	if !bytes.Equal(wantIcon, icon) {
		if err := setIcon(wantIcon); err != nil {
			t.log.Warn("tray icon not shown", "err", err)
		}
	}
	if same {
		return wantIcon, menu
	}
	systray.ResetMenu()
	for i, e := range look {
		if e.separator {
			systray.AddSeparator()
			continue
		}
		var item *systray.MenuItem
		if e.check {
			item = systray.AddMenuItemCheckbox(e.label, "", e.checked)
		} else {
			item = systray.AddMenuItem(e.label, "")
		}
		if !e.picked {
			item.Disable()
			continue // nobody needs its clicks
		}
		clicks.Add(1)
		go func() {
			defer clicks.Done()
			// systray drops a click when nobody receives it, so this
			// goroutine only hands it on; Remove (ResetMenu) closes the
			// channel and so ends it.
			for range item.ClickedCh {
				t.clicked(id, i)
			}
		}()
	}
	return wantIcon, look
}

// clicked queues the action of entry i of menu number menu, unless that
// menu has been replaced since, and makes sure a goroutine runs the queue.
func (t *Tray) clicked(menu, i int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if menu == t.menu {
		t.enqueue(t.actions[i])
	}
}

// enqueue queues action, unless the tray is closed, and makes sure a
// goroutine runs the queue; t.mu is held.
func (t *Tray) enqueue(action func()) {
	if t.closed {
		return
	}
	t.queue = append(t.queue, action)
	if !t.running {
		t.running = true
		go t.deliver()
	}
}

// deliver runs the queued actions in order, outside the lock, then ends.
func (t *Tray) deliver() {
	for {
		t.mu.Lock()
		if len(t.queue) == 0 || t.closed {
			t.running = false
			t.mu.Unlock()
			return
		}
		action := t.queue[0]
		t.queue = t.queue[1:]
		t.mu.Unlock()
		action()
	}
}

// menuLook is a menu as the desktop shows it: what tells two menus apart
// for the person.
type menuLook []entryLook

type entryLook struct {
	label                             string
	check, checked, separator, picked bool // picked: it can be picked
}

func lookOf(items []Item) menuLook {
	look := make(menuLook, len(items))
	for i, it := range items {
		if it.Separator {
			look[i] = entryLook{separator: true}
			continue
		}
		look[i] = entryLook{label: it.Label, check: it.Check || it.Checked, checked: it.Checked, picked: !it.Disabled && it.Action != nil}
	}
	return look
}
