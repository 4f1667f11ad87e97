//go:build linux

package cli

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNothingOutlivesItsHost: whatever way its host ends it, a bridge
// leaves no process behind, and neither does a process that runs servers
// itself (call, here, as the app does) when it is SIGKILLed. Every process
// the host had below it (the server, the server's own children, those that
// left its process group too, anything of ours in between) is gone soon
// after the host's first move. The goal is 100 ms, which
// BenchmarkNothingOutlivesItsHost measures; the bound here is what a
// loaded machine meets: 40 ms of the goal are the keeper's planned grace,
// and a shared CI machine took 145 ms to end a group (3 of 15 runs).
func TestNothingOutlivesItsHost(t *testing.T) {
	noApp(t)
	exe := asElicitdesk(t)
	t.Setenv("GORACE", "atexit_sleep_ms=0") // -race's exit otherwise waits a second of its own
	const within = 2 * time.Second
	for _, c := range hostEnds() {
		t.Run(c.name, func(t *testing.T) {
			procs, ended := endHost(t, exe, c, within+time.Second)
			var report []string
			for _, p := range procs {
				took, ok := ended[p]
				switch {
				case !ok:
					t.Errorf("%s still ran %s after the host's move", p, within+time.Second)
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

// BenchmarkNothingOutlivesItsHost measures, for each way of
// TestNothingOutlivesItsHost, the time from the host's move to the last
// process below it ending. The goal is 100 ms: a host such as Codex sends
// SIGKILL 42 ms after SIGTERM, and what it started should be gone soon
// after.
func BenchmarkNothingOutlivesItsHost(b *testing.B) {
	exe := asElicitdesk(b)
	b.Setenv("GORACE", "atexit_sleep_ms=0")
	for _, c := range hostEnds() {
		b.Run(c.name, func(b *testing.B) {
			noApp(b)
			var last []time.Duration
			for b.Loop() {
				procs, ended := endHost(b, exe, c, 10*time.Second)
				if len(ended) < len(procs) {
					b.Fatalf("of %v, only %d ended", procs, len(ended))
				}
				last = append(last, slices.Max(slices.Collect(maps.Values(ended))))
			}
			reportSpread(b, last, "ms-last-ended")
		})
	}
}

// hostEnd is a way a host ends a command of ours that runs a server.
type hostEnd struct {
	name   string
	args   []string // before "--" and the server's command line
	end    func(cmd *exec.Cmd, stdin io.Closer)
	script string // the server's sh script: it writes "$$ $!" to "$FIFO", the path put in
}

// hostEnds is each way a host ends its bridge, or call, for each kind of
// server: one obeying SIGTERM, one ignoring it, one whose child left its
// process group (double fork and setsid, as a daemon does).
func hostEnds() []hostEnd {
	kill := func(cmd *exec.Cmd, _ io.Closer) { cmd.Process.Kill() }
	hosts := []struct {
		name string
		args []string
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
	servers := []struct{ name, script string }{
		{"server obeying SIGTERM", `sleep 600 & echo $$ $! >"$FIFO"; exec sleep 600`},
		{"server ignoring SIGTERM", `trap '' TERM; sleep 600 & echo $$ $! >"$FIFO"; exec sleep 600`}, // its children inherit the ignoring
		{"server whose child left its group", `(setsid sleep 600 & echo $$ $! >"$FIFO"); exec sleep 600`},
	}
	var ends []hostEnd
	for _, h := range hosts {
		for _, s := range servers {
			ends = append(ends, hostEnd{h.name + "/" + s.name, h.args, h.end, s.script})
		}
	}
	return ends
}

// endHost starts exe as the host's command c.args with c's server, has the
// host end it as c says, and returns the processes that were below the
// host and, for each that ended within max of the host's move, when.
func endHost(tb testing.TB, exe string, c hostEnd, max time.Duration) ([]proc, map[proc]time.Duration) {
	tb.Helper()
	fifo := filepath.Join(tb.TempDir(), "pids")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		tb.Fatal(err)
	}
	script := strings.ReplaceAll(c.script, "$FIFO", fifo)
	cmd := exec.Command(exe, append(c.args, "--", "sh", "-c", script)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	tb.Cleanup(func() { cmd.Process.Kill(); <-exited })

	pids := serverStarted(tb, fifo, exited, &stderr)
	procs := descendants(cmd.Process.Pid)
	tb.Cleanup(func() {
		for _, p := range procs {
			p.kill()
		}
	})
	for _, pid := range pids {
		if !hasPid(procs, pid) {
			tb.Fatalf("the server's process %d is not below the host: %v", pid, procs)
		}
	}

	start := time.Now()
	moved := make(chan struct{})
	go func() { c.end(cmd, stdin); close(moved) }() // watched while it moves
	ended := awaitEnded(procs, start, max)
	<-moved
	return procs, ended
}

// serverStarted waits until the server has started its child and written
// both pids to fifo, and returns them.
func serverStarted(t testing.TB, fifo string, exited <-chan struct{}, stderr *bytes.Buffer) []int {
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
