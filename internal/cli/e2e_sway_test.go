//go:build linux

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// swayConfig runs swaybar as the StatusNotifierItem host, with Xwayland,
// and writes sway's environment (display, bus) where the test reads it.
const swayConfig = `xwayland enable
bar {
	tray_output *
	status_command while :; do sleep 3600; done
}
exec env > $XDG_RUNTIME_DIR/sway.env
`

// swayDesk is Elicit Desk's core started under sway (headless, swaybar
// as the tray host, Xwayland, no notification daemon) as a throwaway
// user, in a home of its own.
type swayDesk struct {
	t      *testing.T
	dir    string   // the test's folder, the user's
	env    []string // sway's environment: its display and session bus
	as     *syscall.Credential
	app    string     // the binary, where the user can run it
	appLog *logBuffer // the core's and the windows' log
}

// startSway starts sway and Elicit Desk's core in it, each ended with
// the test; it skips where the test cannot run.
func startSway(t *testing.T) *swayDesk {
	t.Helper()
	bin := os.Getenv(binEnv)
	if bin == "" {
		t.Skip(binEnv + " is not set: make test builds the app and sets it")
	}
	if os.Getuid() != 0 {
		t.Skip("sway refuses to run as root and this test makes a throwaway user to run it: that needs root (CI runs it as root)")
	}
	for _, tool := range []string{"sway", "swaybar", "swaymsg", "Xwayland", "dbus-run-session", "dbus-send", "grim", "useradd"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed (make test-deps installs it): %v", tool, err)
		}
	}
	as := throwawayUser(t)
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} { // the user passes through them
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	home, runtime := filepath.Join(dir, "home"), filepath.Join(dir, "run")
	for _, d := range []string{home, runtime} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	app := filepath.Join(dir, "elicitdesk")
	if err := copyFile(bin, app); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(dir, "sway.conf")
	if err := os.WriteFile(config, []byte(swayConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	chownAll(t, dir, as)

	base := []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home, "XDG_RUNTIME_DIR=" + runtime, "LANG=C.UTF-8",
		"WLR_BACKENDS=headless", "WLR_RENDERER=pixman", "WLR_LIBINPUT_NO_DEVICES=1"}
	swayLog := &logBuffer{}
	d := &swayDesk{t: t, dir: dir, as: as, app: app, appLog: &logBuffer{}}
	sway := exec.Command("dbus-run-session", "--", "sway", "-c", config)
	sway.Env, sway.Dir = base, dir
	sway.Stdout, sway.Stderr = swayLog, swayLog
	sway.SysProcAttr = &syscall.SysProcAttr{Credential: as, Setpgid: true}
	if err := sway.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-sway.Process.Pid, syscall.SIGTERM)
		sway.Wait()
		if t.Failed() {
			t.Logf("sway's log:\n%s", swayLog)
		}
	})
	env := swayEnv(t, filepath.Join(runtime, "sway.env"))
	d.env = env

	appLog := d.appLog
	core := exec.Command(app, "-v")
	core.Env, core.Dir = env, dir
	core.Stdout, core.Stderr = appLog, appLog
	core.SysProcAttr = &syscall.SysProcAttr{Credential: as}
	if err := core.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		core.Process.Signal(os.Interrupt)
		core.Wait()
		if t.Failed() {
			t.Logf("app's log:\n%s", appLog)
		}
	})
	return d
}

// run runs a command of the desktop's as the user and returns what it
// printed.
func (d *swayDesk) run(name string, args ...string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env, cmd.Dir = d.env, d.dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: d.as}
	out, _ := cmd.Output()
	return string(out)
}

// shown waits until sway shows a window titled title.
func (d *swayDesk) shown(title string) {
	d.t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(d.run("swaymsg", "-t", "get_tree"), title); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			d.t.Fatalf("sway shows no window %q", title)
		}
	}
}

// TestSwayFirstStart is issue 32's start-up under sway (headless, swaybar
// as the tray host, Xwayland, no notification daemon), where the first
// request once panicked the core in systray.SetIcon: a first start shows
// Welcome, a request opens its window, the tray's item is registered with
// swaybar's StatusNotifierWatcher, and nothing in the log panicked. The
// request window appears without taking the keyboard from the terminal
// the person types in, and takes it when they switch to it. sway
// refuses to run as root, so the desktop runs as a throwaway user.
func TestSwayFirstStart(t *testing.T) {
	d := startSway(t)
	dir, app, run, shown, appLog := d.dir, d.app, d.run, d.shown, d.appLog
	shown("Welcome — Elicit Desk")

	// swaybar 1.7 shows no item's menu: a click asks the item to show it
	// itself (ContextMenu), which brings the app forward, here Servers once
	// Welcome is closed.
	items := run("dbus-send", "--session", "--print-reply", "--dest=org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher",
		"org.freedesktop.DBus.Properties.Get", "string:org.kde.StatusNotifierWatcher", "string:RegisteredStatusNotifierItems")
	item := regexp.MustCompile(`"([^"/]+)/StatusNotifierItem"`).FindStringSubmatch(items)
	if item == nil {
		t.Fatalf("the tray's item is not registered with swaybar's watcher: %q", items)
	}
	run("swaymsg", `[title="^Welcome"] kill`)
	d.gone("Welcome — Elicit Desk")
	run("dbus-send", "--session", "--print-reply", "--dest="+item[1], "/StatusNotifierItem", "org.kde.StatusNotifierItem.ContextMenu", "int32:0", "int32:0")
	shown("Servers — Elicit Desk")
	run("swaymsg", `[title="^Servers"] kill`) // hidden: the tray stays
	d.gone("Servers — Elicit Desk")

	// The person types in another application (an X11 one, through
	// Xwayland, as the app's windows are) when the request arrives.
	d.start("xterm", "-T", "typing-here")
	focusedIs := func(title string) bool { return focusedName(run("swaymsg", "-t", "get_tree")) == title }
	for deadline := time.Now().Add(30 * time.Second); !focusedIs("typing-here"); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the terminal did not get the keyboard: %q has it", focusedName(run("swaymsg", "-t", "get_tree")))
		}
	}

	d.start(app, "call", "-server", "demo", "-tool", "ask_confirm", "-args", "{}", "-answer", "desk")
	const request = "demo: Do you want to continue? — Elicit Desk"
	shown(request)
	// A window that asks is a dialog, which sway floats at its own size:
	// tiled, it got a strip too narrow for its form.
	if !floating(run("swaymsg", "-t", "get_tree"), request) {
		t.Errorf("sway tiles the request window:\n%s", run("swaymsg", "-t", "get_tree"))
	}
	if got := focusedName(run("swaymsg", "-t", "get_tree")); got != "typing-here" {
		t.Errorf("the request window took the keyboard from the application the person types in: %q has it", got)
	}
	// The person switches to it, once it has appeared: the keyboard goes
	// there, to the X11 window (Xwayland's), which types.
	// Once it takes input (xwin.QuietTime after it appeared).
	hints := func() string {
		return run("sh", "-c", `xprop -id "$(xdotool search --name '^demo: Do you want' | head -1)" WM_HINTS`)
	}
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(hints(), "input focus: True"); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the request window never took input: %s", hints())
		}
	}
	run("swaymsg", `[title="^demo: Do you want"] focus`)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		sway, x := focusedName(run("swaymsg", "-t", "get_tree")), strings.TrimSpace(run("xdotool", "getwindowfocus", "getwindowname"))
		if sway == request && x == request {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("switched to the request window, the keyboard is with %q (sway) and %q (X11)", sway, x)
		}
	}

	// A request its server withdraws stops asking for attention: its
	// window and workspace stop flashing once it says it ended. (Six
	// seconds: the window is to be seen urgent first, on a loaded machine
	// too.)
	d.start(app, "call", "-server", "demo", "-tool", "ask_then_give_up", "-args", `{"seconds":6}`, "-answer", "desk")
	const withdrawn = "demo: Answer within"
	for _, want := range []bool{true, false} {
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			if found, urgent := urgentWindow(run("swaymsg", "-t", "get_tree"), withdrawn); found && urgent == want {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the withdrawn request's window never was urgent %v:\n%s", want, run("swaymsg", "-t", "get_tree"))
			}
		}
	}

	shot := filepath.Join(dir, "sway.png")
	run("grim", shot)
	if fi, err := os.Stat(shot); err != nil || fi.Size() == 0 {
		t.Errorf("grim took no screenshot: %v", err)
	}
	if keep := os.Getenv("SWAY_SHOT"); keep != "" { // to look at: SWAY_SHOT=file
		if err := copyFile(shot, keep); err != nil {
			t.Error(err)
		}
	}
	if strings.Contains(appLog.String(), "panic") {
		t.Errorf("the app's log has a panic:\n%s", appLog)
	}
}

// start starts name with args as the desktop's user, in its session,
// ended with the test.
func (d *swayDesk) start(name string, args ...string) {
	d.t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env, cmd.Dir = d.env, d.dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: d.as}
	if err := cmd.Start(); err != nil {
		d.t.Fatal(err)
	}
	d.t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
}

// gone waits until sway shows no window titled title.
func (d *swayDesk) gone(title string) {
	d.t.Helper()
	for deadline := time.Now().Add(30 * time.Second); strings.Contains(d.run("swaymsg", "-t", "get_tree"), title); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			d.t.Fatalf("sway still shows %q", title)
		}
	}
}

// swayWindow is a node of sway's tree (swaymsg -t get_tree), as far as
// the tests read it.
type swayWindow struct {
	Name     string
	Focused  bool
	Urgent   bool
	Nodes    []swayWindow
	Floating []swayWindow `json:"floating_nodes"`
}

// findWindow walks tree, swaymsg -t get_tree's output, for the first node
// that is, and says whether it floats.
func findWindow(tree string, is func(swayWindow) bool) (w swayWindow, floats, found bool) {
	var root swayWindow
	if json.Unmarshal([]byte(tree), &root) != nil {
		return swayWindow{}, false, false
	}
	var walk func(n swayWindow, floats bool) bool
	walk = func(n swayWindow, floating bool) bool {
		if is(n) {
			w, floats = n, floating
			return true
		}
		return slices.ContainsFunc(n.Nodes, func(k swayWindow) bool { return walk(k, floating) }) ||
			slices.ContainsFunc(n.Floating, func(k swayWindow) bool { return walk(k, true) })
	}
	found = walk(root, false)
	return w, floats, found
}

// floating reports whether tree holds a floating window titled title.
func floating(tree, title string) bool {
	_, floats, found := findWindow(tree, func(w swayWindow) bool { return w.Name == title })
	return found && floats
}

// urgentWindow reports whether tree holds a window whose title starts
// with prefix, and whether it is urgent.
func urgentWindow(tree, prefix string) (found, urgent bool) {
	w, _, found := findWindow(tree, func(w swayWindow) bool { return strings.HasPrefix(w.Name, prefix) })
	return found, w.Urgent
}

// focusedName is the name (title) of the window that has the keyboard in
// tree, or "" when none has.
func focusedName(tree string) string {
	w, _, _ := findWindow(tree, func(w swayWindow) bool { return w.Focused })
	return w.Name
}

// throwawayUser makes a user for the test, removed when it ends, and
// returns its credential.
func throwawayUser(t testing.TB) *syscall.Credential {
	t.Helper()
	name := fmt.Sprintf("edtest%d", os.Getpid())
	if out, err := exec.Command("useradd", "-M", "-r", "-d", "/nonexistent", "-s", "/usr/sbin/nologin", name).CombinedOutput(); err != nil {
		t.Fatalf("useradd: %v: %s", err, out)
	}
	u, err := user.Lookup(name)
	if err != nil {
		exec.Command("userdel", name).Run()
		t.Fatal(err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	t.Cleanup(func() {
		// Whatever of the desktop's outlived it (a bar's status command
		// whose bar exited) runs as this user alone.
		for _, pid := range processesOf(uint32(uid)) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		exec.Command("userdel", name).Run()
	})
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}}
}

// swayEnv waits for the environment sway's config wrote at path and
// returns it.
func swayEnv(t *testing.T, path string) []string {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		data, err := os.ReadFile(path)
		if err == nil && bytes.Contains(data, []byte("WAYLAND_DISPLAY=")) && bytes.HasSuffix(data, []byte("\n")) {
			return strings.Split(strings.TrimSpace(string(data)), "\n")
		}
	}
	t.Fatal("sway did not start")
	return nil
}

// chownAll gives dir and everything in it to as.
func chownAll(t *testing.T, dir string, as *syscall.Credential) {
	t.Helper()
	err := filepath.Walk(dir, func(path string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(path, int(as.Uid), int(as.Gid))
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestSwayTrayHostLost is issue 33's "a desktop that removes its tray host
// while requests wait", as it happens under sway: swaybar, the tray host,
// exits while a request waits. The core notices, and the Servers window
// stands in for the tray; when sway starts swaybar again the core says a
// host shows its icon again.
func TestSwayTrayHostLost(t *testing.T) {
	d := startSway(t)
	d.shown("Welcome — Elicit Desk")
	d.start(d.app, "call", "-server", "demo", "-tool", "ask_confirm", "-args", "{}", "-answer", "desk")
	d.shown("demo: Do you want to continue? — Elicit Desk")
	const servers = "Servers — Elicit Desk"
	if strings.Contains(d.run("swaymsg", "-t", "get_tree"), servers) {
		t.Fatal("the Servers window shows although swaybar shows the tray")
	}
	bar := d.process("swaybar")
	if bar == 0 {
		t.Fatal("sway runs no swaybar")
	}
	// swaybar exits, as when the person turns the bar off. (Killed, it
	// would leave its status command holding sway's output open.)
	if err := syscall.Kill(bar, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	d.shown(servers)
	d.logged("the tray host went away")
	d.run("swaymsg", "reload") // sway starts its bar again
	d.logged("a tray host shows the icon again")
	if strings.Contains(d.appLog.String(), "panic") {
		t.Errorf("the app's log has a panic:\n%s", d.appLog)
	}
}

// logged waits until the app's log says what.
func (d *swayDesk) logged(what string) {
	d.t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(d.appLog.String(), what); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			d.t.Fatalf("the app's log does not say %q", what)
		}
	}
}

// process is the pid of a process named comm that runs as the test's
// throwaway user, or 0: one of the test's sway session's, found by its
// owner and not by its name alone, so that nothing else on the machine
// is touched. (sway starts swaybar in a process of its own whose parent
// is init, not sway.)
func (d *swayDesk) process(comm string) int {
	for _, pid := range processesOf(d.as.Uid) {
		name, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
		if err == nil && strings.TrimSpace(string(name)) == comm && !zombie(pid) {
			return pid
		}
	}
	return 0
}

// zombie reports whether pid has ended and waits to be reaped. An earlier
// test's swaybar can: orphaned when its sway ended, it went to PID 1,
// which in a container may never reap it, and the next test's user gets
// the same uid.
func zombie(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	i := bytes.LastIndexByte(stat, ')') // the command name may hold anything
	return err != nil || i < 0 || i+2 >= len(stat) || stat[i+2] == 'Z'
}

// processesOf lists the processes that run as uid.
func processesOf(uid uint32) []int {
	var pids []int
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, dir := range dirs {
		fi, err := os.Stat(dir)
		if err != nil {
			continue // it exited
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Uid == uid {
			pid, _ := strconv.Atoi(filepath.Base(dir))
			pids = append(pids, pid)
		}
	}
	return pids
}
