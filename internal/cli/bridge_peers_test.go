package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adrg/xdg"

	"github.com/elicitdesk/elicitdesk/internal/traffic"
)

// peerScript returns the absolute path of a script in testdata/peers, which
// imports the pinned SDK from the node_modules beside it.
func peerScript(t testing.TB, name string) string {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("..", "..", "testdata", "peers", name))
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// elicitdeskBin is the elicitdesk the bridge tests run: the built app when
// make has set ELICITDESK_BIN (the program people install, without the race
// detector's slowdown), else this test binary acting as elicitdesk.
func elicitdeskBin(t testing.TB) string {
	t.Helper()
	if bin := os.Getenv(binEnv); bin != "" {
		return bin
	}
	return asElicitdesk(t)
}

// noAppEnv is the environment of a process that can reach no Elicit Desk
// app: no display to open windows on, and a private, empty HOME and
// XDG_RUNTIME_DIR where no app listens. A bridge started in it hands
// elicitations to its host, or cancels them.
func noAppEnv(t testing.TB) []string {
	t.Helper()
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k != "DISPLAY" && k != "WAYLAND_DISPLAY" {
			env = append(env, kv)
		}
	}
	_, homeEnv := privateHome(t)
	return append(append(env, "DBUS_SESSION_BUS_ADDRESS="), homeEnv...)
}

// noApp makes the bridges a test starts find no app, no display and no
// session bus to start one: their elicitations go to the host if it
// declared them, else are answered cancel.
func noApp(t testing.TB) {
	t.Helper()
	t.Cleanup(xdg.Reload) // last, once the environment is back
	dir := t.TempDir()
	os.Chmod(dir, 0o700)
	t.Setenv("XDG_RUNTIME_DIR", dir)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	xdg.Reload() // so this process finds the same endpoint as its children
}

// host is testdata/peers/host.mjs running: the TypeScript SDK's client, as
// a host we did not write, with its lines of output as they come.
type host struct {
	t     *testing.T
	cmd   *exec.Cmd
	lines chan string
	log   *logBuffer // its stderr, and that of the server it started
	ended chan struct{}
	err   error // how it ended, once ended is closed
}

// startHost runs host.mjs with args in env.
func startHost(t *testing.T, env []string, args ...string) *host {
	t.Helper()
	h := &host{t: t, lines: make(chan string, 16), log: &logBuffer{}, ended: make(chan struct{})}
	h.cmd = exec.Command(filepath.Join(peers(t), ".bin", "node"), append([]string{peerScript(t, "host.mjs")}, args...)...)
	h.cmd.Env = env
	h.cmd.Stderr = h.log
	h.cmd.WaitDelay = 10 * time.Second // its children share its stderr, and may outlive it
	stdout, err := h.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := h.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			h.lines <- sc.Text()
		}
		close(h.lines)
		h.err = h.cmd.Wait()
		close(h.ended)
	}()
	t.Cleanup(func() {
		h.cmd.Process.Kill()
		for range h.lines { // what it printed after the test stopped reading
		}
		<-h.ended
		if t.Failed() {
			t.Logf("the host's stderr:\n%s", h.log)
		}
	})
	return h
}

// next returns the host's next line of output, failing the test when the
// host ends or within passes first.
func (h *host) next(within time.Duration) string {
	h.t.Helper()
	select {
	case line, ok := <-h.lines:
		if !ok {
			h.t.Fatalf("the host ended early: %v", h.wait())
		}
		return line
	case <-time.After(within):
		h.t.Fatalf("no line from the host within %v", within)
	}
	return ""
}

// wait returns how the host ended, once it has.
func (h *host) wait() error {
	<-h.ended
	return h.err
}

// TestBridgeTypeScriptHost puts the bridge between the TypeScript SDK's
// client, which declares sampling but not elicitation, and server-everything
// over stdio, with the app running: the server's elicitation opens a
// request window, a person answers it, and the answer reaches the server;
// the server's sampling request reaches the host and its answer comes back.
func TestBridgeTypeScriptHost(t *testing.T) {
	t.Parallel()
	node, entry := everything(t)
	d := startDesktopWith(t, "", true)
	d.window("Servers")

	// The host passes its environment on to the bridge, which finds the app
	// through the desktop's XDG_RUNTIME_DIR and DISPLAY.
	h := startHost(t, d.env,
		"--call", "trigger-elicitation-request",
		"--call", "trigger-sampling-request", "--args", `{"prompt":"Say hello"}`,
		"--", d.bin, "bridge", "--", node, entry, "stdio")

	var listed struct{ Tools []string }
	if err := json.Unmarshal([]byte(h.next(time.Minute)), &listed); err != nil {
		t.Fatal(err)
	}
	// server-everything offers the tool only to clients that declare
	// elicitation: the host does not, so the bridge must, for the app.
	for _, tool := range []string{"trigger-elicitation-request", "trigger-sampling-request"} {
		if !slices.Contains(listed.Tools, tool) {
			t.Fatalf("%s is not among the tools the host sees: %v", tool, listed.Tools)
		}
	}

	// The request window, "server-everything: message — Elicit Desk": the
	// bridge names the server after the script node runs.
	w := d.window("^server-everything(: | asks)")
	d.keys(w, "Ada Lovelace", "Return") // the name is the first field, and the only required one
	got := everythingReceived(t, []byte(h.next(time.Minute)))
	if got.Action != "accept" || got.Content["name"] != "Ada Lovelace" {
		t.Errorf("the server received %+v, want accept with the name typed", got)
	}

	if sampled := h.next(time.Minute); !strings.Contains(sampled, "sampled by the test host") {
		t.Errorf("the host's sampling answer did not come back through the bridge:\n%s", sampled)
	}
	if err := h.wait(); err != nil {
		t.Errorf("host: %v", err)
	}

	// The app kept what passed between the session and its server: the
	// person's answer, with its latency, as the host's.
	answered := d.traffic("dir:out", "status:ok", "method:elicitation/create")
	if answered.Session == "" || answered.Server != "server-everything" || answered.Host == "" || answered.Latency <= 0 {
		t.Errorf("the answer's entry: %+v", answered)
	}
}

// traffic returns the first entry `elicitdesk traffic -follow` prints
// that words pick, waiting for it.
func (d *desktop) traffic(words ...string) traffic.Entry {
	d.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, d.bin, append([]string{"traffic", "-follow", "-json"}, words...)...)
	cmd.Env = d.env
	out, err := cmd.StdoutPipe()
	if err != nil {
		d.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		d.t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(out)
	if !lines.Scan() {
		d.t.Fatalf("traffic %q printed nothing: %v", words, lines.Err())
	}
	var e traffic.Entry
	if err := json.Unmarshal(lines.Bytes(), &e); err != nil {
		d.t.Fatalf("traffic -json printed %q: %v", lines.Text(), err)
	}
	return e
}

// startBridgeHTTP starts `elicitdesk bridge -listen ADDR -url url` where no
// app is reachable, and returns the URL a host reaches it at, the secret
// in it.
func startBridgeHTTP(t testing.TB, url string) string {
	t.Helper()
	bin := elicitdeskBin(t) // before the environment, which it may change
	bridged, _ := startBridgeListen(t, bin, noAppEnv(t), "-url", url)
	return bridged
}

// conformance is the suite's command line, run by the pinned Node 22,
// which also comes first on its PATH, as for TestConformance.
func conformance(ctx context.Context, dir string, args ...string) *exec.Cmd {
	bin := filepath.Join(dir, ".bin")
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "node"), append([]string{filepath.Join(bin, "conformance")}, args...)...)
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "NO_COLOR=1")
	return cmd
}

// verdict is how one scenario went: passed, and how many of its checks
// passed and failed (-1 when it did not get as far as counting).
type verdict struct {
	passed       bool
	checks, fail int
}

func (v verdict) String() string {
	return fmt.Sprintf("%s, %d checks passed, %d failed", map[bool]string{true: "passes", false: "fails"}[v.passed], v.checks, v.fail)
}

var (
	// The summary of a whole suite: "✓ ping: 2 passed, 0 failed".
	suiteLine = regexp.MustCompile(`(?m)^([✓✗]) (\S+): (\d+) passed, (\d+) failed`)
	// The end of one scenario's run: "Passed: 2/2, 0 failed, 0 warnings".
	scenarioLine = regexp.MustCompile(`(?m)^Passed: (\d+)/\d+, (\d+) failed`)
)

// serverSuite runs every server scenario of the conformance suite against
// url in one process (a process per scenario spends most of its second
// starting Node), or only the one scenario named, and returns each
// scenario's verdict with the whole output.
func serverSuite(dir, url string, scenario ...string) (map[string]verdict, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	args := []string{"server", "--url", url, "--suite", "all"}
	if len(scenario) == 1 {
		args = []string{"server", "--url", url, "--scenario", scenario[0]}
	}
	out, err := conformance(ctx, dir, args...).CombinedOutput() // exit 1 when any scenario fails
	if ctx.Err() != nil {
		return nil, "", fmt.Errorf("the conformance suite took too long:\n%s", lastLines(string(out), 40))
	}
	verdicts := map[string]verdict{}
	if len(scenario) == 1 { // one scenario prints no summary line: its exit says
		v := verdict{err == nil, -1, -1}
		if m := scenarioLine.FindStringSubmatch(string(out)); m != nil {
			v.checks, _ = strconv.Atoi(m[1])
			v.fail, _ = strconv.Atoi(m[2])
		}
		verdicts[scenario[0]] = v
	}
	for _, m := range suiteLine.FindAllStringSubmatch(string(out), -1) {
		v := verdict{passed: m[1] == "✓"}
		v.checks, _ = strconv.Atoi(m[3])
		v.fail, _ = strconv.Atoi(m[4])
		verdicts[m[2]] = v
	}
	if len(verdicts) == 0 {
		return nil, "", fmt.Errorf("the conformance suite gave no verdicts:\n%s", lastLines(string(out), 40))
	}
	return verdicts, string(out), nil
}

// ownHTTP names the scenarios that test the HTTP listener itself, which,
// through the bridge, is the bridge's: it may do better than the server
// there, but not fail a scenario the server passes.
var ownHTTP = map[string]bool{
	"dns-rebinding-protection": true, // the Origin and Host checks
	"server-session-lifecycle": true, // Mcp-Session-Id, DELETE, 404 after it
}

// TestBridgeTransparency runs every server scenario of the conformance
// suite against server-everything over Streamable HTTP, directly and
// through `elicitdesk bridge -listen`, and expects the same verdict both
// ways, down to the number of checks passed and failed: with no app
// reachable the bridge only forwards, and elicitations go on to the
// suite's client, which declares the capability. (The suite's verdicts on
// server-everything are the same run after run.)
func TestBridgeTransparency(t *testing.T) {
	dir := peers(t)
	url := startEverythingHTTP(t)
	bridgedURL := startBridgeHTTP(t, url)

	// Each run takes a few seconds; both at once halve the wait.
	var direct, bridged map[string]verdict
	var directOut, bridgedOut string
	var directErr, bridgedErr error
	var wg sync.WaitGroup
	wg.Go(func() { direct, directOut, directErr = serverSuite(dir, url) })
	bridged, bridgedOut, bridgedErr = serverSuite(dir, bridgedURL)
	wg.Wait()
	if err := errors.Join(directErr, bridgedErr); err != nil {
		t.Fatal(err)
	}

	passed := 0
	for _, v := range direct {
		if v.passed {
			passed++
		}
	}
	t.Logf("%d scenarios, %d pass directly", len(direct), passed)
	names := slices.Sorted(maps.Keys(direct))
	if !slices.Equal(names, slices.Sorted(maps.Keys(bridged))) {
		t.Fatalf("the runs named different scenarios:\n--- directly:\n%s\n--- through the bridge:\n%s", lastLines(directOut, 70), lastLines(bridgedOut, 70))
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			if !differ(name, direct[name], bridged[name]) {
				return
			}
			// The runs shared the server, and ran at once: see whether the
			// scenario differs again, run alone each way.
			d, out, err := serverSuite(dir, url, name)
			b, bout, berr := serverSuite(dir, bridgedURL, name)
			if err := errors.Join(err, berr); err != nil {
				t.Fatal(err)
			}
			if differ(name, d[name], b[name]) {
				t.Errorf("directly %v, through the bridge %v\n--- through the bridge:\n%s\n--- directly:\n%s",
					d[name], b[name], lastLines(bout, 30), lastLines(out, 30))
			}
		})
	}
}

// differ says whether the bridge changed scenario's verdict.
func differ(scenario string, direct, bridged verdict) bool {
	if ownHTTP[scenario] {
		return direct.passed && !bridged.passed
	}
	return direct != bridged
}
