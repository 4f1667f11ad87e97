package core

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/desktop/notify"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/servers"
)

// started is a core over an empty servers.json in a folder of its own,
// serving the endpoint; starts receives each windows' process it starts.
type started struct {
	c      *Core
	path   string // the endpoint
	starts chan uiProcess
}

// uiProcess is a windows' "process" the core started: its end of the
// private connection, and its exit, which the test sends.
type uiProcess struct {
	conn   io.ReadWriteCloser
	exited chan<- error
}

func start(t *testing.T) *started {
	t.Helper()
	return startWith(t, func(*Options) {})
}

// startWith is start with the Options as edit leaves them.
func startWith(t *testing.T, edit func(*Options)) *started {
	t.Helper()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "servers.json")
	if err := os.WriteFile(cfg, []byte(`{"mcpServers":{}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := &started{path: filepath.Join(dir, "run", "elicitdesk.sock"), starts: make(chan uiProcess, 16)}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	log := slog.New(slog.DiscardHandler)
	opts := Options{ConfigPath: cfg, HistoryPath: filepath.Join(dir, "history.db"), Log: log,
		History: HistoryLimits{Retention: history.DefaultRetention, MaxBytes: history.DefaultMaxBytes},
		// A windows' "process" that the test attaches itself and ends.
		StartUI: func(ctx context.Context) (io.ReadWriteCloser, <-chan error, error) {
			ours, theirs := net.Pipe()
			exited := make(chan error, 1)
			s.starts <- uiProcess{theirs, exited}
			return ours, exited, nil
		}}
	edit(&opts)
	s.c = New(ctx, opts)
	ep, err := endpoint.Listen(ctx, s.path, s.c.Endpoint(), log)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		ep.Close()
		s.c.Close()
	})
	return s
}

// recorder is a UI that keeps what it is told.
type recorder struct {
	mu       sync.Mutex
	requests []Request
	ended    []string
	causes   []string // each Ended's, in order
	servers  int
	counts   []Count
	quit     bool
	trays    []bool // each Tray, in order
	shows    []Show
	done     []string // each Completed's id, with " gone" when the server went away
	taken    int      // every event, as the windows count them for Leave
	changed  chan struct{}
}

func newRecorder() *recorder { return &recorder{changed: make(chan struct{}, 64)} }

func (r *recorder) note(f func()) {
	r.mu.Lock()
	r.taken++
	f()
	r.mu.Unlock()
	select {
	case r.changed <- struct{}{}:
	default:
	}
}

func (r *recorder) Open(q Request, _ Opener) {
	r.note(func() {
		if !slices.ContainsFunc(r.requests, func(x Request) bool { return x.ID == q.ID }) {
			r.requests = append(r.requests, q)
		}
	})
}
func (r *recorder) Ended(id string, _ bool, cause string) {
	r.note(func() { r.ended, r.causes = append(r.ended, id), append(r.causes, cause) })
}
func (r *recorder) Completed(id string, gone bool) {
	r.note(func() {
		if gone {
			id += " gone"
		}
		r.done = append(r.done, id)
	})
}
func (r *recorder) Waiting(n Count)           { r.note(func() { r.counts = append(r.counts, n) }) }
func (r *recorder) Notify(notify.Notice)      { r.note(func() {}) }
func (r *recorder) Servers([]servers.Status)  { r.note(func() { r.servers++ }) }
func (r *recorder) Bridges([]servers.Bridged) { r.note(func() {}) }
func (r *recorder) HistoryChanged()           { r.note(func() {}) }
func (r *recorder) Show(s Show)               { r.note(func() { r.shows = append(r.shows, s) }) }
func (r *recorder) Quit()                     { r.note(func() { r.quit = true }) }
func (r *recorder) Tray(shown bool)           { r.note(func() { r.trays = append(r.trays, shown) }) }

// until waits for cond, read under the recorder's lock, as events come.
func (r *recorder) until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		r.mu.Lock()
		ok := cond()
		r.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-r.changed:
		case <-timeout:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// eventually waits until cond holds, looking every millisecond.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// remoteUI attaches windows over the private connection of p, as the
// windows' process does.
func remoteUI(t *testing.T, p uiProcess) (*Remote, *recorder, context.CancelFunc) {
	t.Helper()
	client := p.conn
	r := NewRemote(client)
	rec := newRecorder()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.Attach(ctx, rec)
	}()
	t.Cleanup(func() {
		cancel()
		client.Close()
		<-done
	})
	return r, rec, func() { cancel(); client.Close(); <-done }
}

// nextUI waits for the next windows' process the core starts, for what.
func (s *started) nextUI(t *testing.T, what string) uiProcess {
	t.Helper()
	select {
	case p := <-s.starts:
		return p
	case <-time.After(20 * time.Second):
		t.Fatalf("no windows' process started for %s", what)
		return uiProcess{}
	}
}

// serveUI connects windows to the core as a started windows' process
// would be, without the core having started one.
func serveUI(t *testing.T, s *started) uiProcess {
	ours, theirs := net.Pipe()
	go s.c.ServeWindows(t.Context(), ours)
	return uiProcess{conn: theirs}
}

// attached waits until windows are attached to the core.
func attached(t *testing.T, s *started) {
	eventually(t, "the windows attached", s.c.feed.attached)
}

func ask(s *started, message string) <-chan error {
	out := make(chan error, 1)
	go func() {
		_, err := s.c.Router().AskRaw(context.Background(), servers.Identity{Name: "notes"},
			json.RawMessage(`{"message":"`+message+`","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}`))
		out <- err
	}()
	return out
}

// TestUICrashKeepsRequests: three requests wait in a UI process that dies
// unanswered; the core starts another, which is given the three again, and
// its answer reaches the server.
func TestUICrashKeepsRequests(t *testing.T) {
	s := start(t)
	var answers []<-chan error
	for i, m := range []string{"one", "two", "three"} {
		answers = append(answers, ask(s, m))
		eventually(t, "the request "+m, func() bool { return len(s.c.pending.all()) > i }) // in this order
	}
	process := <-s.starts // the first request wanted a UI
	_, rec, crash := remoteUI(t, process)
	rec.until(t, "three requests", func() bool { return len(rec.requests) == 3 })
	crash()
	process.exited <- errors.New("signal: killed")
	r, rec, _ := remoteUI(t, <-s.starts) // another, for the requests still pending
	rec.until(t, "the three again", func() bool { return len(rec.requests) == 3 })
	var messages []string
	for _, q := range rec.requests {
		messages = append(messages, servers.LooseParams(q.Params).Message.Line())
	}
	if !slices.Equal(messages, []string{"one", "two", "three"}) {
		t.Errorf("requests %q, want one, two, three in order", messages)
	}
	if err := r.Answer(rec.requests[1].ID, forms.Result{Action: forms.Decline}); err != nil {
		t.Fatal(err)
	}
	if err := <-answers[1]; err != nil {
		t.Errorf("the answer did not reach the server: %v", err)
	}
	if err := r.Answer(rec.requests[1].ID, forms.Result{Action: forms.Accept}); !errors.Is(err, ErrNotWaiting) {
		t.Errorf("a second answer: %v, want ErrNotWaiting", err)
	}
	for _, a := range []<-chan error{answers[0], answers[2]} {
		select {
		case err := <-a:
			t.Errorf("a request nobody answered ended: %v", err)
		default:
		}
	}
	s.c.Flush()
	es, err := s.c.history.Search(context.Background(), history.Query{Limit: 10})
	if err != nil || len(es) != 1 || es[0].Outcome != history.Declined || es[0].Message != "two" {
		t.Errorf("history %+v %v, want two declined", es, err)
	}
}

// TestLeaveLosesNoShow: windows idling out may leave only once they took
// all the core told them, and a window asked for after they were let go
// shows in the next windows' process, not in the leaving one.
func TestLeaveLosesNoShow(t *testing.T) {
	s := start(t)
	s.c.Show(Show{Window: WindowServers})
	first := <-s.starts
	r, rec, exit := remoteUI(t, first)
	rec.until(t, "the Servers window", func() bool { return len(rec.shows) == 1 })
	taken := func() int {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		return rec.taken
	}
	before := taken()
	s.c.Show(Show{Window: WindowHistory})
	if r.Leave(t.Context(), before) {
		t.Fatal("windows that had not taken a Show sent them were let go")
	}
	rec.until(t, "the History window", func() bool { return len(rec.shows) == 2 })
	if !r.Leave(t.Context(), taken()) {
		t.Fatal("idle windows that took everything were kept")
	}
	s.c.Show(Show{Window: WindowSettings}) // as the leaving process exits
	exit()
	first.exited <- nil
	_, next, _ := remoteUI(t, <-s.starts)
	next.until(t, "Settings in the next windows", func() bool {
		return slices.ContainsFunc(next.shows, func(s Show) bool { return s.Window == WindowSettings })
	})
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.shows) != 2 {
		t.Errorf("the windows let go were told %v", rec.shows)
	}
}

// TestCrashRetellsShows: a window asked for just before the windows'
// process died (a lost display, a crash) opens in the next one, which the
// core starts for it.
func TestCrashRetellsShows(t *testing.T) {
	s := start(t)
	s.c.Show(Show{Window: WindowServers, Own: true}) // a first start without a tray
	first := <-s.starts
	_, rec, crash := remoteUI(t, first)
	rec.until(t, "the Servers window", func() bool { return len(rec.shows) == 1 })
	crash()
	first.exited <- errors.New("exit status 1")
	_, next, _ := remoteUI(t, s.nextUI(t, "the window told to the one that died"))
	next.until(t, "Servers in the next windows", func() bool {
		return slices.ContainsFunc(next.shows, func(s Show) bool { return s.Window == WindowServers })
	})
}

// TestNewerUIReplacesOlder: one UI at a time; the newest is told.
func TestNewerUIReplacesOlder(t *testing.T) {
	s := start(t)
	_, old, _ := remoteUI(t, serveUI(t, s))
	old.until(t, "the servers", func() bool { return old.servers > 0 })
	_, rec, _ := remoteUI(t, serveUI(t, s))
	rec.until(t, "the servers", func() bool { return rec.servers > 0 })
	ask(s, "hello")
	rec.until(t, "the request", func() bool { return len(rec.requests) == 1 })
	old.mu.Lock()
	defer old.mu.Unlock()
	if len(old.requests) != 0 {
		t.Errorf("the replaced UI was told %d requests", len(old.requests))
	}
}

// TestQuitTellsTheUI: quitting answers the waiting requests cancel, as an
// app quit in the history, and tells the UI to close.
func TestQuitTellsTheUI(t *testing.T) {
	s := start(t)
	r, rec, _ := remoteUI(t, serveUI(t, s))
	attached(t, s)
	answered := ask(s, "hello")
	rec.until(t, "the request", func() bool { return len(rec.requests) == 1 })
	r.Quit()
	if err := <-answered; err != nil {
		t.Fatal(err)
	}
	s.c.Flush()
	es, err := s.c.history.Search(context.Background(), history.Query{Limit: 10})
	if err != nil || len(es) != 1 || es[0].Outcome != history.AppQuit {
		t.Errorf("history %+v %v, want app-quit", es, err)
	}
	<-s.c.Done()
}

// TestExplainedOverTheWire: a status's error reaches the windows' process
// in the words the core put it in.
func TestExplainedOverTheWire(t *testing.T) {
	st := servers.Status{Name: "files", State: servers.StateFailed, Stderr: "Error: no such folder\n",
		Err: &servers.StartError{Err: errors.New("EOF"), Stderr: "Error: no such folder\n", Exit: exec.Command("/bin/false").Run()}}
	want := servers.Explain(st.Err, st.Stderr)
	raw, err := json.Marshal(toWire(st))
	if err != nil {
		t.Fatal(err)
	}
	var w wireStatus
	if err := json.Unmarshal(raw, &w); err != nil {
		t.Fatal(err)
	}
	if got := servers.Explain(w.status().Err, w.Stderr); got != want || !strings.Contains(got.Summary, "such folder") {
		t.Errorf("explained %+v, want %+v", got, want)
	}
}

// TestTrayState: the icon, the line about servers and the summary follow
// the requests and the statuses, each on its own.
func TestTrayState(t *testing.T) {
	failedAt := time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)
	one := []*waiting{{}}
	tests := []struct {
		name       string
		windowed   []*waiting
		windowless []*waiting
		statuses   []servers.Status
		down       string
		summary    string
	}{
		{"all well", nil, nil, []servers.Status{{Name: "demo", State: servers.StateReady}}, "", "No requests waiting"},
		{"requests wait", []*waiting{{}, {}}, one, nil, "", "3 requests waiting"},
		{"none has a window", nil, []*waiting{{}, {}}, nil, "", "2 requests waiting"},
		{"a 500-character name", nil, nil, []servers.Status{{Name: strings.Repeat("n", 500), State: servers.StateFailed}},
			strings.Repeat("n", menuName-1) + "… can't connect…", "No requests waiting"},
		{"one server failed", nil, nil, []servers.Status{
			{Name: "demo", State: servers.StateReady},
			{Name: "files", State: servers.StateFailed, FailedSince: failedAt},
		}, "files can't connect…", "No requests waiting"},
		{"both", one, nil, []servers.Status{
			{Name: "files", State: servers.StateConnecting, FailedSince: failedAt}, // trying again
			{Name: "remote", State: servers.StateNeedsSignIn},
			{Name: "wiki", State: servers.StateFailed},
		}, "3 servers can't connect…", "1 request waiting"},
		{"not problems", nil, nil, []servers.Status{
			{Name: "new", State: servers.StateConnecting}, // a first attempt
			{Name: "off", State: servers.StateDisabled},
			{Name: "gone", State: servers.StateStopped},
		}, "", "No requests waiting"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := trayStateOf(tt.windowed, tt.windowless, tt.statuses)
			if got := st.downLine(); got != tt.down {
				t.Errorf("line %q, want %q", got, tt.down)
			}
			if got := st.summary(); got != tt.summary {
				t.Errorf("summary %q, want %q", got, tt.summary)
			}
		})
	}
}

// TestNoGL: the core links no Fyne driver, GL or GLFW: it runs all day.
func TestNoGL(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for dep := range strings.Lines(string(out)) {
		dep = strings.TrimSpace(dep)
		if strings.Contains(dep, "go-gl") || strings.HasPrefix(dep, "fyne.io/fyne/v2/") {
			t.Errorf("the core depends on %s", dep)
		}
	}
}

// TestLargestRequestReachesTheUI: a request whose params are as large as
// a server may send (servers.MaxParams) reaches the windows' process over
// the endpoint, its message whole.
func TestLargestRequestReachesTheUI(t *testing.T) {
	s := start(t)
	overhead := len(`{"message":"","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}`)
	message := strings.Repeat("a", servers.MaxParams-overhead)
	answered := ask(s, message)
	eventually(t, "the request", func() bool { return len(s.c.pending.all()) == 1 })
	r, rec, _ := remoteUI(t, <-s.starts)
	rec.until(t, "the request", func() bool { return len(rec.requests) == 1 })
	if got := servers.LooseParams(rec.requests[0].Params).Message; len(got) != len(message) {
		t.Errorf("the message arrived with %d bytes, want %d", len(got), len(message))
	}
	if err := r.Answer(rec.requests[0].ID, forms.Result{Action: forms.Decline}); err != nil {
		t.Fatal(err)
	}
	if err := <-answered; err != nil {
		t.Errorf("the answer did not reach the server: %v", err)
	}
}

// TestHugeBridgedWords: a process that calls itself a bridge names its
// sessions' server with 7 MiB of U+2028, sent raw, which JSON re-encodes
// to twice that: the windows are still told its requests, their places
// among the windows are theirs, another server's request opens when one
// is answered, and the sessions are listed, each name cut.
func TestHugeBridgedWords(t *testing.T) {
	s := start(t)
	conn, err := net.Dial("unix", s.path)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, `{"jsonrpc":"2.0","id":0,"method":"endpoint/hello","params":{"version":%d}}`+"\n", endpoint.Version)
	if hello, err := bufio.NewReader(conn).ReadString('\n'); err != nil || !strings.Contains(hello, `"result"`) {
		t.Fatalf("the handshake: %q, %v", hello, err)
	}
	huge := strings.Repeat("\u2028", 7<<20/3)
	session := func(id string) string {
		return `{"id":"` + id + `","server":"` + huge + `","target":"npx some-server"}`
	}
	fmt.Fprintf(conn, `{"jsonrpc":"2.0","id":1,"method":"bridge/session","params":%s}`+"\n", session("listed"))
	for i := range DefaultMaxWindows {
		fmt.Fprintf(conn, `{"jsonrpc":"2.0","id":%d,"method":"bridge/elicit","params":{"session":%s,"params":`+
			`{"message":"huge %d","requestedSchema":{"type":"object","properties":{}}}}}`+"\n", i+2, session(fmt.Sprint("s", i)), i)
	}
	eventually(t, "the bridged requests", func() bool { return len(s.c.pending.all()) == DefaultMaxWindows })
	plain := ask(s, "plain")
	r, rec, _ := remoteUI(t, <-s.starts)
	rec.until(t, "the bridged requests' windows", func() bool { return len(rec.requests) == DefaultMaxWindows })
	for _, q := range rec.requests {
		if name := q.Server.Name; len(name) > untrusted.NameBytes || !strings.Contains(name, "cut: ") {
			t.Errorf("a bridged server's name reached the windows with %d bytes, want it cut to %d", len(name), untrusted.NameBytes)
		}
	}
	if err := r.Answer(rec.requests[0].ID, forms.Result{Action: forms.Decline}); err != nil {
		t.Fatal(err)
	}
	rec.until(t, "the other server's window", func() bool {
		return slices.ContainsFunc(rec.requests, func(q Request) bool { return q.Server.Name == "notes" })
	})
	eventually(t, "the sessions listed in the windows", func() bool {
		list := r.Bridged()
		return slices.ContainsFunc(list, func(b servers.Bridged) bool { return b.ID == "listed" && len(b.Server.Name) <= untrusted.NameBytes })
	})
	conn.Close() // the bridged requests end with their bridge
	for _, q := range rec.requests[1:] {
		if q.Server.Name == "notes" {
			if err := r.Answer(q.ID, forms.Result{Action: forms.Decline}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := <-plain; err != nil {
		t.Errorf("the other server's request: %v", err)
	}
}

// TestUnreadableConfig: a servers.json that cannot be read at start
// does not stop the core: it starts with no server and shows the Servers
// window by itself, which says why; once the file is mended, its servers
// connect.
func TestUnreadableConfig(t *testing.T) {
	var cfg string
	s := startWith(t, func(o *Options) {
		cfg = o.ConfigPath
		if err := os.WriteFile(cfg, []byte(`{"mcpServers": {"a": {"command": "x"},}}`), 0o600); err != nil {
			t.Fatal(err)
		}
	})
	_, rec, _ := remoteUI(t, s.nextUI(t, "the Servers window"))
	rec.until(t, "the Servers window", func() bool {
		return slices.Contains(rec.shows, Show{Window: WindowServers, Own: true})
	})
	if n := len(s.c.Statuses()); n != 0 {
		t.Errorf("%d servers from a file that cannot be read", n)
	}
	if err := os.WriteFile(cfg, []byte(`{"mcpServers": {"mended": {"command": "/nonexistent/mended"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the mended file's server", func() bool { return len(s.c.Statuses()) == 1 })
}

// TestTrayHostGoes: the core owns whether a tray host shows its icon.
// When the host goes away with no windows' process running, one starts,
// is told there is no tray first, and shows the Servers window (its own,
// without the keyboard); running windows are told when the host comes
// back, and when it goes again while a request waits the Servers window
// shows at once, not once the request ends: the tray menu that listed it
// is gone.
func TestTrayHostGoes(t *testing.T) {
	s := start(t)
	s.c.TrayHost(true) // as at a start with a tray host
	if !s.c.TrayShown() {
		t.Fatal("TrayShown = false after TrayHost(true)")
	}
	s.c.TrayHost(false) // the panel went away
	if s.c.TrayShown() {
		t.Fatal("TrayShown = true after TrayHost(false)")
	}
	_, rec, _ := remoteUI(t, s.nextUI(t, "the Servers window"))
	standIn := Show{Window: WindowServers, Own: true}
	rec.until(t, "told no tray, then the Servers window", func() bool {
		return slices.Equal(rec.trays, []bool{false}) && slices.Equal(rec.shows, []Show{standIn})
	})

	s.c.TrayHost(true)
	s.c.TrayHost(true) // no change: nothing to tell
	rec.until(t, "a host again", func() bool { return slices.Equal(rec.trays, []bool{false, true}) })
	ask(s, "one")
	rec.until(t, "the request", func() bool { return len(rec.requests) == 1 })
	s.c.TrayHost(false)
	rec.until(t, "no host again, and the Servers window", func() bool {
		return slices.Equal(rec.trays, []bool{false, true, false}) && slices.Equal(rec.shows, []Show{standIn, standIn})
	})
}
