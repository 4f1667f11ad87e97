package cli

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/app"
	"github.com/elicitdesk/elicitdesk/internal/testkit/proctest"
)

// binEnv names the built elicitdesk binary; make test sets it, so the
// end-to-end tests run the program people install, not the test binary.
const binEnv = "ELICITDESK_BIN"

// desktop is a virtual X display with the app running on it.
type desktop struct {
	t    testing.TB
	bin  string
	env  []string
	app  *exec.Cmd
	log  *logBuffer
	home string    // the app's HOME, which any process it starts inherits
	x    *exec.Cmd // the Xvfb the app draws on
}

// logBuffer keeps what the app logs, for tests to read while it writes.
type logBuffer struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	grew chan struct{} // closed at the next Write, made by next
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.grew != nil {
		close(l.grew)
		l.grew = nil
	}
	return l.buf.Write(p)
}

// next is what the log holds now, and a channel closed when it next grows.
func (l *logBuffer) next() (string, <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.grew == nil {
		l.grew = make(chan struct{})
	}
	return l.buf.String(), l.grew
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// startDesktop starts Xvfb and, on it, the app with temporary HOME and XDG
// folders and servers.json holding config (the demo server when empty).
func startDesktop(t testing.TB, config string) *desktop {
	t.Helper()
	return startDesktopWith(t, config, false)
}

// startDesktopWith is startDesktop with openbox managing the windows when
// wm is set, as on a person's desktop: focus moves as windows come and go;
// env, if any, is added last to the environment of the app and of what
// the test runs on the desktop, and so wins over what is there.
func startDesktopWith(t testing.TB, config string, wm bool, env ...string) *desktop {
	t.Helper()
	return startDesktopArgs(t, config, nil, wm, env...)
}

// startDesktopArgs is startDesktopWith with the app started with args
// after -v.
func startDesktopArgs(t testing.TB, config string, args []string, wm bool, env ...string) *desktop {
	t.Helper()
	bin := os.Getenv(binEnv)
	if bin == "" {
		t.Skip(binEnv + " is not set: make test builds the app and sets it")
	}
	for _, tool := range []string{"Xvfb", "xdotool"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed (make test-deps installs it): %v", tool, err)
		}
	}
	home, homeEnv := privateHome(t)
	d := &desktop{t: t, bin: bin, log: &logBuffer{}, home: home}
	display, x := startXvfb(t)
	d.x = x
	d.env = append(append(os.Environ(), "DISPLAY="+display, "FYNE_PLATFORM=x11", "LANG=en_US.UTF-8",
		"DBUS_SESSION_BUS_ADDRESS="), append(homeEnv, env...)...)
	if config != "" {
		path := filepath.Join(home, "xdg_config_home", "elicitdesk", "servers.json")
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if wm {
		startOpenbox(t, d.env)
	}
	d.app = exec.Command(bin, append([]string{"-v"}, args...)...)
	d.app.Env = d.env
	d.app.Stdout, d.app.Stderr = d.log, d.log
	if err := d.app.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if d.app.ProcessState == nil {
			d.app.Process.Kill()
			d.app.Wait()
		}
		if t.Failed() {
			t.Logf("app log:\n%s", d.log)
			out, _ := exec.Command("ls", "-laR", home).CombinedOutput()
			t.Logf("%s", out)
		}
	})
	return d
}

// privateHome makes a temporary HOME with its own XDG folders and returns
// it with the environment entries naming them: what a process run with
// them reads, writes and listens on stays inside the test.
func privateHome(t testing.TB) (home string, env []string) {
	t.Helper()
	home = t.TempDir()
	env = []string{"HOME=" + home}
	for _, v := range []string{"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"} {
		dir := filepath.Join(home, strings.ToLower(v))
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		env = append(env, v+"="+dir)
	}
	return home, env
}

// startXvfb starts a virtual X server and returns its display name.
func startXvfb(t testing.TB) (string, *exec.Cmd) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	x := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1280x1024x24", "-nolisten", "tcp")
	x.ExtraFiles = []*os.File{w}
	if err := x.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() {
		x.Process.Kill()
		x.Wait()
	})
	line, err := bufio.NewReader(r).ReadString('\n')
	r.Close()
	n, convErr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || convErr != nil {
		t.Fatalf("Xvfb gave no display: %q %v", line, err)
	}
	return ":" + strconv.Itoa(n), x
}

// history is what `elicitdesk history -json` prints once done holds of
// it, or what it printed last after 10 s: the core writes an answer's
// entry just after its server has the answer, so a caller that heard it
// may read the history a moment too soon.
func (d *desktop) history(done func(hist string) bool) string {
	d.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		hist, err := d.run(d.bin, "history", "-json")
		if err != nil {
			d.t.Fatal(err)
		}
		if done(hist) || time.Now().After(deadline) {
			return hist
		}
	}
}

// run runs a command on the desktop and returns its standard output.
func (d *desktop) run(name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = d.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("%s %v: %w: %s", name, args, err, stderr.String())
	}
	return string(out), nil
}

// window waits for a window whose title contains title, other than those
// in not, and returns its X id.
func (d *desktop) window(title string, not ...string) string {
	d.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		out, _ := d.run("xdotool", "search", "--onlyvisible", "--name", title)
		for _, id := range strings.Fields(out) {
			if !contains(not, id) {
				return id
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	d.t.Fatalf("no window %q appeared", title)
	return ""
}

// waitLogged waits until the app has logged what n times.
func (d *desktop) waitLogged(what string, n int) {
	d.t.Helper()
	d.log.wait(d.t, what, n)
}

// wait waits until l holds what n times, and returns what it holds.
func (l *logBuffer) wait(t testing.TB, what string, n int) string {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		logged, grew := l.next()
		if strings.Count(logged, what) >= n {
			return logged
		}
		select {
		case <-grew:
		case <-deadline:
			t.Fatalf("logged %s %d times, want %d:\n%s", what, strings.Count(logged, what), n, logged)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// keys switches to request window id as a person does, once it has been
// seen, and types: text, then each key. A request window takes no keys for
// the app's guard time after it appears: switching to it sooner counts as
// the window manager's doing, and its keys are dropped.
func (d *desktop) keys(id, text string, keys ...string) {
	d.t.Helper()
	// The person, not a wait: the app's rule under test is a time (keys
	// count only GuardTime after the window appeared, which it did no
	// later than d.window found it), so they take that long and a margin.
	time.Sleep(app.GuardTime + 250*time.Millisecond)
	// From elsewhere: a window manager may have given the window the
	// keyboard as it appeared (openbox does when the window the person
	// just answered closes then), and switching to a window that has it
	// already is no switch.
	root, err := d.run("xdotool", "search", "--maxdepth", "0", "")
	if err != nil {
		d.t.Fatal(err)
	}
	for _, w := range []string{strings.TrimSpace(root), id} {
		if _, err := d.run("xdotool", "windowfocus", "--sync", w); err != nil {
			d.t.Fatal(err)
		}
	}
	if text != "" {
		if _, err := d.run("xdotool", "type", "--delay", "20", text); err != nil {
			d.t.Fatal(err)
		}
	}
	for _, k := range keys {
		if _, err := d.run("xdotool", "key", k); err != nil {
			d.t.Fatal(err)
		}
	}
}

// TestDesktopEndToEnd runs the built app on a virtual display with the
// demo server: a tool call through the app raises two request windows, a
// person answers them with the keyboard, and the tool's result and the
// history say what they answered.
func TestDesktopEndToEnd(t *testing.T) {
	t.Parallel()
	d := startDesktop(t, "")
	servers := d.window("Servers") // no tray host here: the Servers window shows instead
	// The desktop entry's StartupWMClass finds the app's windows.
	if ids, err := d.run("xdotool", "search", "--class", "^"+appName+"$"); err != nil || !contains(strings.Fields(ids), servers) {
		t.Errorf("the Servers window %s is not of the class %s: %q %v", servers, appName, ids, err)
	}

	call := exec.Command(d.bin, "call", "-server", "demo", "-tool", "ask_twice", "-answer", "desk")
	call.Env = d.env
	var out, callErr bytes.Buffer
	call.Stdout, call.Stderr = &out, &callErr
	if err := call.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("call printed:\n%s%s", &out, &callErr)
		}
	})
	first := d.window("^demo: ")
	d.keys(first, "Ada Lovelace", "Return")
	second := d.window("^demo: ", first)
	d.keys(second, "", "Escape")
	if err := call.Wait(); err != nil {
		t.Fatalf("call: %v\n%s", err, callErr.String())
	}
	for _, want := range []string{`\"action\":\"accept\"`, "Ada Lovelace", `\"action\":\"cancel\"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the tool result lacks %s:\n%s", want, out.String())
		}
	}

	// The demo server answered, so the app says it is ready.
	if list, err := d.run(d.bin, "servers"); err != nil || !regexp.MustCompile(`(?m)^demo +stdio +ready since `).MatchString(list) {
		t.Errorf("servers with the app running: %v\n%s", err, list)
	}

	hist := d.history(func(hist string) bool { return strings.Count(hist, "\n") >= 2 })
	if lines := strings.Split(strings.TrimSpace(hist), "\n"); len(lines) != 2 ||
		!strings.Contains(lines[0], `"outcome":"cancelled"`) || !strings.Contains(lines[1], `"outcome":"accepted"`) ||
		!strings.Contains(lines[1], "Ada Lovelace") {
		t.Errorf("history:\n%s", hist)
	}

	// A second start brings the first forward and leaves.
	if msg, err := d.run(d.bin); err != nil || !strings.Contains(msg, "already running") {
		t.Errorf("second start: %q %v", msg, err)
	}

	// Quitting stops every server the app started.
	children := childrenOf(d.app.Process.Pid)
	if len(children) == 0 {
		t.Error("the demo server is not a child of the app")
	}
	d.app.Process.Signal(syscall.SIGTERM)
	if err := d.app.Wait(); err != nil {
		t.Errorf("quit: %v", err)
	}
	for _, pid := range children {
		if !proctest.Gone(pid) {
			t.Errorf("server process %d outlived the app", pid)
		}
	}
	if left := d.busesLeft(); len(left) > 0 {
		t.Errorf("DBus processes outlived the app: %v", left)
	}
}

// childrenOf lists the processes pid started.
func childrenOf(pid int) []int {
	var kids []int
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	for _, f := range tasks {
		raw, _ := os.ReadFile(f)
		for _, s := range strings.Fields(string(raw)) {
			if n, err := strconv.Atoi(s); err == nil {
				kids = append(kids, n)
			}
		}
	}
	return kids
}

// uiProcesses are the windows' processes the core of d started.
func (d *desktop) uiProcesses() []int {
	var pids []int
	for _, kid := range childrenOf(d.app.Process.Pid) {
		cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", kid))
		if strings.Contains(string(cmd), "\x00"+uiCommand+"\x00") {
			pids = append(pids, kid)
		}
	}
	return pids
}

// TestWindowsProcessKilled kills the windows' process with three requests
// open: the next one, which the core starts, shows the three again, and
// each is answered from there, none lost or answered by the crash.
func TestWindowsProcessKilled(t *testing.T) {
	t.Parallel()
	demo := fmt.Sprintf(`{"mcpServers": {"demo": {"command": %q, "args": ["demo-server"]}}}`, os.Getenv(binEnv))
	d := startDesktopArgs(t, demo, []string{"-background"}, false)
	d.waitReady(1)
	type call struct {
		cmd *exec.Cmd
		out *bytes.Buffer
	}
	var calls []call
	var first []string
	for range 3 {
		cmd, out := d.call("ask_confirm")
		calls = append(calls, call{cmd, out})
		first = append(first, d.window("^demo: ", first...))
	}
	uis := d.uiProcesses()
	if len(uis) != 1 {
		t.Fatalf("windows' processes %v, want one", uis)
	}
	ui, err := os.FindProcess(uis[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := ui.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	// The new process's windows may reuse the killed one's X ids: look
	// for them once those have gone.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		out, _ := d.run("xdotool", "search", "--onlyvisible", "--name", "^demo: ")
		if strings.TrimSpace(out) == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the killed process's windows stay")
		}
	}
	var again []string
	for range 3 {
		again = append(again, d.window("^demo: ", again...))
	}
	for _, id := range again {
		d.keys(id, "", "Escape")
	}
	for i, c := range calls {
		if err := c.cmd.Wait(); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if !strings.Contains(c.out.String(), `\"action\":\"cancel\"`) {
			t.Errorf("call %d was not answered by the person's Escape:\n%s", i, c.out)
		}
	}
	hist := d.history(func(hist string) bool { return strings.Count(hist, "\n") >= 3 })
	if n := strings.Count(hist, `"outcome":"cancelled"`); n != 3 || strings.Count(hist, "\n") != 3 {
		t.Errorf("history, want three cancelled:\n%s", hist)
	}
}

// TestWindowsComeAndGo: the core runs without a windows' process until a
// request comes; the windows' process it starts shows the request, exits
// once no window has shown for -ui-idle, and a later request starts
// another.
func TestWindowsComeAndGo(t *testing.T) {
	t.Parallel()
	// Not a first start, which would show the Welcome once the request
	// is answered.
	demo := fmt.Sprintf(`{"mcpServers": {"demo": {"command": %q, "args": ["demo-server"]}}}`, os.Getenv(binEnv))
	d := startDesktopArgs(t, demo, []string{"-background", "-ui-idle=1s"}, false)
	uis := d.uiProcesses
	answer := func() {
		t.Helper()
		call := exec.Command(d.bin, "call", "-server", "demo", "-tool", "ask_confirm", "-answer", "desk")
		call.Env = d.env
		if err := call.Start(); err != nil {
			t.Fatal(err)
		}
		d.keys(d.window("^demo: "), "", "Escape")
		if err := call.Wait(); err != nil {
			t.Fatalf("call: %v", err)
		}
	}
	d.waitReady(1)
	if pids := uis(); len(pids) != 0 {
		t.Fatalf("a windows' process %v runs with no window to show", pids)
	}
	for round := range 2 {
		answer()
		pids := uis()
		if len(pids) != 1 {
			t.Fatalf("round %d: windows' processes %v, want one", round, pids)
		}
		deadline := time.Now().Add(30 * time.Second)
		for !proctest.Gone(pids[0]) {
			if time.Now().After(deadline) {
				t.Fatalf("round %d: the windows' process stayed with no window", round)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// copyFile copies an executable where everyone may run it.
func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
