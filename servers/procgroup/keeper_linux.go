package procgroup

import (
	"encoding/json"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// keeperName is the argv[0] under which Start runs this executable again
// as a keeper; ps shows it before the command kept.
const keeperName = "elicitdesk-keeper"

// orphanGrace is how long the group of a keeper whose parent died gets
// between SIGTERM and SIGKILL. A host that SIGKILLs the bridge may have
// sent SIGTERM first (Codex: SIGKILL 42 ms after it), and the bridge then
// passed it on at once; 40 ms more keeps the end of the whole group within
// 100 ms of the host's first signal.
const orphanGrace = 40 * time.Millisecond

// A keeper is taken over here, before main or TestMain, in any binary that
// can call Start: there is nothing to register and no way to forget to.
func init() {
	if len(os.Args) > 2 && os.Args[0] == keeperName {
		keep(os.Args[1], os.Args[2:])
	}
}

// keep is the whole life of a keeper: it runs the command at path with
// args in a group of its own, on the keeper's stdin, stdout and stderr,
// reports on fd 3, and never returns.
func keep(path string, args []string) {
	// Read before the handler is set: a parent dead by then has sent the
	// SIGTERM that ends this process by default, before it starts anything.
	parent := os.Getppid()
	// Named for top and ps -e, not "exe" after /proc/self/exe (cut to 15 bytes).
	if name, err := unix.BytePtrFromString(keeperName); err == nil {
		unix.Prctl(unix.PR_SET_NAME, uintptr(unsafe.Pointer(name)), 0, 0, 0)
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)

	status := os.NewFile(3, "status")
	syscall.CloseOnExec(3)
	// A keeper killed outright (by hand, by a host ending every process
	// below it) takes its command with it: nothing here ends a thread.
	cmd := &exec.Cmd{Path: path, Args: args, Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}}
	err := cmd.Start()
	rep := report{}
	if err != nil {
		rep.Failed = failed(err)
	} else {
		rep.Pid = cmd.Process.Pid
	}
	json.NewEncoder(status).Encode(rep)
	status.Close()
	if err != nil {
		syscall.Exit(127)
	}
	// Only the command holds its streams now: the caller sees its stdout
	// end when it exits, and a write to its stdin fail.
	os.Stdin.Close()
	os.Stdout.Close()
	os.Stderr.Close()

	group := cmd.Process.Pid
	exited := make(chan struct{})
	go func() {
		waitUnreaped(group)
		close(exited)
	}()
	for {
		select {
		case <-exited:
			// Before reaping, while the exited command still holds its
			// pid: the group cannot be another by then.
			syscall.Kill(-group, syscall.SIGKILL) // its children: the command is gone
			cmd.Wait()
			endLike(cmd.ProcessState.Sys().(syscall.WaitStatus))
		case <-sigs:
			// SIGTERM is the parent-death signal, but it also comes when
			// the parent's thread that started us ends, the parent still
			// running (golang/go#27505: the Go runtime ends a thread whose
			// locked goroutine returns), or from a host that signals every
			// process below it, while the parent stops the group itself.
			// Only a parent that changed has died.
			if os.Getppid() == parent {
				continue
			}
			syscall.Kill(-group, syscall.SIGTERM)
			select {
			case <-exited:
			case <-time.After(orphanGrace):
			}
			syscall.Kill(-group, syscall.SIGKILL)
			syscall.Exit(1) // nobody is left to read it
		}
	}
}

// waitUnreaped returns once the process pid has exited, leaving it to be
// reaped.
func waitUnreaped(pid int) {
	var info unix.Siginfo
	for unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil) == syscall.EINTR {
	}
}

// endLike ends the keeper as its command ended, so that the caller's Wait
// tells an exit code or a signal (a crash, a kill) as if it had waited for
// the command itself.
func endLike(ws syscall.WaitStatus) {
	if ws.Signaled() {
		sig := ws.Signal()
		// The Go runtime handles every signal; give this one back its
		// default action (an all-zero struct sigaction is SIG_DFL), and
		// dump no core: the command's crash is not the keeper's.
		var dfl [4]uint64
		syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&dfl)), 0, 8, 0, 0)
		unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
		// To this thread, which takes it on its way back from the call,
		// before it could exit otherwise.
		runtime.LockOSThread()
		unix.Tgkill(unix.Getpid(), unix.Gettid(), sig)
		syscall.Exit(128 + int(sig)) // a signal that would not end us
	}
	syscall.Exit(ws.ExitStatus())
}
