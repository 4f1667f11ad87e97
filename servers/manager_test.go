package servers

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/testkit/proctest"
	"github.com/elicitdesk/elicitdesk/servers/config"
)

// waitFor waits until cond holds, looking again at each change of m's
// statuses, failing after a generous while.
func waitFor(t *testing.T, m *Manager, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		changed := m.feed.next() // before looking, so no change is missed
		if cond() {
			return
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// goroutinesBack waits until no more than two goroutines run beyond
// baseline. Goroutines end without an event to wait on: it looks every
// few milliseconds.
func goroutinesBack(t *testing.T, baseline int) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); runtime.NumGoroutine() > baseline+2; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines left, %d before", runtime.NumGoroutine(), baseline)
		}
	}
}

func statusOf(m *Manager, name string) Status {
	for _, s := range m.Statuses() {
		if s.Name == name {
			return s
		}
	}
	return Status{}
}

func TestManagerFollowsConfig(t *testing.T) {
	m := NewManager(NewRouter(DefaultLimits, quietLog()), quietLog(), nil)
	defer m.Close()
	demo := demoStdio(t)
	broken := config.Server{Name: "broken", Err: errors.New("servers.json:4:9: url and command both set")}
	off := demo
	off.Name, off.Disabled = "off", true
	m.Apply(&config.File{Servers: []config.Server{demo, broken, off}})

	waitFor(t, m, "demo ready", func() bool { return statusOf(m, "demo").State == StateReady })
	if st := statusOf(m, "demo"); st.Identity.Reported.Name != "elicitdesk-demo" || st.Protocol == "" {
		t.Errorf("demo status %+v", st)
	}
	if st := statusOf(m, "broken"); st.State != StateFailed || st.Err == nil {
		t.Errorf("broken entry status %+v", st)
	}
	if st := statusOf(m, "off"); st.State != StateDisabled {
		t.Errorf("disabled entry status %+v", st)
	}
	first, _ := m.Conn("demo")

	// Unchanged entries keep their connection; removed ones stop.
	m.Apply(&config.File{Servers: []config.Server{demo}})
	if c, _ := m.Conn("demo"); c != first {
		t.Error("an unchanged server was reconnected")
	}
	if len(m.Statuses()) != 1 {
		t.Errorf("statuses %v", m.Statuses())
	}
	// A changed entry restarts.
	changed := demo
	changed.Env = map[string]string{demoEnv: "1", "X": "y"}
	m.Apply(&config.File{Servers: []config.Server{changed}})
	waitFor(t, m, "demo ready again", func() bool {
		c, ok := m.Conn("demo")
		return ok && c != first
	})
	select {
	case <-first.Lost():
	default:
		t.Error("the old connection of a changed server is still open")
	}
}

// TestApplyStopsWithoutTheLock removes a server that is slow to exit (it
// ignores its stdin closing and SIGTERM) and asks for the statuses, as
// the UI goroutine does, while Apply stops it: Statuses must answer while
// the server still runs, not wait until Apply is done with it.
func TestApplyStopsWithoutTheLock(t *testing.T) {
	stopping := make(chan struct{}, 1)
	m := NewManager(NewRouter(DefaultLimits, quietLog()), quietLog(), func(st Status) {
		if st.Name == "slow" && st.State == StateStopped {
			select {
			case stopping <- struct{}{}:
			default:
			}
		}
	})
	defer m.Close()
	slow := demoStdio(t)
	slow.Name = "slow"
	slow.Env = map[string]string{demoEnv: "1", slowExitEnv: "1"}
	m.Apply(&config.File{Servers: []config.Server{slow}})
	waitFor(t, m, "slow ready", func() bool { return statusOf(m, "slow").State == StateReady })
	c, _ := m.Conn("slow")

	applied := make(chan struct{})
	go func() {
		m.Apply(&config.File{})
		close(applied)
	}()
	<-stopping // Apply is closing the connection: the server's stdin, then SIGTERM, then SIGKILL
	listed := make(chan []Status, 1)
	go func() { listed <- m.Statuses() }()
	select {
	case <-listed:
		select {
		case <-applied:
			t.Fatal("Statuses answered only once Apply had stopped the server")
		default: // the server still runs: Apply waits for it without the lock
		}
	case <-applied:
		t.Fatal("Statuses waited until Apply had stopped the server")
	}
	c.proc.group.Kill() // no need to wait for the SIGKILL of Stop
	<-applied
	if st := m.Statuses(); len(st) != 0 {
		t.Errorf("statuses after removing the server: %v", st)
	}
}

// TestReconnectCycles kills a stdio server 100 times. Each time the manager
// must see it die, say why, and reconnect; at the end no child process may
// be left and no goroutine may have leaked.
func TestReconnectCycles(t *testing.T) {
	cycles := 100
	if testing.Short() {
		cycles = 10
	}
	baseline := runtime.NumGoroutine()
	m := NewManager(NewRouter(DefaultLimits, quietLog()), quietLog(), nil)
	m.backoff = Backoff{Min: time.Millisecond, Max: 10 * time.Millisecond}
	m.Apply(&config.File{Servers: []config.Server{cycledDemo(t)}})

	var pids []int
	var prev *Conn
	for i := range cycles {
		var c *Conn
		waitFor(t, m, "a new connection", func() bool {
			var ok bool
			c, ok = m.Conn("demo")
			return ok && c != prev
		})
		pids = append(pids, c.proc.cmd.Process.Pid) // its keeper, on Linux, which ends after the server
		if i == cycles-1 {
			break
		}
		c.proc.group.Kill()
		<-c.Lost()
		if c.Err() == nil {
			t.Fatal("a lost connection without a reason")
		}
		prev = c
	}
	m.Close()

	for _, pid := range pids {
		if !proctest.Gone(pid) {
			t.Errorf("server process %d outlived its connection", pid)
		}
	}
	goroutinesBack(t, baseline)
	t.Logf("%d cycles, %d processes, goroutines %d → %d", cycles, len(pids), baseline, runtime.NumGoroutine())
}

// cycledDemo is the demo server TestReconnectCycles starts a hundred
// times: the app make test built, as people run it, when there is one.
// The race-built test binary, the other choice, costs several times the
// CPU to start, and the cycles test the manager, not the demo.
func cycledDemo(t *testing.T) config.Server {
	if bin := os.Getenv("ELICITDESK_BIN"); bin != "" {
		return config.Server{Name: "demo", Command: bin, Args: []string{"demo-server"}, Transport: config.TransportStdio}
	}
	return demoStdio(t)
}

// TestManagerWatchesConfig edits servers.json under a running manager: new
// entries connect, a broken file changes nothing but is told as read, a
// removed entry stops.
func TestManagerWatchesConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "servers.json")
	demo := demoStdio(t)
	write := func(names ...string) {
		cfg := &config.File{Path: path}
		for _, n := range names {
			s := demo
			s.Name = n
			cfg.Servers = append(cfg.Servers, s)
		}
		if err := cfg.Save(); err != nil {
			t.Fatal(err)
		}
	}
	write("one")
	rejected := logged("servers.json not applied")
	m := NewManager(NewRouter(DefaultLimits, quietLog()), slog.New(rejected), nil)
	defer m.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reads := make(chan error, 16)
	if err := m.Watch(ctx, path, func(err error) { reads <- err }); err != nil {
		t.Fatal(err)
	}
	if err := <-reads; err != nil {
		t.Fatalf("the first reading: %v", err)
	}
	waitFor(t, m, "one ready", func() bool { return statusOf(m, "one").State == StateReady })
	write("one", "two")
	waitFor(t, m, "two ready", func() bool { return statusOf(m, "two").State == StateReady })
	os.WriteFile(path, []byte(`{"mcpServers": {`), 0o600)
	select {
	case <-rejected.seen:
	case <-time.After(30 * time.Second):
		t.Fatal("the broken file was never read")
	}
	for err := range reads { // the readings of the writes before, then the broken one's
		if err != nil {
			break
		}
	}
	if len(m.Statuses()) != 2 {
		t.Fatalf("a broken file changed the servers: %v", m.Statuses())
	}
	write("two")
	waitFor(t, m, "one gone", func() bool { return len(m.Statuses()) == 1 && m.Statuses()[0].Name == "two" })
}

// logWatch is a log handler that closes seen once msg is logged.
type logWatch struct {
	msg  string
	once *sync.Once
	seen chan struct{}
}

func logged(msg string) logWatch {
	return logWatch{msg: msg, once: new(sync.Once), seen: make(chan struct{})}
}

func (w logWatch) Enabled(context.Context, slog.Level) bool { return true }
func (w logWatch) WithAttrs([]slog.Attr) slog.Handler       { return w }
func (w logWatch) WithGroup(string) slog.Handler            { return w }
func (w logWatch) Handle(_ context.Context, r slog.Record) error {
	if r.Message == w.msg {
		w.once.Do(func() { close(w.seen) })
	}
	return nil
}

// TestManagerWatchesSymlinkedConfig disables a server the way the Servers
// window does, by saving servers.json, when that file is a symlink to one
// in another directory: the save goes through the link, and the server stops.
func TestManagerWatchesSymlinkedConfig(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	target := filepath.Join(t.TempDir(), "shared.json")
	demo := demoStdio(t)
	if err := (&config.File{Path: target, Servers: []config.Server{demo}}).Save(); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "servers.json")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	m := NewManager(NewRouter(DefaultLimits, quietLog()), quietLog(), nil)
	defer m.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := m.Watch(ctx, link, nil); err != nil {
		t.Fatal(err)
	}
	waitFor(t, m, "demo ready", func() bool { return statusOf(m, "demo").State == StateReady })

	cfg, err := config.Load(link)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Servers[0].Disabled = true
	if err := cfg.Save(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, m, "demo disabled", func() bool { return statusOf(m, "demo").State == StateDisabled })
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("servers.json is no longer a symlink: %v (%v)", fi.Mode(), err)
	}
}

// TestSameConfigConsidersEveryField changes each field of config.Server in
// turn and checks that sameConfig sees it, unless the field is known to
// change nothing about connecting: a field added to config.Server fails
// here until sameConfig compares it or it joins ignored.
func TestSameConfigConsidersEveryField(t *testing.T) {
	ignored := map[string]bool{"Warnings": true, "raw": true}
	base := config.Server{Name: "a", Command: "srv", Transport: config.TransportStdio}
	typ := reflect.TypeFor[config.Server]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		t.Run(f.Name, func(t *testing.T) {
			if !f.IsExported() {
				if !ignored[f.Name] {
					t.Fatalf("unexported field %s: compare it in sameConfig or add it to ignored", f.Name)
				}
				return
			}
			changed := base
			v := reflect.ValueOf(&changed).Elem().Field(i)
			switch v.Kind() {
			case reflect.String:
				v.SetString("changed")
			case reflect.Bool:
				v.SetBool(!v.Bool())
			case reflect.Int:
				v.SetInt(v.Int() + 7)
			case reflect.Slice:
				v.Set(reflect.Append(v, reflect.ValueOf("changed")))
			case reflect.Map:
				v.Set(reflect.ValueOf(map[string]string{"changed": "yes"}))
			case reflect.Interface:
				v.Set(reflect.ValueOf(errors.New("changed")))
			default:
				t.Fatalf("field %s of kind %s: teach this test to change it", f.Name, v.Kind())
			}
			if got, want := sameConfig(base, changed), ignored[f.Name]; got != want {
				t.Errorf("sameConfig with %s changed = %v, want %v", f.Name, got, want)
			}
		})
	}
}

// TestOnStatusMayCallTheManager has onStatus call Statuses, as a window
// refreshing its list does, while Apply starts, changes and stops servers:
// with onStatus called under the manager's lock this deadlocked. It also
// checks that each server's changes arrive in the order they happened.
func TestOnStatusMayCallTheManager(t *testing.T) {
	var m *Manager
	var mu sync.Mutex
	states := map[string][]State{}
	m = NewManager(NewRouter(DefaultLimits, quietLog()), quietLog(), func(st Status) {
		m.Statuses()
		mu.Lock()
		states[st.Name] = append(states[st.Name], st.State)
		mu.Unlock()
	})
	done := make(chan struct{})
	go func() {
		defer close(done)
		demo := demoStdio(t)
		broken := config.Server{Name: "broken", Err: errors.New("servers.json:4:9: url and command both set")}
		m.Apply(&config.File{Servers: []config.Server{demo, broken}})
		if _, err := m.WaitReady(context.Background(), "demo"); err != nil {
			t.Error(err)
		}
		m.Apply(&config.File{})
		m.Close()
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("deadlock: Apply and onStatus wait for each other")
	}
	mu.Lock()
	defer mu.Unlock()
	want := map[string][]State{
		"demo":   {StateConnecting, StateReady, StateStopped},
		"broken": {StateFailed},
	}
	if !reflect.DeepEqual(states, want) {
		t.Errorf("status changes %v, want %v", states, want)
	}
}

// TestWaitReady waits for a server that is connecting, and gives up when
// its context ends for one that never connects.
func TestWaitReady(t *testing.T) {
	m := NewManager(NewRouter(DefaultLimits, quietLog()), quietLog(), nil)
	defer m.Close()
	off := demoStdio(t)
	off.Name, off.Disabled = "off", true
	m.Apply(&config.File{Servers: []config.Server{demoStdio(t), off}})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := m.WaitReady(ctx, "demo")
	if err != nil {
		t.Fatal(err)
	}
	if live, _ := m.Conn("demo"); live != c {
		t.Error("WaitReady returned another connection than Conn")
	}
	short, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := m.WaitReady(short, "off"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a disabled server: %v, want the context's deadline", err)
	}
}

// TestApplyAfterClose: a config change that races with Close starts
// nothing, since nothing would stop what it started.
func TestApplyAfterClose(t *testing.T) {
	m := NewManager(NewRouter(DefaultLimits, quietLog()), quietLog(), nil)
	m.Close()
	m.Apply(&config.File{Servers: []config.Server{demoStdio(t)}})
	if st := m.Statuses(); len(st) != 0 {
		t.Fatalf("a closed manager runs %v", st)
	}
}

// TestStderrAcrossRestarts: a server that crashed and was started again
// keeps its last words on show, before what the new one wrote and a line
// saying when it started.
func TestStderrAcrossRestarts(t *testing.T) {
	m := NewManager(NewRouter(DefaultLimits, quietLog()), quietLog(), nil)
	defer m.Close()
	m.backoff = Backoff{Min: time.Millisecond, Max: 10 * time.Millisecond}
	cfg := demoStdio(t)
	cfg.Env[crashOnceEnv] = filepath.Join(t.TempDir(), "crashed")
	m.Apply(&config.File{Servers: []config.Server{cfg}})
	var first *Conn
	waitFor(t, m, "the first server", func() bool { var ok bool; first, ok = m.Conn("demo"); return ok })
	first.CallTool(t.Context(), "ask_confirm", nil) // it crashes as it asks
	waitFor(t, m, "the second server", func() bool {
		c, ok := m.Conn("demo")
		return ok && c != first && strings.Count(statusOf(m, "demo").Stderr, "booking server started") == 2
	})
	got := statusOf(m, "demo").Stderr
	want := regexp.MustCompile(`^booking server started\nFATAL: booking db connection lost, exiting\n── started again at \d\d:\d\d:\d\d ──\nbooking server started\n$`)
	if !want.MatchString(got) {
		t.Errorf("stderr %q, want it to match %s", got, want)
	}
}
