package corecmd

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// uiStarter starts the windows' process: the app's binary's ui command
// (exe, whichever binary runs the core), with the core's environment (its
// display and session bus).
type uiStarter struct {
	exe     string
	config  string
	verbose bool
	idle    time.Duration
	tray    func() bool // a tray host shows the core's icon: the core says
	log     *slog.Logger
	running sync.WaitGroup
	mu      sync.Mutex
	proc    *os.Process // the one running, to kill if it does not exit at quit
	closed  bool        // wait has begun: no process starts any more
	warned  sync.Once   // that the windows are Wayland ones, which take the keyboard
}

// windowsEnv is the windows' process's environment: the core's, but on a
// Wayland desktop with Xwayland its windows are X11 ones (FYNE_PLATFORM
// x11, unless the person chose). Wayland lets no window appear without
// the keyboard (sway, for one, gives every new window of its own the
// focus), while an X11 window can ask not to take it (internal/desktop/xwin),
// which sway and the other compositors honour for Xwayland's windows.
// native says the windows will be Wayland ones all the same: a Wayland
// desktop without Xwayland.
func windowsEnv(env []string) (_ []string, native bool) {
	has := func(name string) bool {
		for _, kv := range env {
			if k, v, _ := strings.Cut(kv, "="); k == name && v != "" {
				return true
			}
		}
		return false
	}
	switch {
	case !has("WAYLAND_DISPLAY") || has("FYNE_PLATFORM"):
		return env, false
	case has("DISPLAY"):
		return append(env, "FYNE_PLATFORM=x11"), false
	}
	return env, true
}

// start starts the windows' process with its end of a private
// connection, and returns the core's end.
func (u *uiStarter) start(context.Context) (io.ReadWriteCloser, <-chan error, error) {
	args := []string{UICommand, "-config", u.config, "-idle", u.idle.String()}
	if u.verbose {
		args = append(args, "-v")
	}
	if u.tray() {
		args = append(args, "-tray")
	}
	cmd := exec.Command(u.exe, args...)
	cmd.Stderr = os.Stderr
	env, native := windowsEnv(os.Environ())
	if native {
		u.warned.Do(func() {
			u.log.Warn("no Xwayland on this Wayland desktop: request windows take the keyboard as they appear, " +
				"as Wayland gives every new window; what is typed is dropped until you click in one or press F6 as it says")
		})
	}
	cmd.Env = env
	conn, started, err := privateConn(cmd)
	if err != nil {
		return nil, nil, err
	}
	u.mu.Lock() // no process starts once wait has begun
	quitting := u.closed
	if !quitting {
		u.running.Add(1)
	}
	u.mu.Unlock()
	if quitting {
		conn.Close()
		started()
		return nil, nil, errors.New("quitting: no windows' process starts any more")
	}
	err = cmd.Start()
	started()
	if err != nil {
		u.running.Done()
		conn.Close()
		return nil, nil, err
	}
	u.log.Debug("windows' process started", "pid", cmd.Process.Pid)
	exited := make(chan error, 1)
	u.mu.Lock()
	u.proc = cmd.Process
	u.mu.Unlock()
	go func() {
		defer u.running.Done()
		err := cmd.Wait()
		u.mu.Lock()
		if u.proc == cmd.Process {
			u.proc = nil
		}
		u.mu.Unlock()
		exited <- err
	}()
	return conn, exited, nil
}

// uiQuitWait bounds how long a quitting core waits for its windows'
// process, which exits when its connection ends, before it kills it.
const uiQuitWait = 3 * time.Second

// wait waits for the windows' process to exit, killing it after
// uiQuitWait: quit never hangs on it.
func (u *uiStarter) wait() {
	u.mu.Lock()
	u.closed = true
	u.mu.Unlock()
	done := make(chan struct{})
	go func() {
		u.running.Wait()
		close(done)
	}()
	select {
	case <-done:
		return
	case <-time.After(uiQuitWait):
	}
	u.mu.Lock()
	if p := u.proc; p != nil {
		u.log.Warn("the windows' process did not exit: killing it", "pid", p.Pid)
		p.Kill()
	}
	u.mu.Unlock()
	<-done
}
