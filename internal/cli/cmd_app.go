package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"fyne.io/fyne/v2"
	"github.com/adrg/xdg"
	"github.com/go-gl/glfw/v3.4/glfw"

	"github.com/elicitdesk/elicitdesk/app"
	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/autostart"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/internal/hosts"
	"github.com/elicitdesk/elicitdesk/internal/screen"
	"github.com/elicitdesk/elicitdesk/internal/sessionbus"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/wire"
)

// runApp starts the desktop app: the tray, a window per request, the
// connections of servers.json. A second start brings the first forward.
func runApp(args []string, stdout, stderr terminal) int {
	fs := stderr.FlagSet(appCommand)
	config := configFlag(fs)
	verbose := fs.Bool("v", false, "log every request and connection step")
	background := fs.Bool("background", false, "started by a bridge for a request: open no window before it (the bridge passes it)")
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() != 0 {
		return misuse(fs, stderr)
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr.w, &slog.HandlerOptions{Level: level})) // the text format quotes unprintable values

	demo, err := demoEntry()
	if err != nil {
		stderr.Linef("elicitdesk: %s", err)
		return 2
	}
	exe, _ := os.Executable()
	bridge, err := bridgeBinaries()
	if err != nil {
		log.Warn("hosts routed by an earlier elicitdesk may show as not routed", "err", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	app.GuardSessionBus(ctx) // before Fyne, which dials the bus with autolaunch
	a := newFyneApp()
	d := app.New(ctx, a, app.Options{
		ConfigPath:  *config,
		HistoryPath: history.DefaultPath(xdg.DataHome),
		Demo:        demo,
		Autostart:   autostart.Entry{ID: appID, Name: appName, Exec: []string{exe}},
		Log:         log,
		Bridge:      bridge,
		Hosts:       hosts.Known(hosts.Here()),
		Screen:      func() (screen.Screen, bool) { return screen.Find(a) },
		Signer: newSigner(log, func(err error) {
			log.Warn("sign-ins to remote servers are kept in memory only, for this run; set "+tokenFileEnv+"=FILE to keep them in a file only you can read", "err", err)
		}, nil),
		Dates:      forms.DateStyleFor(forms.LocaleOf(os.Getenv)),
		Version:    versionText(version, buildInfo()),
		Background: *background,
	})
	setWindowHints(a, appName, appCommand)
	path, err := endpoint.DefaultPath()
	var ep *endpoint.Server
	if err == nil {
		ep, err = endpoint.Listen(ctx, path, deskEndpoint{ctx, d}, log)
	}
	switch {
	case errors.Is(err, endpoint.ErrRunning):
		stdout.Linef("Elicit Desk is already running; it was brought to the front.")
		return 0
	case errors.Is(err, endpoint.ErrSilent), errors.Is(err, endpoint.ErrNotPrivate):
		stderr.Linef("elicitdesk: %s", err)
		return 1
	case errors.Is(err, endpoint.ErrUnreachable): // ep keeps the single-instance lock
		log.Warn("scripts and bridges cannot reach Elicit Desk", "err", err)
	case err != nil:
		log.Warn("cannot make sure only one Elicit Desk runs; scripts cannot call through it", "err", err)
	}
	if err := d.Start(); err != nil {
		ep.Close()
		stderr.Linef("elicitdesk: %s", err)
		return 2
	}
	if ep != nil { // the one app, which bridges reach
		defer holdBusName(ctx, log)()
	}
	err = runDriver(a)
	stop()
	ep.Close() // before the desk: no request may reach a UI that is gone
	d.Close()  // also without a display: it ends the servers' processes
	if err != nil {
		stderr.Linef("elicitdesk: %s", err)
		return 1
	}
	return 0
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

// deskEndpoint answers the endpoint's requests with the app: a second start
// brings it forward, and `elicitdesk call -answer desk` has the tool called
// on the app's own connection, so its requests reach the person's windows.
type deskEndpoint struct {
	app context.Context // ends when the app quits
	d   *app.Desk
}

func (e deskEndpoint) Front(context.Context) error {
	if e.app.Err() != nil {
		return errors.New("the app is quitting") // its windows are gone
	}
	fyne.Do(e.d.Front)
	return nil
}

func (e deskEndpoint) CallTool(ctx context.Context, call endpoint.ToolCall) (json.RawMessage, error) {
	res, err := e.d.CallTool(ctx, call.Server, call.Tool, call.Arguments)
	if err != nil {
		return nil, err
	}
	return json.Marshal(res)
}

// Servers tells `elicitdesk servers` where each connection stands.
func (e deskEndpoint) Servers(context.Context) ([]endpoint.ServerStatus, error) {
	var list []endpoint.ServerStatus
	for _, s := range e.d.Servers() {
		st := endpoint.ServerStatus{Name: s.Name, State: string(s.State), Since: s.Since}
		if s.Err != nil {
			x := servers.Explain(s.Err, s.Stderr)
			st.Error = x.Summary
			if d := string(x.Details); d != x.Summary {
				st.Details = d
			}
		}
		list = append(list, st)
	}
	return list, nil
}

// Elicit asks a bridged server's elicitation in the app's windows. A
// refusal goes back as the *wire.RPCError's code, message and data, so the
// bridge can send it to the server whole.
func (e deskEndpoint) Elicit(ctx context.Context, q endpoint.Question) (json.RawMessage, error) {
	res, err := e.d.Elicit(ctx, q.Session.ID, bridgedIdentity(q.Session), q.Params)
	return res, endpointError(err)
}

// Unshown keeps a bridged server's elicitation that no window could show
// in the app's history, so that while the app runs it alone writes it.
func (e deskEndpoint) Unshown(ctx context.Context, u endpoint.Unshown) error {
	return e.d.Unshown(ctx, unshownEntry(u))
}

// endpointError is err as the endpoint sends it: a *wire.RPCError keeps
// its code, message and data; others are the endpoint's generic failure.
func endpointError(err error) error {
	var rpc *wire.RPCError
	if !errors.As(err, &rpc) {
		return err
	}
	out := &endpoint.Error{Code: rpc.Code, Message: rpc.Message}
	if rpc.Data != nil {
		data, merr := json.Marshal(rpc.Data)
		if merr != nil {
			return fmt.Errorf("%w (its data cannot be sent: %v)", err, merr)
		}
		out.Data = data
	}
	return out
}

// Bridge lists a host's session through the bridge until it ends.
func (e deskEndpoint) Bridge(ctx context.Context, b endpoint.Bridged) error {
	return e.d.Bridge(ctx, servers.Bridged{ID: b.ID, Server: bridgedIdentity(b), Protocol: b.Protocol, Since: b.Since})
}

func (e deskEndpoint) Complete(c endpoint.Completion) { e.d.Complete(c.Server, c.ElicitationID) }

// bridgedIdentity is who asks through a bridged session: the name and
// target the bridge was given, and what the server and the host said.
func bridgedIdentity(b endpoint.Bridged) servers.Identity {
	return servers.Identity{Name: b.Server, Target: b.Target, Reported: servers.ServerInfo(b.Reported), Host: servers.HostInfo(b.Host)}
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
