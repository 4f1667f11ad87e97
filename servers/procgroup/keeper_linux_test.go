//go:build cgo

package procgroup

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestKeeperEndsAsItsCommand: the caller's Wait tells how the command
// ended, exit code or signal, as if the keeper were not there, and the
// command's output reaches the caller.
func TestKeeperEndsAsItsCommand(t *testing.T) {
	tests := []struct {
		script string
		code   int            // when not signalled
		signal syscall.Signal // when signalled
	}{
		{"echo out; exit 0", 0, 0},
		{"echo out; exit 3", 3, 0},
		{"echo out; kill -TERM $$", 0, syscall.SIGTERM},
		{"echo out; kill -KILL $$", 0, syscall.SIGKILL},
		{"echo out; kill -SEGV $$", 0, syscall.SIGSEGV}, // a crash, whose core is not the keeper's to dump
	}
	for _, tt := range tests {
		t.Run(tt.script, func(t *testing.T) {
			cmd := exec.Command("sh", "-c", tt.script)
			var out strings.Builder
			cmd.Stdout = &out
			if _, err := Start(cmd); err != nil {
				t.Fatal(err)
			}
			cmd.Wait()
			ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
			switch {
			case tt.signal != 0 && (!ws.Signaled() || ws.Signal() != tt.signal):
				t.Errorf("ended %v, want killed by %v", cmd.ProcessState, tt.signal)
			case tt.signal == 0 && (ws.Signaled() || ws.ExitStatus() != tt.code):
				t.Errorf("ended %v, want exit %d", cmd.ProcessState, tt.code)
			}
			if out.String() != "out\n" {
				t.Errorf("output %q", out.String())
			}
		})
	}
}

// TestStartFailsAsExec: a command that cannot start fails Start with the
// error os/exec gives when it starts it in a group of its own, which
// callers tell apart (not found, not a program, no such directory).
func TestStartFailsAsExec(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "text")
	if err := os.WriteFile(text, []byte("not a program\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	unrunnable := filepath.Join(dir, "unrunnable")
	if err := os.WriteFile(unrunnable, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, dir string
	}{
		{"missing", filepath.Join(dir, "missing"), ""},
		{"missing, a name JSON escapes", filepath.Join(dir, "a\"b\\c\nd\x01e\u00e9"), ""},
		{"not on PATH", "no-such-command-here", ""},
		{"not a program", text, ""},
		{"not executable", unrunnable, ""},
		{"missing working directory", "/bin/sh", filepath.Join(dir, "gone")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			direct := exec.Command(tt.path)
			direct.Dir = tt.dir
			direct.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			want := direct.Start()
			kept := exec.Command(tt.path)
			kept.Dir = tt.dir
			_, got := Start(kept)
			if want == nil || got == nil || got.Error() != want.Error() || fmt.Sprintf("%T", errors.Unwrap(got)) != fmt.Sprintf("%T", errors.Unwrap(want)) {
				t.Errorf("got %v (%T), want %v (%T)", got, got, want, want)
			}
		})
	}
}

// TestCommandsChildrenEndWithIt: the command's own children end when it
// exits, whether or not anybody stops the group.
func TestCommandsChildrenEndWithIt(t *testing.T) {
	cmd := exec.Command("sh", "-c", "sleep 600 & echo $!")
	var out strings.Builder
	cmd.Stdout = &out
	cmd.WaitDelay = time.Second // the child holds stdout while it runs
	if _, err := Start(cmd); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	child, err := strconv.Atoi(strings.TrimSpace(out.String()))
	if err != nil {
		t.Fatalf("output %q", out.String())
	}
	t.Cleanup(func() { syscall.Kill(child, syscall.SIGKILL) })
	if !awaitEnded(child, 2*time.Second) {
		t.Errorf("the command's child %d runs on after it", child)
	}
}

// TestKeeperOutlivesItsStartingThread: the parent-death signal also comes
// when the thread that started the keeper ends, its process running on
// (the Go runtime ends a thread whose locked goroutine returns). The
// keeper must not take that for its parent's death.
func TestKeeperOutlivesItsStartingThread(t *testing.T) {
	cmd := exec.Command("cat")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var thread int
	onEndingThread(func() {
		thread = unix.Gettid()
		_, err = Start(cmd)
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	deadline := time.Now().Add(5 * time.Second)
	for exists(fmt.Sprintf("/proc/self/task/%d", thread)) { // the signal is sent as it goes
		if time.Now().After(deadline) {
			t.Fatal("the locked thread did not end")
		}
		time.Sleep(time.Millisecond)
	}
	// A keeper that took it for its parent's death would end cat within
	// orphanGrace; cat still answering well after says it did not.
	lines := bufio.NewReader(stdout)
	for end := time.Now().Add(5 * orphanGrace); time.Now().Before(end); {
		if _, err := stdin.Write([]byte("ping\n")); err != nil {
			t.Fatalf("the command ended with the thread that started it: %v", err)
		}
		if _, err := lines.ReadString('\n'); err != nil {
			t.Fatalf("the command ended with the thread that started it: %v", err)
		}
		time.Sleep(time.Millisecond) // pings spread over the window the keeper would end cat in
	}
}

// onEndingThread runs f on a thread of its own, which ends when f returns.
func onEndingThread(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		if unix.Gettid() == os.Getpid() {
			// The main thread, which the runtime never ends: hold it,
			// so that the next goroutine runs elsewhere.
			defer runtime.UnlockOSThread()
			onEndingThread(f)
			return
		}
		f()
	}()
	<-done
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// awaitEnded reports whether the process pid ends (or is a zombie) within d.
func awaitEnded(pid int, d time.Duration) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(time.Millisecond) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil || strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))[0] == "Z" {
			return true
		}
	}
	return false
}

// TestChildrenThatLeftTheGroupEnd: a command's descendants that left its
// process group (setsid; a double fork and setsid, as a daemon does) end
// with it when it is stopped: the keeper, their subreaper, has ended and
// reaped them by the time the caller's Wait returns.
func TestChildrenThatLeftTheGroupEnd(t *testing.T) {
	for _, tt := range []struct{ name, script string }{
		{"setsid", "setsid sleep 600 & echo $!; exec cat"},
		{"double fork and setsid", "(setsid sleep 600 & echo $!); exec cat"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command("sh", "-c", tt.script)
			group, _, escaped := startLeaver(t, cmd) // cat waits on stdin, open
			t.Cleanup(func() { syscall.Kill(escaped, syscall.SIGKILL) })
			group.Terminate()
			cmd.Wait()
			if exists(fmt.Sprintf("/proc/%d", escaped)) {
				t.Errorf("the child %d that left the group runs on after the command was stopped", escaped)
			}
		})
	}
}

// startLeaver starts cmd, a shell whose first line of output is the pid
// of a process it started that leaves its group, and returns its group,
// its stdin and that pid once the process has left.
func startLeaver(t *testing.T, cmd *exec.Cmd) (Group, io.WriteCloser, int) {
	t.Helper()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	group, err := Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	pid := readPid(t, stdout)
	awaitLeft(t, pid, group)
	return group, stdin, pid
}

// TestKeeperReapsOrphans: a process that left the command's group and
// outlived its parent is handed to the keeper, which reaps it once it
// exits: no zombie stays while the command runs on.
func TestKeeperReapsOrphans(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "exit")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", `(setsid sh -c 'read x <"$1"' sh "$1" & echo $!); exec cat`, "sh", fifo)
	_, stdin, orphan := startLeaver(t, cmd)
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	deadline := time.Now().Add(10 * time.Second)
	for ppid(orphan) != cmd.Process.Pid { // once the subshell, its parent, has exited
		if time.Now().After(deadline) {
			t.Fatalf("the orphan %d has parent %d, not the keeper %d", orphan, ppid(orphan), cmd.Process.Pid)
		}
		time.Sleep(time.Millisecond)
	}
	if err := os.WriteFile(fifo, []byte("exit\n"), 0); err != nil { // the orphan exits
		t.Fatal(err)
	}
	for exists(fmt.Sprintf("/proc/%d", orphan)) {
		if time.Now().After(deadline) {
			t.Fatalf("the orphan %d stays a zombie of the keeper", orphan)
		}
		time.Sleep(time.Millisecond)
	}
	if _, err := stdin.Write([]byte("still there\n")); err != nil {
		t.Errorf("the command ended with the orphan: %v", err)
	}
}

// readPid reads a pid, the first line the command writes.
func readPid(t *testing.T, stdout io.Reader) int {
	t.Helper()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	pid, aerr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || aerr != nil {
		t.Fatalf("the command wrote %q, not a pid: %v", line, err)
	}
	return pid
}

// awaitLeft waits until the process pid is in a group other than g.
func awaitLeft(t *testing.T, pid int, g Group) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		pgid, err := syscall.Getpgid(pid)
		if err == nil && pgid != g.id {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the process %d did not leave the group %d (%d, %v)", pid, g.id, pgid, err)
		}
	}
}

// ppid is the parent of the process pid, 0 if it has gone.
func ppid(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	p, _ := strconv.Atoi(f[1])
	return p
}

// TestInstalledKeeper: with elicitdesk-keeper beside the executable, as
// make install puts it, Start runs that one, which keeps a command as the
// executable's own keeper does: built as the Makefile builds it (static,
// with musl) and with the C compiler Go uses (a shared glibc).
func TestInstalledKeeper(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	keeper := filepath.Join(filepath.Dir(exe), keeperName)
	cc := "cc"
	if out, err := exec.Command("go", "env", "CC").Output(); err == nil && strings.TrimSpace(string(out)) != "" {
		cc = strings.TrimSpace(string(out))
	}
	for _, build := range [][]string{{"musl-gcc", "-static"}, {cc}} {
		t.Run(build[0], func(t *testing.T) {
			if _, err := exec.LookPath(build[0]); err != nil {
				t.Skipf("%s is missing (make deps installs it): %v", build[0], err)
			}
			args := append(build[1:], "-O2", "-Wall", "-Werror", "-o", keeper, "keeper/main.c")
			if out, err := exec.Command(build[0], args...).CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", build, err, out)
			}
			t.Cleanup(func() { os.Remove(keeper) })
			keepsLikeItsCommand(t, keeper)
		})
	}
}

// keepsLikeItsCommand checks that Start runs the keeper at path, and
// that the caller sees the command's output and exit as if it were not
// there.
func keepsLikeItsCommand(t *testing.T, keeper string) {
	cmd := exec.Command("sh", "-c", "cat; exit 3")
	var out strings.Builder
	cmd.Stdout = &out
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Start(cmd); err != nil {
		t.Fatal(err)
	}
	ran, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", cmd.Process.Pid)) // running: cat waits for stdin's end
	stdin.Write([]byte("kept\n"))
	stdin.Close()
	err = cmd.Wait()
	if ran != keeper {
		t.Errorf("the keeper ran %q, want %q", ran, keeper)
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Errorf("Wait: %v, want exit status 3", err)
	}
	if out.String() != "kept\n" {
		t.Errorf("the caller read %q, want the command's output %q", out.String(), "kept\n")
	}
}
