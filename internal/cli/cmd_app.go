package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"
	"github.com/adrg/xdg"

	"github.com/elicitdesk/elicitdesk/app"
	"github.com/elicitdesk/elicitdesk/app/control"
	"github.com/elicitdesk/elicitdesk/app/instance"
	"github.com/elicitdesk/elicitdesk/assets"
	"github.com/elicitdesk/elicitdesk/internal/autostart"
	"github.com/elicitdesk/elicitdesk/internal/history"
)

// runApp starts the desktop app: the tray, a window per request, the
// connections of servers.json. A second start brings the first forward.
func runApp(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("elicitdesk", flag.ContinueOnError)
	fs.SetOutput(stderr)
	config := configFlag(fs)
	verbose := fs.Bool("v", false, "log every request and connection step")
	if err := fs.Parse(args); err != nil || fs.NArg() != 0 {
		fmt.Fprintln(stderr, "usage: elicitdesk [-config FILE] [-v]")
		return 2
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	demo, err := demoEntry()
	if err != nil {
		fmt.Fprintln(stderr, "elicitdesk:", err)
		return 2
	}
	exe, _ := os.Executable()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	a := fyneapp.NewWithID(appID)
	a.SetIcon(assets.Icon())
	d := app.New(ctx, a, app.Options{
		ConfigPath:  *config,
		HistoryPath: history.DefaultPath(xdg.DataHome),
		Demo:        demo,
		Autostart:   autostart.Entry{ID: appID, Name: "Elicit Desk", Exec: []string{exe}},
		Log:         log,
	})
	inst, err := instance.Listen(ctx, instance.DefaultPath(), func() { fyne.Do(d.Front) })
	switch {
	case errors.Is(err, instance.ErrRunning):
		fmt.Fprintln(stdout, "Elicit Desk is already running; it was brought to the front.")
		return 0
	case err != nil:
		// Without the lock the control socket could be another app's.
		log.Warn("cannot make sure only one Elicit Desk runs; scripts cannot call through it", "err", err)
	default:
		defer inst.Close()
		if ctl, err := control.Serve(ctx, control.DefaultPath(), scriptCalls(d), log); err != nil {
			log.Warn("scripts cannot call tools through the app", "err", err)
		} else {
			defer ctl.Close()
		}
	}
	if err := d.Start(); err != nil {
		fmt.Fprintln(stderr, "elicitdesk:", err)
		return 2
	}
	a.Run() // Fyne quits on SIGINT and SIGTERM by itself
	stop()
	d.Close()
	return 0
}

// scriptCalls answers `elicitdesk call -answer desk`: the tool is called on
// the app's own connection, so its requests reach the person's windows.
func scriptCalls(d *app.Desk) func(context.Context, control.Request) control.Response {
	return func(ctx context.Context, r control.Request) control.Response {
		res, err := d.CallTool(ctx, r.Server, r.Tool, r.Arguments)
		if err != nil {
			return control.Response{Error: err.Error()}
		}
		out, err := json.Marshal(res)
		if err != nil {
			return control.Response{Error: err.Error()}
		}
		return control.Response{Result: out}
	}
}
