//go:build !headless

package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"fyne.io/fyne/v2"
	"github.com/adrg/xdg"
	"github.com/go-gl/glfw/v3.4/glfw"

	"github.com/elicitdesk/elicitdesk/app"
	"github.com/elicitdesk/elicitdesk/app/atspi"
	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/build"
	"github.com/elicitdesk/elicitdesk/internal/core"
	"github.com/elicitdesk/elicitdesk/internal/corecmd"
	"github.com/elicitdesk/elicitdesk/internal/desktop/autostart"
	"github.com/elicitdesk/elicitdesk/internal/desktop/screen"
	"github.com/elicitdesk/elicitdesk/internal/desktop/sessionbus"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/internal/hosts"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
	"github.com/elicitdesk/elicitdesk/servers/config"
)

// runUI is the windows' process: Fyne, a window per request and the
// Servers, History, Hosts and Settings windows, over the core it reaches
// on the private connection it was started with. It exits once no window
// has shown for -idle, and when the core goes away.
func runUI(args []string, stdout, stderr terminal) int {
	fs := stderr.FlagSet(uiCommand)
	cfgPath := config.Flag(fs)
	verbose := fs.Bool("v", false, "log every request and window")
	idle := fs.Duration("idle", corecmd.UIIdle, "exit once no window has shown for this long (0: stay)")
	trayShown := fs.Bool("tray", false, "a tray host shows the core's icon (else the Servers window stands in)")
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() != 0 {
		return noArgs(fs, stderr)
	}
	log := corecmd.Log(stderr.Writer(), *verbose)
	exe, err := os.Executable()
	if err != nil {
		stderr.Linef("elicitdesk: %s", err)
		return 2
	}
	bridge, err := bridgeBinaries()
	if err != nil {
		log.Warn("hosts routed by an earlier elicitdesk may show as not routed", "err", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	conn, err := corecmd.CoreConn()
	if err != nil {
		stderr.Linef("elicitdesk ui: %s", err)
		return 1
	}
	defer conn.Close()

	sessionbus.Guard(ctx) // before Fyne, which dials the bus with autolaunch
	if err := makeCacheDir(); err != nil {
		log.Warn("no cache directory: Fyne keeps nothing between runs", "err", err)
	}
	a := app.NewFyne(appID, appName, build.Release)
	go func() {
		app.WarmFonts()
		log.Debug("fonts ready")
	}()
	d := app.New(ctx, a, core.NewRemote(conn), app.Options{
		ConfigPath:  *cfgPath,
		HistoryPath: history.DefaultPath(xdg.DataHome),
		Demo:        config.Demo(exe),
		Autostart:   autostart.Entry{ID: appID, Name: appName, Exec: []string{exe}},
		Log:         log,
		Bridge:      bridge,
		Hosts:       hosts.Known(hosts.Here()),
		Screen:      func() (screen.Screen, bool) { return screen.Find(a) },
		Dates:       forms.DateStyleFor(forms.LocaleOf(os.Getenv)),
		Version:     versionText(build.Release, buildInfo()),
		Idle:        *idle,
		TrayShown:   *trayShown,
		CapturePath: traffic.DefaultCapturePath(xdg.StateHome),
		WindowClass: appName, WindowInstance: appCommand,
	})
	if err := d.Start(); err != nil {
		stderr.Linef("elicitdesk: %s", err)
		return 2
	}
	atspi.Start(ctx, a, appName, log)
	go exitIfStuck(d, stderr)
	err = runDriver(a)
	stop()
	d.Close()
	if err == nil {
		err = d.Lost()
	}
	if err != nil {
		stderr.Linef("elicitdesk: %s", err)
		return 1
	}
	return 0
}

// stuckWait bounds how long Fyne may take to return from Run once the
// windows close for good.
const stuckWait = 5 * time.Second

// exitIfStuck ends the windows' process when Fyne has not returned from
// Run within stuckWait of the windows closing for good. Fyne 2.8.1 can
// hang there: it queues its own stop hook to run on its main loop while
// that loop drains its queue for the last time, and waits for it forever
// (internal/driver/glfw's runGL, then Lifecycle.WaitForEvents). Such a
// process held its stderr, and its memory, long after its core had gone.
// Nothing is left to do then but exit: the core keeps every request.
func exitIfStuck(d *app.Desk, stderr terminal) {
	<-d.Done()
	time.Sleep(stuckWait)
	code := 0
	if err := d.Lost(); err != nil {
		code = 1
	}
	stderr.Linef("elicitdesk ui: Fyne did not return from its event loop within %v of the windows closing: exiting", stuckWait)
	os.Exit(code)
}

// makeCacheDir makes the user's cache directory (os.UserCacheDir, which
// honours XDG_CACHE_HOME), private, when a new account has none yet: Fyne
// makes its own directory in it without its parents and logs "Failed to
// create fyne cache space" when it is missing.
func makeCacheDir() error {
	dir, err := os.UserCacheDir()
	if err != nil {
		return err
	}
	return os.MkdirAll(dir, 0o700)
}

// runDriver runs Fyne's event loop until the app quits. A display that
// goes away makes GLFW fail in whatever call comes next, which go-gl turns
// into a panic of a *glfw.Error: that ends the app with a message instead of
// a stack. Any other panic is a bug, and keeps its stack.
// (Xlib itself exits with status 1 when it notices the lost connection.)
func runDriver(a fyne.App) (err error) {
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		var lost *glfw.Error
		if e, ok := p.(error); !ok || !errors.As(e, &lost) {
			panic(p)
		}
		err = fmt.Errorf("lost the display (%v)", p)
	}()
	a.Run() // Fyne quits on SIGINT and SIGTERM by itself
	return nil
}
