//go:build linux

package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNothingOutlivesItsHost: whatever way its host ends it, a bridge
// leaves no process behind, and neither does a process that runs servers
// itself (call, here, as the app does) when it is SIGKILLed. Every process
// the host had below it (the server, the server's own child, anything of
// ours in between) is gone within 100 ms of the host's first move.
func TestNothingOutlivesItsHost(t *testing.T) {
	noApp(t)
	exe := asElicitdesk(t)
	t.Setenv("GORACE", "atexit_sleep_ms=0") // -race's exit otherwise waits a second of its own
	const within = 100 * time.Millisecond
	kill := func(cmd *exec.Cmd, _ io.Closer) { cmd.Process.Kill() }
	hosts := []struct {
		name string
		args []string // before "--" and the server's command line
		end  func(cmd *exec.Cmd, stdin io.Closer)
	}{
		{"bridge, stdin closed", []string{"bridge"}, func(_ *exec.Cmd, stdin io.Closer) { stdin.Close() }},
		{"bridge, SIGTERM then SIGKILL 40 ms later", []string{"bridge"}, func(cmd *exec.Cmd, _ io.Closer) {
			cmd.Process.Signal(syscall.SIGTERM)
			time.Sleep(40 * time.Millisecond) // Codex's own gap: the scenario, not a wait
			cmd.Process.Kill()
		}},
		{"bridge, SIGKILL", []string{"bridge"}, kill},
		{"call, SIGKILL", []string{"call", "-tool", "anything"}, kill},
	}
	servers := []struct{ name, trap string }{
		{"server obeying SIGTERM", ""},
		{"server ignoring SIGTERM", "trap '' TERM; "}, // its children inherit the ignoring
	}
	for _, host := range hosts {
		for _, server := range servers {
			t.Run(host.name+"/"+server.name, func(t *testing.T) {
				fifo := filepath.Join(t.TempDir(), "pids")
				if err := syscall.Mkfifo(fifo, 0o600); err != nil {
					t.Fatal(err)
				}
				script := server.trap + "sleep 600 & echo $$ $! >" + fifo + "; exec sleep 600"
				cmd := exec.Command(exe, append(host.args, "--", "sh", "-c", script)...)
				stdin, err := cmd.StdinPipe()
				if err != nil {
					t.Fatal(err)
				}
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				exited := make(chan struct{})
				go func() { cmd.Wait(); close(exited) }()
				t.Cleanup(func() { cmd.Process.Kill(); <-exited })

				pids := serverStarted(t, fifo, exited, &stderr)
				procs := descendants(cmd.Process.Pid)
				t.Cleanup(func() {
					for _, p := range procs {
						p.kill()
					}
				})
				for _, pid := range pids {
					if !hasPid(procs, pid) {
						t.Fatalf("the server's process %d is not below the host: %v", pid, procs)
					}
				}

				start := time.Now()
				moved := make(chan struct{})
				go func() { host.end(cmd, stdin); close(moved) }() // watched while it moves
				ended := awaitEnded(procs, start, 3*time.Second)
				<-moved
				var report []string
				for _, p := range procs {
					took, ok := ended[p]
					switch {
					case !ok:
						t.Errorf("%s still ran 3 s after the host's move", p)
						report = append(report, p.name+" running")
						continue
					case took > within:
						t.Errorf("%s ended %s after the host's move, want at most %s", p, took.Round(time.Millisecond), within)
					}
					report = append(report, fmt.Sprintf("%s %s", p.name, took.Round(time.Millisecond)))
				}
				t.Logf("ended after the host's move: %s", strings.Join(report, ", "))
			})
		}
	}
}

// serverStarted waits until the server has started its child and written
// both pids to fifo, and returns them.
func serverStarted(t *testing.T, fifo string, exited <-chan struct{}, stderr *bytes.Buffer) []int {
	t.Helper()
	read := make(chan []byte, 1)
	go func() {
		b, _ := os.ReadFile(fifo) // returns once the server has written and closed
		read <- b
	}()
	unblock := func() { // a reader still waiting for a writer
		if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	}
	select {
	case b := <-read:
		var pids []int
		for _, f := range strings.Fields(string(b)) {
			pid, err := strconv.Atoi(f)
			if err != nil {
				t.Fatalf("the server wrote %q", b)
			}
			pids = append(pids, pid)
		}
		if len(pids) != 2 {
			t.Fatalf("the server wrote %q, want its pid and its child's", b)
		}
		return pids
	case <-exited:
		unblock()
		t.Fatalf("the host exited before its server started:\n%s", stderr)
	case <-time.After(30 * time.Second):
		unblock()
		t.Fatal("the server did not start in 30 s")
	}
	return nil
}

// proc is a process, told apart from a later one with the same pid by
// when it started.
type proc struct {
	pid     int
	started string
	name    string // the name of its program, for the report
}

func (p proc) String() string { return fmt.Sprintf("%s (%d)", p.name, p.pid) }

// running reports whether p still runs (a zombie has ended).
func (p proc) running() bool {
	st, ok := stat(p.pid)
	return ok && st.started == p.started && st.state != "Z"
}

func (p proc) kill() {
	if p.running() {
		syscall.Kill(p.pid, syscall.SIGKILL)
	}
}

// procStat is what the tests read of /proc/PID/stat.
type procStat struct {
	name, state, started string
	ppid                 int
}

func stat(pid int) (procStat, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return procStat{}, false
	}
	// pid (comm) state ppid pgrp ... starttime is the 22nd field; comm
	// may hold spaces and parentheses, so count from its closing one.
	s := string(b)
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	f := strings.Fields(s[end+1:])
	if open < 0 || len(f) < 20 {
		return procStat{}, false
	}
	ppid, _ := strconv.Atoi(f[1])
	return procStat{name: s[open+1 : end], state: f[0], ppid: ppid, started: f[19]}, true
}

// descendants returns root and every process below it.
func descendants(root int) []proc {
	children := map[int][]int{}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil {
			continue
		}
		if st, ok := stat(pid); ok {
			children[st.ppid] = append(children[st.ppid], pid)
		}
	}
	var procs []proc
	for queue := []int{root}; len(queue) > 0; queue = queue[1:] {
		pid := queue[0]
		if st, ok := stat(pid); ok {
			procs = append(procs, proc{pid: pid, started: st.started, name: st.name})
		}
		queue = append(queue, children[pid]...)
	}
	return procs
}

func hasPid(procs []proc, pid int) bool {
	for _, p := range procs {
		if p.pid == pid {
			return true
		}
	}
	return false
}

// awaitEnded polls until none of procs runs or max has passed since
// start, and returns when each ended, after start.
func awaitEnded(procs []proc, start time.Time, max time.Duration) map[proc]time.Duration {
	ended := map[proc]time.Duration{}
	for len(ended) < len(procs) && time.Since(start) < max {
		for _, p := range procs {
			if _, done := ended[p]; !done && !p.running() {
				ended[p] = time.Since(start)
			}
		}
		time.Sleep(time.Millisecond)
	}
	return ended
}
