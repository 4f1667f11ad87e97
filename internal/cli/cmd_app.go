//go:build !headless || core

package cli

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/adrg/xdg"

	"github.com/elicitdesk/elicitdesk/assets"
	"github.com/elicitdesk/elicitdesk/internal/core"
	"github.com/elicitdesk/elicitdesk/internal/desktop/autostart"
	"github.com/elicitdesk/elicitdesk/internal/desktop/sessionbus"
	"github.com/elicitdesk/elicitdesk/internal/desktop/tray"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
)

// uiIdle is how long the windows' process stays after its last window
// closed, so a request soon after opens at once.
const uiIdle = 2 * time.Minute

// coreGCPercent is the core's GOGC unless the person set one. Where the
// app's binary runs the core, about 2 MB of heap stays live, half of it
// tables its libraries make as it starts (Fyne's translations, goldmark's,
// the JSON Schema meta-schemas); at Go's default of 100 the heap may grow
// to twice its live size before a collection, at 50 by half: about 1 MB
// less held all day (8.5 against 7.5 MB of private dirty pages). The
// core's own executable keeps under Go's 4 MB minimum heap goal either
// way (5.9 MB anonymous at 50 and at 100).
const coreGCPercent = 50

// runApp starts Elicit Desk's core: the connections of servers.json, the
// tray, the history and the endpoint, without Fyne. It starts the
// windows' process (runUI) while a window is needed. A second start
// brings the first forward.
func runApp(args []string, stdout, stderr terminal) int {
	exe, err := handOver(args, stderr)
	if err != nil {
		stderr.Linef("elicitdesk: %s", err)
		return 2
	}
	fs := stderr.FlagSet(appCommand)
	config := configFlag(fs)
	verbose := fs.Bool("v", false, "log every request and connection step")
	background := fs.Bool("background", false, "started by a bridge for a request: open no window before it (the bridge passes it)")
	idle := fs.Duration("ui-idle", uiIdle, "how long the windows' process stays after its last window closed")
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() != 0 {
		return misuse(fs, stderr)
	}
	log := newLog(stderr, *verbose)
	slog.SetDefault(log) // the tray library logs through the standard log
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(coreGCPercent)
	}

	// A signal (the session ending, systemd stopping the unit) quits as
	// the tray's Quit does: requests answered cancel, the windows told to
	// close, which they do at once. ctx, the rest's, ends after the core.
	signalled := make(chan os.Signal, 1)
	signal.Notify(signalled, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signalled)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sessionbus.Guard(ctx) // nothing may autolaunch a bus: its tray would outlive us

	login := autostart.Entry{ID: appID, Name: appName, Exec: []string{exe}}
	var c *core.Core // clicks come once it shows notifications, after Start
	notifier, noNotifications, notifyErr := coreNotifier(ctx, func(id uint32) { c.NoticeClicked(id) })
	prefs := core.PrefsFile(core.PrefsPath(appID))
	ui := uiStarter{exe: exe, config: *config, verbose: *verbose, idle: *idle, tray: func() bool { return c.TrayShown() }, log: log}
	c = core.New(ctx, core.Options{
		ConfigPath:  *config,
		HistoryPath: history.DefaultPath(xdg.DataHome),
		Demo:        demoOf(exe), // the app's binary, whichever runs the core
		Log:         log,
		Signer: newSigner(log, func(err error) {
			log.Warn("sign-ins to remote servers are kept in memory only, for this run; set "+tokenFileEnv+"=FILE to keep them in a file only you can read", "err", err)
		}, nil),
		History:         prefs.History,
		Windows:         prefs.Windows,
		Traffic:         prefs.Traffic,
		CapturePath:     traffic.DefaultCapturePath(xdg.StateHome),
		Background:      *background,
		StartUI:         ui.start,
		Notifier:        notifier,
		NotifyInWindows: notifyInWindows,
		NoNotifications: noNotifications,
	})
	go func() {
		select {
		case <-signalled:
			c.Quit()
		case <-c.Done():
		}
	}()
	path, err := endpoint.DefaultPath()
	var ep *endpoint.Server
	if err == nil {
		ep, err = endpoint.Listen(ctx, path, c.Endpoint(), log)
	}
	switch {
	case errors.Is(err, endpoint.ErrRunning):
		stdout.Linef("Elicit Desk is already running; it was brought to the front.")
		return 0
	case errors.Is(err, endpoint.ErrSilent), errors.Is(err, endpoint.ErrNotPrivate):
		stderr.Linef("elicitdesk: %s", err)
		return 1
	case errors.Is(err, endpoint.ErrUnreachable): // ep keeps the single-instance lock
		log.Warn("scripts and bridges cannot reach Elicit Desk; its own windows still can", "err", err)
	case err != nil:
		log.Warn("cannot make sure only one Elicit Desk runs; scripts cannot call through it", "err", err)
	}
	if notifyErr != nil {
		log.Info("the core shows no notifications", "err", notifyErr)
	}
	t, err := tray.Start(ctx, appName, assets.TrayIconPNG(false, false), nil, log)
	trayShown := false
	if err != nil {
		log.Info("running without a tray icon", "err", err)
	} else {
		_, trayShown = tray.Host(ctx)
		c.TrayHost(trayShown) // the core keeps it from here on
		c.Tray(t, login)
		go followTrayHost(ctx, c, trayShown, log)
	}
	if !trayShown {
		log.Info("no tray host shows the icon: the Servers window stands in for it")
	}
	if !trayShown && !*background {
		c.Show(core.Show{Window: core.WindowServers, Own: true})
	}
	if err := c.Start(); err != nil {
		ep.Close()
		c.Close()
		stderr.Linef("elicitdesk: %s", err)
		return 2
	}
	if ep != nil { // the one core, which bridges reach
		defer holdBusName(ctx, log)()
	}
	if t != nil {
		go func() {
			<-c.Done()
			t.Close()
		}()
		t.Run() // on the main goroutine, as macOS needs; until Close
	}
	<-c.Done()
	signal.Stop(signalled)
	cancel()
	ep.Close() // before the core: no request may reach it once it is gone
	c.Close()  // it ends the servers' processes
	ui.wait()  // the windows close with the core
	return 0
}

// followTrayHost tells the core each time the desktop's tray host goes
// away or comes back, until ctx ends: without one the Servers window
// stands in for the tray (Core.TrayHost).
func followTrayHost(ctx context.Context, c *core.Core, had bool, log *slog.Logger) {
	for shown := range tray.WatchHost(ctx, had, log) {
		if shown {
			log.Info("a tray host shows the icon again")
		} else {
			log.Info("the tray host went away: the Servers window stands in for it")
		}
		c.TrayHost(shown)
	}
}

// newLog is the log of the core or the windows: text, which quotes
// unprintable values.
func newLog(stderr terminal, verbose bool) *slog.Logger {
	level := slog.LevelInfo
	if verbose {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(stderr.Writer(), &slog.HandlerOptions{Level: level}))
}

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
}

// windowsEnv is the windows' process's environment: the core's, but on a
// Wayland desktop with Xwayland its windows are X11 ones (FYNE_PLATFORM
// x11, unless the person chose). Wayland lets no window appear without
// the keyboard (sway, for one, gives every new window of its own the
// focus), while an X11 window can ask not to take it (internal/desktop/xwin),
// which sway and the other compositors honour for Xwayland's windows.
func windowsEnv(env []string) []string {
	has := func(name string) bool {
		for _, kv := range env {
			if k, v, _ := strings.Cut(kv, "="); k == name && v != "" {
				return true
			}
		}
		return false
	}
	if has("WAYLAND_DISPLAY") && has("DISPLAY") && !has("FYNE_PLATFORM") {
		return append(env, "FYNE_PLATFORM=x11")
	}
	return env
}

// start starts the windows' process with its end of a private
// connection, and returns the core's end.
func (u *uiStarter) start(context.Context) (io.ReadWriteCloser, <-chan error, error) {
	args := []string{uiCommand, "-config", u.config, "-idle", u.idle.String()}
	if u.verbose {
		args = append(args, "-v")
	}
	if u.tray() {
		args = append(args, "-tray")
	}
	cmd := exec.Command(u.exe, args...)
	cmd.Stderr = os.Stderr
	cmd.Env = windowsEnv(os.Environ())
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

// holdBusName owns the app's name on the session bus, once the app
// answers on its endpoint, until ctx ends or release is called. A bridge
// that finds no app has the bus start it (the D-Bus service file that make
// install and the package install), and the bus takes the name as the sign
// that the app is up. The name is never taken from another owner; without
// a bus, a bridge starts the app itself.
func holdBusName(ctx context.Context, log *slog.Logger) (release func()) {
	conn, err := sessionbus.Own(ctx, appID)
	if err != nil {
		log.Debug("bridges cannot have the session bus start the app", "err", err)
		return func() {}
	}
	return func() { conn.Close() }
}
