//go:build linux

package tray

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/godbus/dbus/v5/prop"

	"github.com/elicitdesk/elicitdesk/internal/testkit/dbustest"
	"github.com/elicitdesk/elicitdesk/internal/testkit/leaktest"
)

// liveWatcher is a fake StatusNotifierWatcher whose host comes and goes,
// as a desktop's panel does.
type liveWatcher struct {
	conn  *dbus.Conn
	props *prop.Properties
}

// startWatcher owns the watcher's name on the bus at addr, saying it has a
// host when host is set.
func startWatcher(t *testing.T, addr string, host bool) *liveWatcher {
	t.Helper()
	conn := dbustest.Own(t, addr, watcherName)
	if err := conn.Export(&watcher{items: make(chan string, 4)}, watcherPath, watcherName); err != nil {
		t.Fatal(err)
	}
	props, err := prop.Export(conn, watcherPath, prop.Map{watcherName: {
		"IsStatusNotifierHostRegistered": {Value: host, Emit: prop.EmitFalse},
		"ProtocolVersion":                {Value: int32(0)},
	}})
	if err != nil {
		t.Fatal(err)
	}
	return &liveWatcher{conn: conn, props: props}
}

// host registers a host with the watcher, or unregisters it, as KDE's
// watcher tells when the panel starts or goes while the watcher stays.
func (w *liveWatcher) host(t *testing.T, on bool) {
	t.Helper()
	w.props.SetMust(watcherName, "IsStatusNotifierHostRegistered", on)
	member := "StatusNotifierHostUnregistered"
	if on {
		member = "StatusNotifierHostRegistered"
	}
	if err := w.conn.Emit(watcherPath, watcherName+"."+member); err != nil {
		t.Fatal(err)
	}
}

// next is the next change the watch tells, failing after wait.
func next(t *testing.T, changes <-chan bool) bool {
	t.Helper()
	select {
	case host, ok := <-changes:
		if !ok {
			t.Fatal("the watch ended")
		}
		return host
	case <-time.After(wait):
		t.Fatal("the watch told no change")
	}
	return false
}

// testSettle is how long TestWatchHost's watch lets the desktop settle:
// the panel it restarts at once is back well within it.
const testSettle = 200 * time.Millisecond

// quiet checks that the watch tells nothing for a while.
func quiet(t *testing.T, changes <-chan bool) {
	t.Helper()
	select {
	case host := <-changes:
		t.Fatalf("the watch told %v; want nothing", host)
	case <-time.After(3 * testSettle):
	}
}

// TestWatchHost: the watch tells when the desktop's tray host goes and
// when one comes back, whether the watcher goes with its host (swaybar's
// name vanishes) or stays and says so (KDE's), and tells nothing of a
// panel that is back at once; it ends with its context.
func TestWatchHost(t *testing.T) {
	leaks := leaktest.Check(t)
	addr := dbustest.Bus(t)
	t.Setenv(busEnv, addr)
	log := slog.New(slog.NewTextHandler(testWriter{t}, nil))

	w := startWatcher(t, addr, true)
	ctx, cancel := context.WithCancel(context.Background())
	changes := watchSettling(ctx, true, testSettle, log)

	// The watcher's owner exits, as swaybar does.
	w.conn.Close()
	if next(t, changes) {
		t.Fatal("the watcher went, but the watch says a host shows the icon")
	}
	// A new one comes, at first without a host, then with one.
	w = startWatcher(t, addr, false)
	quiet(t, changes)
	w.host(t, true)
	if !next(t, changes) {
		t.Fatal("a host registered, but the watch says none shows the icon")
	}
	// The panel goes while the watcher stays, and comes back.
	w.host(t, false)
	if next(t, changes) {
		t.Fatal("the host unregistered, but the watch says one shows the icon")
	}
	w.host(t, true)
	if !next(t, changes) {
		t.Fatal("the host came back, but the watch says none shows the icon")
	}
	// A panel restarted at once: its watcher gone and back within the
	// settling time changes nothing.
	w.conn.Close()
	w = startWatcher(t, addr, true)
	quiet(t, changes)

	cancel()
	if _, ok := <-changes; ok {
		t.Fatal("the watch told a change after its context ended")
	}
	w.conn.Close() // the test's own connection, before counting goroutines
	leaks()
}

// TestWatchHostMissed: a host that went between Host and the watch's
// start is told at once.
func TestWatchHostMissed(t *testing.T) {
	addr := dbustest.Bus(t)
	t.Setenv(busEnv, addr)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if next(t, WatchHost(ctx, true, slog.New(slog.DiscardHandler))) {
		t.Fatal("no watcher runs, but the watch says a host shows the icon")
	}
}

// TestWatchHostWithoutBus: without a session bus the watch ends at once.
func TestWatchHostWithoutBus(t *testing.T) {
	t.Setenv(busEnv, "disabled:")
	select {
	case _, ok := <-WatchHost(context.Background(), false, slog.New(slog.DiscardHandler)):
		if ok {
			t.Fatal("the watch told a change without a bus")
		}
	case <-time.After(wait):
		t.Fatal("the watch did not end without a bus")
	}
}

// testWriter logs into the test's output.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(b []byte) (int, error) {
	w.t.Helper()
	w.t.Log(string(b))
	return len(b), nil
}
