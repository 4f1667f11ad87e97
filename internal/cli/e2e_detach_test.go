//go:build linux

package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/elicitdesk/elicitdesk/internal/corecmd"
)

// hostStart and hostCall are what a host without elicitation says to its
// MCP server: it starts the session and, once the server has answered
// (as hosts do: a server may handle requests concurrently, and the demo
// does), calls the demo's tool that asks the person.
const (
	hostStart = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fake-host","version":"1"}}}` + "\n"
	hostCall  = `{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask_confirm","arguments":{}}}
`
)

// TestCoreOutlivesItsHost: a core a bridge started, with no session bus to
// start it, is nobody's child, so a host that ends everything below it at
// its exit (Copilot CLI sent SIGTERM to the core so) ends the bridge and
// the server, not the core; a new bridge reaches the same core. Its log,
// which nothing else would read, is in a file.
func TestCoreOutlivesItsHost(t *testing.T) {
	t.Parallel()
	bin := os.Getenv(binEnv)
	if bin == "" {
		t.Skip(binEnv + " is not set: make test builds the app and sets it")
	}
	display, _ := startXvfb(t)
	home, homeEnv := privateHome(t)
	d := &desktop{t: t, bin: bin, home: home, log: &logBuffer{}}
	d.env = append(append(os.Environ(), "DISPLAY="+display, "FYNE_PLATFORM=x11", "DBUS_SESSION_BUS_ADDRESS=disabled:"), homeEnv...)
	t.Cleanup(func() { // before HOME goes: the core writes there until it ends
		for _, pid := range d.cores() {
			syscall.Kill(pid, syscall.SIGTERM)
		}
		for deadline := time.Now().Add(10 * time.Second); len(d.cores()) > 0 && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
	})

	first := d.bridge()
	asked := d.window("Do you want to continue")
	cores := d.cores()
	if len(cores) != 1 {
		t.Fatalf("cores running for the test's HOME: %v, want one", cores)
	}
	core := cores[0]
	if hasPid(descendants(first.Process.Pid), core) {
		t.Fatalf("the core (%d) is below the bridge (%d)", core, first.Process.Pid)
	}

	// The host's exit: SIGTERM to the bridge's group and to every process
	// below the bridge.
	for _, p := range descendants(first.Process.Pid) {
		syscall.Kill(p.pid, syscall.SIGTERM)
	}
	syscall.Kill(-first.Process.Pid, syscall.SIGTERM)
	first.Wait()
	if st, ok := stat(core); !ok || st.state == "Z" {
		t.Fatalf("the core (%d) ended with its host", core)
	} else if st.ppid == first.Process.Pid || st.ppid == os.Getpid() {
		t.Errorf("the core's parent is %d: the bridge's or the host's", st.ppid)
	}

	second := d.bridge()
	t.Cleanup(func() {
		second.Process.Kill()
		second.Wait()
	})
	d.window("Do you want to continue", asked)
	if now := d.cores(); len(now) != 1 || now[0] != core {
		t.Errorf("cores after a second bridge: %v, want the first, %d", now, core)
	}
	// Its standard error, /dev/null as the detacher leaves it, went to a
	// file, which nothing since emptied.
	logged, err := os.ReadFile(filepath.Join(home, ".local", "state", "elicitdesk", "elicitdesk.log"))
	if err != nil || !strings.Contains(string(logged), "the log goes to a file") {
		t.Errorf("the core's log file: %v\n%s", err, logged)
	}
}

// bridge starts, as a host does, elicitdesk bridge with the demo server
// in a process group of its own, and asks it to call the demo's
// ask_confirm tool; the host's end of stdin stays open.
func (d *desktop) bridge() *exec.Cmd {
	d.t.Helper()
	cmd := exec.Command(d.bin, "bridge", "--", d.bin, "demo-server")
	cmd.Env = d.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stderr = d.log
	stdin, err := cmd.StdinPipe()
	if err != nil {
		d.t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		d.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		d.t.Fatal(err)
	}
	started, once := make(chan struct{}), sync.Once{}
	go func() {
		lines := bufio.NewScanner(stdout)
		lines.Buffer(nil, 1<<20)
		for lines.Scan() {
			fmt.Fprintln(d.log, lines.Text())
			if gjson.Get(lines.Text(), "id").Raw == "1" {
				once.Do(func() { close(started) })
			}
		}
	}()
	d.t.Cleanup(func() {
		stdin.Close()
		if d.t.Failed() {
			d.t.Logf("bridges' log:\n%s", d.log)
		}
	})
	if _, err := io.WriteString(stdin, hostStart); err != nil {
		d.t.Fatal(err)
	}
	select {
	case <-started:
	case <-time.After(60 * time.Second):
		d.t.Fatalf("the server did not answer initialize through the bridge:\n%s", d.log)
	}
	if _, err := io.WriteString(stdin, hostCall); err != nil {
		d.t.Fatal(err)
	}
	return cmd
}

// cores lists the pids of the cores that run with the test's HOME: the
// elicitdesk (or elicitdesk-core) processes without a command.
func (d *desktop) cores() []int {
	var pids []int
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, dir := range dirs {
		env, _ := os.ReadFile(filepath.Join(dir, "environ"))
		if !strings.Contains("\x00"+string(env), "\x00HOME="+d.home+"\x00") {
			continue
		}
		args, _ := os.ReadFile(filepath.Join(dir, "cmdline"))
		argv := strings.Split(strings.TrimSuffix(string(args), "\x00"), "\x00")
		if name := filepath.Base(argv[0]); (name != filepath.Base(d.bin) && name != corecmd.Name) || (len(argv) > 1 && !strings.HasPrefix(argv[1], "-")) {
			continue
		}
		var pid int
		fmt.Sscan(filepath.Base(dir), &pid)
		if st, ok := stat(pid); ok && st.state != "Z" {
			pids = append(pids, pid)
		}
	}
	return pids
}
