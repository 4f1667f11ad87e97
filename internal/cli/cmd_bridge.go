package cli

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/adrg/xdg"

	"github.com/elicitdesk/elicitdesk/internal/base/term"
	"github.com/elicitdesk/elicitdesk/internal/deskclient"
	"github.com/elicitdesk/elicitdesk/internal/desktop/sessionbus"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/bridge"
	"github.com/elicitdesk/elicitdesk/servers/config"
	"github.com/elicitdesk/elicitdesk/servers/link"
	"github.com/elicitdesk/elicitdesk/servers/signin"
)

// serverGrace is how long a bridged stdio server gets at each step of
// stopping. The whole group must be gone within 100 ms of the host's move,
// and a host may SIGKILL the bridge soon after its SIGTERM (Codex: 42 ms):
// on stdin closed, the server's stdin is closed, SIGTERM follows at 30 ms
// and SIGKILL at 60 ms; on SIGTERM, SIGTERM goes on at once and SIGKILL at
// 30 ms, before the host's. A bridge killed outright leaves the group to
// its keeper (package procgroup), which ends it within 40 ms.
const serverGrace = 30 * time.Millisecond

// runBridge is `elicitdesk bridge TARGET`: the host's MCP server, which
// passes everything to TARGET and answers its elicitations in the app.
func runBridge(args []string, stdin io.Reader, stdout io.WriteCloser, stderr terminal) int {
	fs := stderr.FlagSet("bridge")
	t := addTargetFlags(fs)
	listen := fs.String("listen", "", "serve the host over Streamable HTTP at this loopback `address` (127.0.0.1:PORT) instead of stdio, to hosts that present the secret in the URL it prints")
	name := fs.String("name", "", "the `name` the person knows the server by, such as its key in the host's config; windows show it first")
	verbose := fs.Bool("v", false, "log each elicitation and connection step")
	remote := addRemoteFlags(fs, t)
	flags, command := splitCommand(args)
	if code, done := parseFlags(fs, flags, term.To(stdout), stderr); done {
		return code
	}
	if fs.NArg() != 0 {
		return noArgs(fs, stderr)
	}
	cfg, err := t.resolve(command)
	if err == nil {
		err = remote.apply(&cfg)
	}
	if err != nil {
		stderr.Linef("elicitdesk bridge: %s", err)
		return targetExit(err)
	}
	if *name != "" {
		cfg.Name = *name
	}
	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr.Writer(), &slog.HandlerOptions{Level: level})).With("bridge", cfg.Name)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	var desk bridge.Desk = noDesk{}
	var handOff func(context.Context, endpoint.Unshown) error
	app, err := bridgeDesk(log, func(line string) { stderr.Linef("elicitdesk bridge: %s", line) })
	if err != nil {
		log.Warn("no way to the app's windows; elicitations go to the host if it takes them, else are answered cancel", "err", err)
	} else {
		desk, handOff = app, app.Unshown
	}
	unshown := deskclient.NewUnshownLog(history.DefaultPath(xdg.DataHome), handOff, log)
	defer unshown.Close(deskclient.FlushWait)
	opts := bridge.Options{Desk: desk, Log: log, Unshown: unshown.Record}
	// The host cannot sign in for a remote server: the bridge does, in
	// the browser, with the sign-ins the CLI and the app keep.
	wrap := signInWrap(cfg, stderr, func(st signin.Status) {
		if st.Phase == signin.Failed || st.Phase == signin.SignedIn {
			stderr.Linef("elicitdesk bridge: %s: %s", cfg.URL, st.Text())
		}
	})
	run := sessionRunner(opts, cfg, app)
	if *listen != "" {
		return serveBridge(ctx, *listen, cfg, wrap, run, log, stderr)
	}
	server, done, err := dialUpstream(ctx, cfg, wrap, stderr.Writer(), log)
	if err != nil {
		stderr.Linef("elicitdesk bridge: %s", err)
		return 1
	}
	defer done()
	err = run(ctx, link.NewLines(stdin, stdout), server)
	switch {
	case errors.Is(err, bridge.ErrHostGone), errors.Is(err, context.Canceled):
		return 0
	default:
		stderr.Linef("elicitdesk bridge: %s", err)
		return 1
	}
}

// sessionRunner returns what runs one host's session with the server of
// cfg, a session of its own; when the bridge has a way to the app (app
// not nil), the app keeps what passes between the session and its server
// (elicitdesk traffic).
func sessionRunner(opts bridge.Options, cfg config.Server, app *deskclient.Desk) func(ctx context.Context, host, server link.Link) error {
	return func(ctx context.Context, host, server link.Link) error {
		opts := opts
		opts.Info = endpoint.Bridged{ID: rand.Text(), Server: cfg.Name, Target: cfg.Target(), Since: time.Now()}
		if app != nil {
			note, stop := app.Traffic(opts.Info.ID)
			defer stop()
			server = traffic.Tap(cfg.Name, server, time.Now, note)
		}
		return bridge.New(host, server, opts).Run(ctx)
	}
}

// serveBridge serves hosts over Streamable HTTP at addr until ctx ends:
// each host session gets a session of its own with the server of cfg, up
// to link.MaxSessions at once. Only hosts that present the address's
// secret are served: any user of the machine can reach a loopback port.
func serveBridge(ctx context.Context, addr string, cfg config.Server, wrap servers.Wrap, run func(ctx context.Context, host, server link.Link) error, log *slog.Logger, stderr terminal) int {
	secret, kept, err := listenSecret(listenSecretDir(xdg.StateHome), addr, log)
	if err != nil {
		stderr.Linef("elicitdesk bridge: the listen secret: %s", err)
		return 1
	}
	l, err := link.Listen(ctx, addr, secret, log)
	if err != nil {
		stderr.Linef("elicitdesk bridge: %s", err)
		return 1
	}
	stderr.Linef("elicitdesk bridge: serving MCP for %s at %s", cfg.Name, l.URL())
	stderr.Linef("elicitdesk bridge: or, to a host that sends the header \"Authorization: Bearer %s\", at %s", secret, l.HeaderURL())
	if kept != "" {
		stderr.Linef("elicitdesk bridge: the secret stays the same at each start (kept in %s; delete that file for a new one)", kept)
	} else {
		stderr.Linef("elicitdesk bridge: the secret is new at each start on port 0; give a port to keep it")
	}
	context.AfterFunc(ctx, func() { l.Close() })
	shared := stderr.Shared()
	var sessions sync.WaitGroup
	defer sessions.Wait()
	for {
		host, err := l.Accept()
		if err != nil {
			return 0 // closed: ctx ended
		}
		sessions.Go(func() {
			// Here the bridge's stderr is the person's terminal: the
			// server's lines go there through untrusted.
			lines := shared.Lines(serverLineMax)
			defer lines.Flush()
			server, done, err := dialUpstream(ctx, cfg, wrap, lines, log)
			if err != nil {
				log.Warn("cannot reach the server for a new host session", "err", err)
				host.Close()
				return
			}
			defer done()
			err = run(ctx, host, server)
			log.Debug("host session ended", "reason", err)
		})
	}
}

// serverLineMax bounds a line of a server's stderr that -listen prints.
const serverLineMax = 8 << 10

// endpointVar names the endpoint's path when it is not where the app on
// this machine would have it: forwarded from the person's desktop.
const endpointVar = "ELICITDESK_ENDPOINT"

// bridgeDesk is the app's endpoint, started by the session bus from the
// app's D-Bus service file, else by this same executable; tell says on the
// bridge's stderr what the person should do when neither can. An endpoint
// forwarded from the desktop ($ELICITDESK_ENDPOINT, and always in the build
// without windows, where it is else where the app here would have it) is
// never started.
func bridgeDesk(log *slog.Logger, tell func(string)) (*deskclient.Desk, error) {
	if path := os.Getenv(endpointVar); path != "" {
		return deskclient.NewForwarded(path, func(err error) string { return notForwarded(path, false, err) }, log, tell), nil
	}
	if !windowsBuilt {
		path := endpoint.AppPath()
		return deskclient.NewForwarded(path, func(err error) string { return notForwarded(path, true, err) }, log, tell), nil
	}
	path, err := endpoint.DefaultPath()
	if err != nil {
		return nil, err
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	activate := func(ctx context.Context) error { return sessionbus.Start(ctx, appID) }
	return deskclient.New(path, activate, []string{exe, "-background"}, log, tell), nil
}

// dialUpstream connects to the server of cfg and returns the link and a
// function that ends the server: stopped as the spec asks, or terminated at
// once when signalled, the end of the bridge's ctx. A stdio server's stderr
// goes to serverLog, the bridge's own, which hosts show in their MCP logs;
// a remote server's requests go through wrap.
func dialUpstream(signalled context.Context, cfg config.Server, wrap servers.Wrap, serverLog io.Writer, log *slog.Logger) (link.Link, func(), error) {
	switch cfg.Transport {
	case config.TransportStdio:
		p, err := servers.StartProcess(cfg, serverLog, func(err error) { log.Debug("the server exited", "err", err) })
		if err != nil {
			return nil, nil, err
		}
		return link.NewLines(p.Stdout(), p.Stdin()), func() {
			if signalled.Err() != nil {
				p.Terminate(serverGrace)
			} else {
				p.Stop(serverGrace)
			}
		}, nil
	}
	hc := &http.Client{Transport: wrap(http.DefaultTransport)}
	return servers.RemoteLink(cfg, hc, log), func() {}, nil
}

// noDesk is a desk when the endpoint cannot be found: no window.
type noDesk struct{}

func (noDesk) Ask(context.Context, endpoint.Question) (json.RawMessage, error) {
	return nil, bridge.ErrNoWindow
}
func (noDesk) Complete(endpoint.Completion)             {}
func (noDesk) Attach(context.Context, endpoint.Bridged) {}

// notForwarded is what a bridge says when nothing answers at the
// forwarded endpoint path (err says how: no socket, or a forward that
// hung up), guessed when ELICITDESK_ENDPOINT did not name it.
func notForwarded(path string, guessed bool, err error) string {
	where := "at " + path + " (" + endpointVar + ")"
	if guessed {
		where = "at " + path + ", where " + endpointVar + " being unset says to look"
	}
	host, _ := os.Hostname()
	if host == "" {
		host = "HOST"
	}
	run := "on your desktop, run `elicitdesk remote " + host + "` and connect as it says"
	if errors.Is(err, endpoint.ErrDisconnected) { // ssh took the connection, and nothing took it on the desktop
		return "no Elicit Desk answers " + where + ": the forward is there, but nothing on your desktop answers behind it " +
			"(Elicit Desk is not running there, the machine is blocked, or the ssh line names another socket): " + run
	}
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSocket != 0 {
		// ssh binds no forward over it: "remote port forwarding failed".
		return "no Elicit Desk answers " + where + ": its socket is left from a forward that ended, and ssh cannot forward over it. " +
			"Remove it (rm -f " + path + "), then " + run
	}
	return "no Elicit Desk answers " + where + ": " + run
}
