// Package corecmd is Elicit Desk's core as a command: the app's flags, its
// start, the tray and the endpoint around internal/core, and the windows'
// process it starts on demand. It is the whole of elicitdesk-core, the
// core's own executable, which imports none of the other commands, so
// that what runs all day maps none of their code; the app's binary runs
// it too, where that executable is missing.
package corecmd

import (
	"context"
	"errors"
	"flag"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/adrg/xdg"

	"github.com/elicitdesk/elicitdesk/assets"
	"github.com/elicitdesk/elicitdesk/internal/base/term"
	"github.com/elicitdesk/elicitdesk/internal/core"
	"github.com/elicitdesk/elicitdesk/internal/desktop/autostart"
	"github.com/elicitdesk/elicitdesk/internal/desktop/sessionbus"
	"github.com/elicitdesk/elicitdesk/internal/desktop/tray"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
	"github.com/elicitdesk/elicitdesk/servers/config"
	"github.com/elicitdesk/elicitdesk/servers/signin"
)

// AppID is the application's reverse-DNS identity, and AppName what the
// desktop calls it: its menu entry, and the X11 window class that the
// entry's StartupWMClass names (FyneApp.toml and assets/linux agree).
const (
	AppID   = "io.github.elicitdesk"
	AppName = "Elicit Desk"
)

// The core runs all day; the windows only while one shows. So that the
// core need not map the code of Fyne, GL, the windows and the other
// commands, it has an executable of its own, Name (./elicitdesk-core),
// beside the app's binary (make build) or in lib/elicitdesk beside its bin
// folder (make install, the .deb), where the keeper is too. The app's
// binary hands the app over to it (HandOver), and the core starts the
// app's binary for the windows. Where it is missing (go build, go install,
// the fyne package archive, macOS, Windows), the app's binary runs the
// core itself (Run).
const Name = "elicitdesk-core"

// AppEnv tells the core the app's binary it was handed over from: the one
// it starts for the windows, runs the demo server with and names in the
// login entry.
const AppEnv = "ELICITDESK_APP"

// UICommand is the app's binary's command that runs the windows' process.
const UICommand = "ui"

// UIIdle is how long the windows' process stays after its last window
// closed, so a request soon after opens at once.
const UIIdle = 2 * time.Minute

// coreGCPercent is the core's GOGC unless the person set one. Where the
// app's binary runs the core, about 2 MB of heap stays live, half of it
// tables its libraries make as it starts (Fyne's translations, goldmark's,
// the JSON Schema meta-schemas); at Go's default of 100 the heap may grow
// to twice its live size before a collection, at 50 by half: about 1 MB
// less held all day (8.5 against 7.5 MB of private dirty pages). The
// core's own executable keeps under Go's 4 MB minimum heap goal either
// way (5.9 MB anonymous at 50 and at 100).
const coreGCPercent = 50

// Options are the app's command line, and the app's binary it runs for.
type Options struct {
	Exe        string // the app's binary: the windows' process, the demo server, the login entry
	Config     string // servers.json
	Verbose    bool
	Background bool // started by a bridge for a request
	UIIdle     time.Duration
}

// Flags adds the app's flags to fs; once fs has parsed them, options
// returns them (the caller names the app's binary, Exe).
func Flags(fs *flag.FlagSet) (options func() Options) {
	cfg := config.Flag(fs)
	verbose := fs.Bool("v", false, "log every request and connection step")
	background := fs.Bool("background", false, "started by a bridge for a request: open no window before it (the bridge passes it)")
	idle := fs.Duration("ui-idle", UIIdle, "how long the windows' process stays after its last window closed")
	return func() Options {
		return Options{Config: *cfg, Verbose: *verbose, Background: *background, UIIdle: *idle}
	}
}

// Main is elicitdesk-core's whole run: the app that the app's binary
// handed over (HandOver), with the arguments it checked.
func Main(args []string, stdout, stderr io.Writer) int {
	out, errs := term.To(stdout), term.To(stderr)
	exe := os.Getenv(AppEnv)
	if exe == "" {
		errs.Linef("%s runs when elicitdesk hands the app over to it: run elicitdesk", Name)
		return 2
	}
	fs := errs.FlagSet(Name)
	options := Flags(fs)
	if err := fs.Parse(args); err != nil || fs.NArg() != 0 {
		errs.Linef("%s: elicitdesk checks the app's command line before it hands it over, not %s", Name, strings.Join(args, " "))
		return 2
	}
	o := options()
	o.Exe = exe
	return Run(o, out, errs)
}

// Run runs Elicit Desk's core until Quit or a signal: the connections of
// servers.json, the tray, the history and the endpoint, without Fyne. It
// starts the windows' process (the app binary's UICommand) while a window
// is needed. A second start brings the first forward.
func Run(o Options, stdout, stderr term.Terminal) int {
	os.Unsetenv(AppEnv) // handed over or inherited: not the servers' and the windows'
	log := Log(stderr.Writer(), o.Verbose)
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

	login := autostart.Entry{ID: AppID, Name: AppName, Exec: []string{o.Exe}}
	var c *core.Core // clicks come once it shows notifications, after Start
	notifier, noNotifications, notifyErr := coreNotifier(ctx, func(id uint32) { c.NoticeClicked(id) })
	prefs := core.PrefsFile(core.PrefsPath(AppID))
	ui := uiStarter{exe: o.Exe, config: o.Config, verbose: o.Verbose, idle: o.UIIdle, tray: func() bool { return c.TrayShown() }, log: log}
	c = core.New(ctx, core.Options{
		ConfigPath:  o.Config,
		HistoryPath: history.DefaultPath(xdg.DataHome),
		Demo:        config.Demo(o.Exe), // the app's binary, whichever runs the core
		Log:         log,
		Signer: signin.FromEnv(log, func(err error) {
			log.Warn("sign-ins to remote servers are kept in memory only, for this run; set "+signin.TokenFileEnv+"=FILE to keep them in a file only you can read", "err", err)
		}, nil),
		History:         prefs.History,
		Windows:         prefs.Windows,
		Traffic:         prefs.Traffic,
		CapturePath:     traffic.DefaultCapturePath(xdg.StateHome),
		Background:      o.Background,
		StartUI:         ui.start,
		Notifier:        notifier,
		NotifyInWindows: notifyInWindows,
		NoNotifications: noNotifications,
	})
	go func() {
		select {
		case sig := <-signalled:
			c.QuitFor("signal " + sig.String()) // the session's end, a kill, Ctrl+C
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
		stdout.Linef("Elicit Desk is already running; it was asked to show its window.")
		if reads := runningConfig(ctx, path, o.Config); reads != "" {
			stdout.Linef("It reads %s, not %s: quit it and start again to use that one.", reads, o.Config)
		}
		return 0
	case errors.Is(err, endpoint.ErrSilent), errors.Is(err, endpoint.ErrNotPrivate):
		stderr.Linef("elicitdesk: %s", err)
		return 1
	case errors.Is(err, endpoint.ErrUnreachable): // ep keeps the single-instance lock
		log.Warn("scripts and bridges cannot reach Elicit Desk; its own windows still can", "err", err)
	case err != nil:
		log.Warn("cannot make sure only one Elicit Desk runs; scripts cannot call through it", "err", err)
	}
	if logPath := LogPath(); ep != nil && logToFile(logPath) { // the one core, which holds the lock: nothing else writes the file
		log.Info("the log goes to a file: nothing reads the app's standard error", "file", logPath)
	}
	switch {
	case notifyErr != nil && notifier != nil:
		log.Info("no notification server runs yet: notifications show once one does", "err", notifyErr)
	case notifyErr != nil:
		log.Info("the core shows no notifications", "err", notifyErr)
	}
	t, err := tray.Start(ctx, AppName, assets.TrayIconPNG(false, false), nil, log)
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
	if !trayShown && !o.Background {
		c.Show(core.Show{Window: core.WindowServers, Own: true})
	}
	if err := c.Start(); err != nil {
		ep.Close()
		c.Close()
		stderr.Linef("elicitdesk: %s", err)
		return 2
	}
	if ep != nil { // the one core, which bridges reach
		defer HoldBusName(ctx, log)()
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

// runningConfig is the servers.json the Elicit Desk running at path
// reads, when it is not config; "" when it is, or the app does not say.
func runningConfig(ctx context.Context, path, config string) string {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	abs, err := filepath.Abs(config)
	if err != nil {
		return ""
	}
	c, err := endpoint.Dial(ctx, path)
	if err != nil {
		return ""
	}
	defer c.Close()
	var other *endpoint.OtherConfigError
	if _, err := c.Servers(ctx, endpoint.ServersQuery{Config: abs}); errors.As(err, &other) {
		return other.Reads
	}
	return ""
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

// LogPath is where the core writes its log when its standard error goes
// nowhere (logToFile).
func LogPath() string { return filepath.Join(xdg.StateHome, "elicitdesk", "elicitdesk.log") }

// Log is the log of the core or the windows: text, which quotes
// unprintable values.
func Log(w io.Writer, verbose bool) *slog.Logger {
	level := slog.LevelInfo
	if verbose {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
}

// HoldBusName owns the app's name on the session bus, once the app
// answers on its endpoint, until ctx ends or release is called. A bridge
// that finds no app has the bus start it (the D-Bus service file that make
// install and the package install), and the bus takes the name as the sign
// that the app is up. The name is never taken from another owner; without
// a bus, a bridge starts the app itself.
func HoldBusName(ctx context.Context, log *slog.Logger) (release func()) {
	conn, err := sessionbus.Own(ctx, AppID)
	if err != nil {
		log.Debug("bridges cannot have the session bus start the app", "err", err)
		return func() {}
	}
	return func() { conn.Close() }
}
