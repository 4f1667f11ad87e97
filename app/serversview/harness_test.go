package serversview

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/internal/testkit/demotest"
	"github.com/elicitdesk/elicitdesk/internal/testkit/uitest"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/config"
	"github.com/elicitdesk/elicitdesk/servers/signin"
)

func TestMain(m *testing.M) {
	demotest.Serve()
	os.Exit(m.Run())
}

// harness is the Servers window over a real manager watching a real
// servers.json. UI work that the window posts from other goroutines runs
// on the test goroutine, in waitFor, as fyne.Do runs it on the UI
// goroutine in the app.
type harness struct {
	t       *testing.T
	path    string
	router  *servers.Router
	asked   chan *servers.Elicitation // what the router asks, for the test to answer
	bridges *servers.Bridges
	w       *Window
	links   chan linkRequest // what ShowLinks was asked to show

	mu   sync.Mutex
	ui   []func()
	wake chan struct{}
}

// linkRequest is one call of ShowLinks; closing done says the person is done.
type linkRequest struct {
	who   servers.Identity
	links []servers.Params
	done  chan struct{}
}

// newHarness writes file (servers.json's content) and shows the window.
func newHarness(t *testing.T, file []byte) *harness {
	t.Helper()
	return newHarnessWith(t, file, nil)
}

// newHarnessWith is newHarness with the manager signing in to remote
// servers with signer, unless it is nil.
func newHarnessWith(t *testing.T, file []byte, signer *signin.Signer) *harness {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, v := range []string{"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"} {
		t.Setenv(v, filepath.Join(home, v))
	}
	a := test.NewTempApp(t)
	a.Settings().SetTheme(look.New())
	h := &harness{t: t, path: config.Path(os.Getenv("XDG_CONFIG_HOME")), links: make(chan linkRequest, 4), wake: make(chan struct{}, 1)}
	if err := os.MkdirAll(filepath.Dir(h.path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(h.path, file, 0o600); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	h.router = servers.NewRouter(servers.DefaultLimits, log)
	h.asked = make(chan *servers.Elicitation, 8)
	h.router.OnAsked(func(e *servers.Elicitation) { h.asked <- e })
	var w *Window
	m := servers.NewManager(h.router, log, func(servers.Status) { w.Update() })
	if signer != nil {
		m.UseSigner(signer)
	}
	h.bridges = servers.NewBridges(func() { w.BridgesChanged() })
	w = New(a, Deps{Servers: managerServers{m}, Bridged: h.bridges.List, ConfigPath: h.path, ShowLinks: h.showLinks, Log: log, Do: h.post})
	h.w = w
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); w.Close(); m.Close() })
	if err := m.Watch(ctx, h.path, func(error) { w.Update() }); err != nil {
		t.Fatal(err)
	}
	w.Show()
	w.Window().Resize(fyne.NewSize(1000, 660))
	return h
}

// newDemoHarness shows the window over servers.json holding entries.
func newDemoHarness(t *testing.T, entries ...config.Server) *harness {
	t.Helper()
	return newHarness(t, configBytes(t, entries...))
}

// configBytes is servers.json holding entries.
func configBytes(t *testing.T, entries ...config.Server) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "servers.json")
	if err := (&config.File{Path: path, Servers: entries}).Save(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func (h *harness) showLinks(who servers.Identity, links []servers.Params) <-chan struct{} {
	done := make(chan struct{})
	h.links <- linkRequest{who, links, done}
	return done
}

// post queues UI work for the test goroutine.
func (h *harness) post(f func()) {
	h.mu.Lock()
	h.ui = append(h.ui, f)
	h.mu.Unlock()
	select {
	case h.wake <- struct{}{}:
	default:
	}
}

// runUI runs the UI work queued so far.
func (h *harness) runUI() {
	h.mu.Lock()
	fs := h.ui
	h.ui = nil
	h.mu.Unlock()
	for _, f := range fs {
		f()
	}
}

// waitFor runs UI work until cond holds.
func (h *harness) waitFor(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		h.runUI()
		if cond() {
			return
		}
		select {
		case <-h.wake:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			h.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// row is the window's row of a server, or nil.
func (h *harness) row(name string) *row {
	for i := range h.w.rows {
		if h.w.rows[i].Name == name {
			return &h.w.rows[i]
		}
	}
	return nil
}

// waitState waits until the list shows a server in state.
func (h *harness) waitState(name string, state servers.State) {
	h.t.Helper()
	h.waitFor(name+" "+string(state), func() bool {
		r := h.row(name)
		return r != nil && r.state() == state
	})
}

// selectServer selects a server in the list, as a click does.
func (h *harness) selectServer(name string) {
	h.t.Helper()
	for i, r := range h.w.list.rows {
		if r.Name == name {
			h.w.list.list.Select(i)
			return
		}
	}
	h.t.Fatalf("%s is not listed", name)
}

// readyDetail waits until the list shows name ready, selects it, and
// returns the detail showing it.
func (h *harness) readyDetail(name string) *detail {
	h.t.Helper()
	h.waitState(name, servers.StateReady)
	h.selectServer(name)
	h.runUI()
	return h.w.detail
}

// configured reads servers.json back.
func (h *harness) configured() *config.File {
	h.t.Helper()
	cfg, err := config.Load(h.path)
	if err != nil {
		h.t.Fatal(err)
	}
	return cfg
}

// button finds a button by its text anywhere under o.
func button(t *testing.T, o fyne.CanvasObject, text string) *widget.Button {
	t.Helper()
	for _, c := range test.LaidOutObjects(o) {
		if b, ok := uitest.Button(c); ok && b.Text == text && b.Visible() {
			return b
		}
	}
	t.Fatalf("no button %q", text)
	return nil
}

// managerServers are a manager's connections as the core gives them to
// the window.
type managerServers struct{ m *servers.Manager }

func (s managerServers) Statuses() []servers.Status { return s.m.Statuses() }
func (s managerServers) Block(string) error         { return errors.New("no other machine in these tests") }
func (s managerServers) Retry(name string) bool     { return s.m.Retry(name) }
func (s managerServers) Restart(name string) bool   { return s.m.Restart(name) }
func (s managerServers) SignOut(name string) error  { return s.m.SignOut(name) }
func (s managerServers) SignIn(ctx context.Context, name string, progress func(signin.Status)) error {
	return s.m.SignIn(ctx, name, progress)
}

func (s managerServers) Tools(ctx context.Context, server string) ([]servers.Tool, servers.Identity, error) {
	conn, ok := s.m.Conn(server)
	if !ok {
		return nil, servers.Identity{}, fmt.Errorf("%s is not connected; try again once it is ready", server)
	}
	tools, err := conn.Tools(ctx)
	return tools, conn.Identity(), err
}

func (s managerServers) CallTool(ctx context.Context, server, tool string, args map[string]any, _ bool) (*servers.ToolResult, servers.Identity, error) {
	conn, ok := s.m.Conn(server)
	if !ok {
		return nil, servers.Identity{}, fmt.Errorf("%s is not connected; try again once it is ready", server)
	}
	res, err := conn.CallTool(ctx, tool, args)
	return res, conn.Identity(), err
}
