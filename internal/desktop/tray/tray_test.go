//go:build linux

package tray

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/godbus/dbus/v5/prop"

	"github.com/elicitdesk/elicitdesk/assets"
	"github.com/elicitdesk/elicitdesk/internal/testkit/dbustest"
	"github.com/elicitdesk/elicitdesk/internal/testkit/leaktest"
)

const (
	itemPath = "/StatusNotifierItem"
	menuPath = "/StatusNotifierItem/menu"
	itemFace = "org.kde.StatusNotifierItem"
	menuFace = "com.canonical.dbusmenu"
	busEnv   = "DBUS_SESSION_BUS_ADDRESS"
	wait     = 10 * time.Second // how long the tray gets to answer
)

// watcher is a fake StatusNotifierWatcher: it hands on the bus name of
// each item that registers.
type watcher struct{ items chan string }

func (w *watcher) RegisterStatusNotifierItem(sender dbus.Sender, _ string) *dbus.Error {
	w.items <- string(sender)
	return nil
}

func (w *watcher) RegisterStatusNotifierHost(string) *dbus.Error { return nil }

// serveWatcher runs a fake watcher on the bus at addr, saying it has a host
// when host is set; without props it has no properties at all.
func serveWatcher(t *testing.T, addr string, props, host bool) *watcher {
	t.Helper()
	conn := dbustest.Own(t, addr, watcherName)
	w := &watcher{items: make(chan string, 4)}
	if err := conn.Export(w, watcherPath, watcherName); err != nil {
		t.Fatal(err)
	}
	if props {
		_, err := prop.Export(conn, watcherPath, prop.Map{watcherName: {
			"IsStatusNotifierHostRegistered": {Value: host},
			"ProtocolVersion":                {Value: int32(0)},
		}})
		if err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func TestHost(t *testing.T) {
	tests := []struct {
		name                 string
		bus, watcher, props  bool
		hostRegistered       bool
		wantBus, wantHostNow bool
	}{
		{"no bus", false, false, false, false, false, false},
		{"a bus without a watcher", true, false, false, false, true, false},
		{"a watcher without a host", true, true, true, false, true, false},
		{"a watcher with a host", true, true, true, true, true, true},
		{"a watcher that does not say", true, true, false, false, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			addr := "disabled:" // no transport dials it
			if tt.bus {
				addr = dbustest.Bus(t)
			}
			if tt.watcher {
				serveWatcher(t, addr, tt.props, tt.hostRegistered)
			}
			t.Setenv(busEnv, addr)
			bus, host := Host(context.Background())
			if bus != tt.wantBus || host != tt.wantHostNow {
				t.Errorf("Host = %v, %v; want %v, %v", bus, host, tt.wantBus, tt.wantHostNow)
			}
		})
	}
}

// TestStartWithoutBus: without a session bus Start says so, and starts
// nothing (TestTray starts the process's one tray after it).
func TestStartWithoutBus(t *testing.T) {
	t.Setenv(busEnv, "disabled:")
	tr, err := Start(context.Background(), "Test", assets.TrayIconPNG(false, false), nil, slog.New(slog.DiscardHandler))
	if err == nil {
		tr.Close()
		t.Fatal("Start without a bus succeeded")
	}
}

// entry is a menu entry as a tray host reads it over com.canonical.dbusmenu.
type entry struct {
	id        int32
	label     string
	enabled   bool
	toggle    string // "checkmark" or ""
	checked   bool
	separator bool
}

func (e entry) String() string {
	if e.separator {
		return "----"
	}
	s := e.label
	if !e.enabled {
		s += " (disabled)"
	}
	if e.toggle != "" {
		s += " [" + e.toggle + " " + strconv.FormatBool(e.checked) + "]"
	}
	return s
}

// host reads the tray as a tray host does.
type host struct {
	t    *testing.T
	conn *dbus.Conn
	item string // the item's bus name
}

// layout is the menu and its revision.
func (h host) layout() (uint32, []entry) {
	h.t.Helper()
	var revision uint32
	var root struct {
		ID       int32
		Props    map[string]dbus.Variant
		Children []dbus.Variant
	}
	err := h.conn.Object(h.item, menuPath).Call(menuFace+".GetLayout", 0, int32(0), int32(-1), []string{}).Store(&revision, &root)
	if err != nil {
		h.t.Fatalf("GetLayout: %v", err)
	}
	var entries []entry
	for _, c := range root.Children {
		fields := c.Value().([]any)
		props := fields[1].(map[string]dbus.Variant)
		e := entry{id: fields[0].(int32)}
		if v, ok := props["type"]; ok && v.Value() == "separator" {
			e.separator = true
		} else {
			e.label, _ = props["label"].Value().(string)
			e.enabled, _ = props["enabled"].Value().(bool)
			e.toggle, _ = props["toggle-type"].Value().(string)
			state, _ := props["toggle-state"].Value().(int32)
			e.checked = state == 1
		}
		entries = append(entries, e)
	}
	return revision, entries
}

// menu is the menu as text, one entry a line.
func (h host) menu() string {
	h.t.Helper()
	_, entries := h.layout()
	return menuText(entries)
}

func menuText(entries []entry) string {
	lines := make([]string, len(entries))
	for i, e := range entries {
		lines[i] = e.String()
	}
	return strings.Join(lines, "\n")
}

// waitMenu waits until the menu is want.
func (h host) waitMenu(want string) {
	h.t.Helper()
	deadline := time.Now().Add(wait)
	for got := h.menu(); got != want; got = h.menu() {
		if time.Now().After(deadline) {
			h.t.Fatalf("menu:\n%s\nwant:\n%s", got, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// click picks the entry labelled label, as a host does when the person
// clicks it.
func (h host) click(label string) {
	h.t.Helper()
	_, entries := h.layout()
	i := slices.IndexFunc(entries, func(e entry) bool { return e.label == label })
	if i < 0 {
		h.t.Fatalf("no entry %q in\n%s", label, menuText(entries))
	}
	err := h.conn.Object(h.item, menuPath).Call(menuFace+".Event", 0, entries[i].id, "clicked", dbus.MakeVariant(""), uint32(0)).Err
	if err != nil {
		h.t.Fatalf("Event clicked on %q: %v", label, err)
	}
}

// property reads one of the item's properties.
func (h host) property(name string) any {
	h.t.Helper()
	v, err := h.conn.Object(h.item, itemPath).GetProperty(itemFace + "." + name)
	if err != nil {
		h.t.Fatalf("%s: %v", name, err)
	}
	return v.Value()
}

// waitIcon waits until the item's pixels are png's.
func (h host) waitIcon(png []byte) {
	h.t.Helper()
	want := argb(h.t, png)
	deadline := time.Now().Add(wait)
	for {
		var got []struct {
			W, H int32
			Pix  []byte
		}
		if err := dbus.Store([]any{h.property("IconPixmap")}, &got); err != nil {
			h.t.Fatal(err)
		}
		if len(got) == 1 && bytes.Equal(got[0].Pix, want) {
			return
		}
		if time.Now().After(deadline) {
			h.t.Fatal("the item does not show the icon set")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// argb is png's pixels as StatusNotifierItem carries them: ARGB32 in
// network byte order.
func argb(t *testing.T, png []byte) []byte {
	t.Helper()
	img, _, err := image.Decode(bytes.NewReader(png))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	var out []byte // as systray makes it: from RGBA(), alpha-premultiplied
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			out = append(out, byte(a), byte(r), byte(g), byte(bl))
		}
	}
	return out
}

// recorder notes the actions run, in order.
type recorder struct {
	mu   sync.Mutex
	runs []string
	ran  chan struct{} // a token per run
}

func (r *recorder) action(name string) func() {
	return func() {
		r.mu.Lock()
		r.runs = append(r.runs, name)
		r.mu.Unlock()
		r.ran <- struct{}{}
	}
}

// waitRuns waits for n more runs and returns all runs so far.
func (r *recorder) waitRuns(t *testing.T, n int) []string {
	t.Helper()
	for range n {
		select {
		case <-r.ran:
		case <-time.After(wait):
			t.Fatal("an action did not run")
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.runs)
}

// TestTray shows the tray to a fake watcher and reads it as a tray host
// does: the item registers, Set changes the menu and the icon, clicks run
// their actions once each and in order, and Close takes the item off the
// bus and leaves no goroutine behind. A process shows one tray, so this is
// one test.
func TestTray(t *testing.T) {
	addr := dbustest.Bus(t)
	w := serveWatcher(t, addr, true, true)
	t.Setenv(busEnv, addr)
	h := host{t: t, conn: dbustest.Conn(t, addr)}
	leaks := leaktest.Check(t)
	rec := &recorder{ran: make(chan struct{}, 16)}

	first := []Item{
		{Label: "No requests waiting", Disabled: true},
		{Separator: true},
		{Label: "Servers…", Action: rec.action("servers")},
		{Label: "Launch at login", Checked: true, Action: rec.action("login")},
		{Label: "Help"}, // no action: nothing to pick
		{Separator: true},
		{Label: "Quit", Action: rec.action("quit")},
	}
	icon := assets.TrayIconPNG(false, false)
	tr, err := Start(context.Background(), "Elicit Desk", icon, first, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	select {
	case h.item = <-w.items:
	case <-time.After(wait):
		t.Fatal("the item did not register with the watcher")
	}
	if _, err := Start(context.Background(), "Again", icon, nil, slog.New(slog.DiscardHandler)); err == nil {
		t.Error("a second Start in the process succeeded")
	}

	h.waitMenu(strings.Join([]string{
		"No requests waiting (disabled)",
		"----",
		"Servers…",
		"Launch at login [checkmark true]",
		"Help (disabled)",
		"----",
		"Quit",
	}, "\n"))
	h.waitIcon(icon)
	for name, want := range map[string]any{"Title": "Elicit Desk", "Id": "Elicit Desk", "Status": "Active", "ItemIsMenu": true} {
		if got := h.property(name); got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}

	// A host that cannot show menus (swaybar) asks the item to show its
	// menu itself: OnIcon's function runs; before OnIcon, nothing does.
	contextMenu := func() error {
		return h.conn.Object(h.item, itemPath).Call(itemFace+".ContextMenu", 0, int32(10), int32(20)).Err
	}
	if err := contextMenu(); err != nil {
		t.Errorf("ContextMenu without OnIcon: %v", err)
	}
	tr.OnIcon(rec.action("icon"))
	if err := contextMenu(); err != nil {
		t.Errorf("ContextMenu: %v", err)
	}
	if got := rec.waitRuns(t, 1); !slices.Equal(got, []string{"icon"}) {
		t.Errorf("actions run %q, want the icon's", got)
	}

	// Set: another menu and icon.
	busy := assets.TrayIconPNG(true, true)
	second := []Item{
		{Label: "demo can't connect…", Action: rec.action("demo")},
		{Label: "1 request waiting", Disabled: true},
		{Separator: true},
		{Label: "demo: Deploy? (12:00:00)", Action: rec.action("request")},
		{Separator: true},
		{Label: "Launch at login", Check: true, Action: rec.action("login")},
		{Label: "Quit", Action: rec.action("quit")},
	}
	tr.Set(busy, second)
	h.waitMenu(strings.Join([]string{
		"demo can't connect…",
		"1 request waiting (disabled)",
		"----",
		"demo: Deploy? (12:00:00)",
		"----",
		"Launch at login [checkmark false]",
		"Quit",
	}, "\n"))
	h.waitIcon(busy)

	// Clicks: each runs its action once, in order; a disabled entry runs
	// nothing.
	h.click("1 request waiting")
	h.click("demo: Deploy? (12:00:00)")
	h.click("demo can't connect…")
	if got, want := rec.waitRuns(t, 2), []string{"icon", "request", "demo"}; !slices.Equal(got, want) {
		t.Errorf("actions run %q, want %q", got, want)
	}

	// A Set that looks the same keeps the entries (the same ids: a
	// rebuilt menu has new ones; systray may bump the revision for its
	// own reasons) and takes the new actions. show swaps the actions
	// before it sets the icon, so once the icon shows the new actions are
	// in place.
	_, before := h.layout()
	same := slices.Clone(second)
	same[3].Action = rec.action("request again")
	tr.Set(icon, same)
	h.waitIcon(icon)
	h.click("demo: Deploy? (12:00:00)")
	if got := rec.waitRuns(t, 1); got[len(got)-1] != "request again" {
		t.Errorf("actions run %q: the entry kept its old action", got)
	}
	if _, now := h.layout(); !slices.EqualFunc(before, now, func(a, b entry) bool { return a.id == b.id }) {
		t.Errorf("entries %v → %v: a menu that looks the same was rebuilt", before, now)
	}

	// Close from an action, as the Quit entry does: the item leaves the
	// bus.
	last := slices.Clone(same)
	last[6].Action = func() {
		tr.Close()
		rec.action("quit")()
	}
	tr.Set(busy, last)
	h.waitIcon(busy)
	h.click("Quit")
	rec.waitRuns(t, 1)
	deadline := time.Now().Add(wait)
	for {
		var owned bool
		if err := h.conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, h.item).Store(&owned); err != nil {
			t.Fatal(err)
		}
		if !owned {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the item is still on the bus after Close")
		}
		time.Sleep(10 * time.Millisecond)
	}
	tr.Close() // again: nothing more to do
	tr.Set(icon, first)
	tr.Run() // returns at once: the tray is gone
	leaks()
}

// TestIdle shows a tray in a process of its own and watches it idle: once
// settled, its threads are switched in at most twice a second (the core's
// budget for wakeups). systray on Linux has no timer; the bus connection
// waits in a read.
func TestIdle(t *testing.T) {
	addr := dbustest.Bus(t)
	w := serveWatcher(t, addr, true, true)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=1", busEnv+"="+addr)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close() // the child closes its tray and exits
	h := host{t: t, conn: dbustest.Conn(t, addr)}
	select {
	case h.item = <-w.items:
	case <-time.After(wait):
		t.Fatal("the item did not register with the watcher")
	}
	h.menu() // as a host does once an item registers

	const window, allowed = 2 * time.Second, 4
	var counts []int
	for range 5 {
		before := switches(t, cmd.Process.Pid)
		time.Sleep(window) // the measurement, not a wait for something
		n := switches(t, cmd.Process.Pid) - before
		counts = append(counts, n)
		if n <= allowed {
			t.Logf("context switches per %s: %v; resident: %s", window, counts, resident(t, cmd.Process.Pid))
			return
		}
	}
	t.Errorf("context switches per %s: %v, never at most %d", window, counts, allowed)
}

// switches counts the context switches of process pid's threads so far.
func switches(t *testing.T, pid int) int {
	t.Helper()
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, path := range tasks {
		status, err := os.ReadFile(path)
		if err != nil {
			continue // the thread ended
		}
		for _, line := range strings.Split(string(status), "\n") {
			if name, value, ok := strings.Cut(line, ":"); ok && strings.HasSuffix(name, "ctxt_switches") {
				v, err := strconv.Atoi(strings.TrimSpace(value))
				if err != nil {
					t.Fatal(err)
				}
				n += v
			}
		}
	}
	return n
}

// resident is process pid's resident memory, as /proc says it.
func resident(t *testing.T, pid int) string {
	t.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if value, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			return strings.TrimSpace(value)
		}
	}
	return "unknown"
}

// childEnv makes the test binary a process that shows a tray until its
// standard input closes: TestIdle's subject, and a tray to look at on a
// desktop (TRAY_TEST_CHILD=1 ./tray.test).
const childEnv = "TRAY_TEST_CHILD"

func TestMain(m *testing.M) {
	if how := os.Getenv(loseEnv); how != "" {
		os.Exit(loseBus(how))
	}
	if os.Getenv(childEnv) != "" {
		os.Exit(child())
	}
	os.Exit(m.Run())
}

// loseEnv makes the test binary a process whose tray loses its session bus
// connection: "close" closes it in the process, "bus" waits for the test to
// end the bus.
const loseEnv = "TRAY_TEST_LOSE"

// TestBusLost: a tray whose session bus connection ends, closed in the
// process or dropped by a bus that went away, logs it and ends, and a
// Set after it (a request's icon, as under sway when the panic
// "dbus: connection closed by user" came from systray.SetIcon) neither
// panics nor hangs. Each case is a process of its own: a process shows
// one tray.
func TestBusLost(t *testing.T) {
	for _, how := range []string{"close", "bus"} {
		t.Run(how, func(t *testing.T) {
			addr := dbustest.Bus(t)
			w := serveWatcher(t, addr, true, true)
			h := host{t: t, conn: dbustest.Conn(t, addr)}
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), loseEnv+"="+how, busEnv+"="+addr)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			select {
			case h.item = <-w.items:
			case err := <-exited:
				t.Fatalf("the tray's process exited before its item registered: %v\n%s", err, stderr.String())
			case <-time.After(wait):
				cmd.Process.Kill()
				t.Fatal("the item did not register with the watcher")
			}
			if how == "bus" {
				var pid uint32
				err := h.conn.BusObject().Call("org.freedesktop.DBus.GetConnectionUnixProcessID", 0, "org.freedesktop.DBus").Store(&pid)
				if err != nil {
					t.Fatal(err)
				}
				if err := syscall.Kill(int(pid), syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
			}
			stdin.Close() // lose the connection, if the process does, then Set
			select {
			case err = <-exited:
			case <-time.After(2 * wait):
				cmd.Process.Kill()
				t.Fatalf("the tray's process did not end\n%s", stderr.String())
			}
			out := stderr.String()
			if err != nil || strings.Contains(out, "panic") {
				t.Fatalf("the tray's process: %v\n%s", err, out)
			}
			if !strings.Contains(out, "session bus connection ended") {
				t.Errorf("the tray did not say its connection ended:\n%s", out)
			}
		})
	}
}

// loseBus shows a tray until standard input closes, loses its bus
// connection as how says, sets a new icon, and checks the tray ends and
// that systray's panic on the closed connection comes back as an error.
func loseBus(how string) int {
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	items := []Item{{Label: "No requests waiting", Disabled: true}}
	// The tray's connection, the shared one, made before the tray shows:
	// once its item is registered, the test may end the bus at any time.
	conn, err := dbus.SessionBus()
	if err != nil {
		log.Error("no shared connection", "err", err)
		return 1
	}
	tr, err := Start(context.Background(), "Elicit Desk", assets.TrayIconPNG(false, false), items, log)
	if err != nil {
		log.Error("no tray", "err", err)
		return 1
	}
	io.Copy(io.Discard, os.Stdin)
	if how == "close" {
		conn.Close()
	}
	<-conn.Context().Done()
	tr.Set(assets.TrayIconPNG(true, true), items) // a request came
	ended := make(chan struct{})
	go func() {
		tr.Run()
		close(ended)
	}()
	select {
	case <-ended:
	case <-time.After(wait):
		log.Error("the tray did not end")
		return 1
	}
	if err := setIcon(assets.TrayIconPNG(false, false)); !errors.Is(err, dbus.ErrClosed) {
		log.Error("setIcon on a closed connection", "err", err, "want", dbus.ErrClosed)
		return 1
	}
	tr.Close()
	return 0
}

// child shows a tray like Elicit Desk's until standard input closes; a
// picked entry says so on standard error.
func child() int {
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	said := func(label string) func() { return func() { log.Info("picked", "entry", label) } }
	items := []Item{
		{Label: "2 requests waiting", Disabled: true},
		{Separator: true},
		{Label: "In a window", Disabled: true},
		{Label: "demo: Deploy to production? (12:00:00)", Action: said("request")},
		{Separator: true},
		{Label: "Servers…", Action: said("servers")},
		{Label: "History…", Action: said("history")},
		{Label: "Launch at login", Checked: true, Action: said("login")},
		{Separator: true},
		{Label: "Quit", Action: said("quit")},
	}
	tr, err := Start(context.Background(), "Elicit Desk", assets.TrayIconPNG(true, false), items, log)
	if err != nil {
		log.Error("no tray", "err", err)
		return 1
	}
	io.Copy(io.Discard, os.Stdin)
	tr.Close()
	return 0
}
