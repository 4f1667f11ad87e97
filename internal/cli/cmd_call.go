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
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/config"
	"github.com/elicitdesk/elicitdesk/servers/link"
	"github.com/elicitdesk/elicitdesk/servers/signin"
)

// connectTimeout bounds starting a server and the handshake.
const connectTimeout = 60 * time.Second

// openTarget does what tools and call share: a context that Ctrl-C ends
// and a connection to the target cfg (target.resolve's), routing
// elicitations to router, its link wrapped by tap when not nil. release
// frees both, once however often it runs.
func openTarget(cfg config.Server, router *servers.Router, tap func(link.Link) link.Link, stderr terminal) (ctx context.Context, conn *servers.Conn, release func(), err error) {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	wait := connectTimeout
	if cfg.Transport != config.TransportStdio {
		wait += signin.Wait // the handshake may wait for a sign-in
	}
	dctx, cancel := context.WithTimeout(ctx, wait)
	conn, err = servers.DialWith(dctx, cfg, router, stderr.Logger(), servers.Via{HTTP: signInWrap(cfg, stderr, nil), Link: tap})
	cancel()
	if err != nil {
		stop()
		return nil, nil, nil, err
	}
	return ctx, conn, sync.OnceFunc(func() { conn.Close(); stop() }), nil
}

// runTools lists a server's tools as JSON.
func runTools(args []string, stdout, stderr terminal) (code int) {
	fs := stderr.FlagSet("tools")
	t := addTargetFlags(fs)
	verbose := verboseFlag(fs)
	flags, command := splitCommand(args)
	if code, done := parseFlags(fs, flags, stdout, stderr); done {
		return code
	}
	if fs.NArg() != 0 {
		return noArgs(fs, stderr)
	}
	stderr = stderr.Shared() // the connection's log writes too
	cfg, err := t.resolve(command)
	if err != nil {
		failed(stderr, "tools", err, "", *verbose)
		return targetExit(err)
	}
	ctx, conn, closeConn, err := openTarget(cfg, servers.NewRouter(servers.DefaultLimits, stderr.Logger()), nil, stderr)
	if err != nil {
		failed(stderr, "tools", err, "", *verbose)
		return targetExit(err)
	}
	defer func() { serverSaid(stderr, conn.Stderr(), *verbose, code != 0) }()
	defer closeConn()
	tools, err := conn.Tools(ctx)
	if err == nil {
		printed := make([]json.RawMessage, 0, len(tools))
		for _, t := range tools {
			printed = append(printed, t.Raw)
		}
		err = stdout.JSON(printed)
	}
	if err != nil {
		failed(stderr, "tools", err, conn.Stderr(), *verbose)
		return 1
	}
	return 0
}

// runCall calls a tool, answers each elicitation it triggers as -answer
// says, and prints the tool result as JSON. Exit 0 when the call returned a
// result, 1 otherwise.
func runCall(args []string, stdin io.Reader, stdout, stderr terminal) (code int) {
	fs := stderr.FlagSet("call")
	t := addTargetFlags(fs)
	tool := fs.String("tool", "", "the `name` of the tool to call (required)")
	argsJSON := fs.String("args", "{}", "the tool's arguments as a `JSON` object")
	answer := fs.String("answer", answerDefaults, "how to answer elicitations: "+answerDefaults+" (accept the schema's defaults; a link request is accepted, its link printed, not opened), "+
		answerDecline+", "+answerCancel+", "+answerDesk+" (a person, in the running app's windows: with -server the app calls the tool on its own connection; with -url or a command the questions of the server called here go there, and the app is started if need be), or a `FILE` of field values laid over the defaults, or of a JSON list of answers, one for each request in turn, link requests too: objects of field values, \""+answerDefaults+"\", \""+answerDecline+"\" or \""+answerCancel+"\" (- reads standard input)")
	verbose := verboseFlag(fs)
	flags, command := splitCommand(args)
	if code, done := parseFlags(fs, flags, stdout, stderr); done {
		return code
	}
	if fs.NArg() != 0 {
		return noArgs(fs, stderr)
	}
	if *tool == "" {
		return misuse(fs, stderr, "-tool NAME is required")
	}
	if err := answerFileExists(*answer); err != nil {
		stderr.Linef("elicitdesk call: -answer %s", err)
		return 2
	}
	var toolArgs map[string]any
	if err := json.Unmarshal([]byte(*argsJSON), &toolArgs); err != nil {
		stderr.Linef("elicitdesk call: -args must be a JSON object: %s", err)
		return 2
	}
	if *answer == answerDesk && t.server != "" && t.url == "" && len(command) == 0 {
		return callThroughDesk(t, *tool, toolArgs, stdout, stderr)
	}
	if f, ok := stdin.(*os.File); ok && *answer == answerStdin {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 { // a person at a terminal, not a pipe
			stderr.Linef("elicitdesk call: type the field values as one JSON object, then Ctrl+D")
		}
	}
	stderr = stderr.Shared()                                                          // the answerer and the connection's log write too
	router := servers.NewRouter(servers.DefaultLimits, slog.New(slog.DiscardHandler)) // it logs only refusals, said below in words
	router.OnRefused(func(x servers.Refusal) {
		stderr.Linef("elicitation from %s refused, not asked: %s", x.Server.Name, x.Err)
		if x.Message != "" {
			stderr.Block(x.Message)
		}
	})
	cfg, err := t.resolve(command)
	if err != nil {
		failed(stderr, "call", err, "", *verbose)
		return targetExit(err)
	}
	unanswered := new(atomic.Int32)
	var asker *deskAsker // -answer desk's
	var tap func(link.Link) link.Link
	if *answer == answerDesk {
		desk, err := bridgeDesk(stderr.Logger(), func(line string) { stderr.Linef("elicitdesk call: %s", line) })
		if err != nil {
			stderr.Linef("elicitdesk call: -answer desk: %s", err)
			return 1
		}
		asker = newDeskAsker(desk, cfg.Name, cfg.Target(), stderr, unanswered)
		defer asker.close() // on every way out; once closed, again it waits for nothing
		router.OnAsked(asker.ask)
		// The app's traffic keeps what passes, as for a bridged session.
		note, stop := desk.Traffic(asker.session.ID)
		defer stop()
		tap = func(l link.Link) link.Link { return traffic.Tap(cfg.Name, l, time.Now, note) }
	} else {
		router.OnAsked(answerer(*answer, answerValues(*answer, stdin), stderr, unanswered))
	}
	ctx, conn, closeConn, err := openTarget(cfg, router, tap, stderr)
	if err != nil {
		failed(stderr, "call", err, "", *verbose)
		return targetExit(err)
	}
	defer func() { serverSaid(stderr, conn.Stderr(), *verbose, code != 0) }()
	defer closeConn()
	if asker != nil {
		asker.connected(conn)
	}

	res, err := conn.CallTool(ctx, *tool, toolArgs)
	if ue, ok := servers.AsURLRequired(err); ok {
		for _, raw := range ue.Elicitations {
			e := servers.LooseParams(raw) // printed even if it fails the checks: a terminal shows it through untrusted views
			stderr.Linef("the server needs a link opened first (-32042):")
			stderr.Block(e.Message)
			stderr.Linef("  url: %s", e.URL)
		}
	}
	if err == nil {
		err = stdout.JSON(res.Raw)
	}
	// The SDKs answer a tool they do not have with invalid params, or (the
	// TypeScript SDK's) with a result that is an error: say so in our words.
	if e := jsonrpc.As(err); e != nil && e.Code == jsonrpc.CodeInvalidParams || err == nil && res.IsError {
		if names, missing := otherTools(ctx, conn, *tool); missing {
			stderr.Linef("elicitdesk call: the server has no tool %q; it has: %s (elicitdesk tools lists them)", *tool, names)
			if err != nil && *verbose { // and what it said
				failed(stderr, "call", err, conn.Stderr(), true)
			}
			return 1
		}
	}
	switch {
	case err != nil:
		failed(stderr, "call", err, conn.Stderr(), *verbose)
		return 1
	case res.IsError:
		stderr.Linef("elicitdesk call: the tool failed (its result, printed above, is an error)")
		code = 1
	}
	if asker != nil { // its last words before the count: what the server withdrew as the connection closed
		closeConn()
		asker.close()
	}
	switch n := int(unanswered.Load()); {
	case n > 0 && asker != nil:
		stderr.Linef("elicitdesk call: %d request%s could not be asked in Elicit Desk's windows (said above)", n, plural(n))
		code = 1
	case n > 0:
		stderr.Linef("elicitdesk call: -answer %s could not answer %d request%s, cancelled instead", *answer, n, plural(n))
		code = 1
	}
	return code
}

// otherTools returns the names of the server's tools, the first few, when
// the server lists its tools and name is not among them.
func otherTools(ctx context.Context, conn *servers.Conn, name string) (string, bool) {
	tools, err := conn.Tools(ctx)
	if err != nil || slices.ContainsFunc(tools, func(t servers.Tool) bool { return t.Name == name }) {
		return "", false
	}
	const shown = 8
	var names []string
	for _, t := range tools[:min(len(tools), shown)] {
		names = append(names, t.Name)
	}
	if len(names) == 0 {
		return "no tools", true
	}
	if len(tools) > shown {
		names = append(names, fmt.Sprintf("and %d more", len(tools)-shown))
	}
	return strings.Join(names, ", "), true
}

// verboseFlag is -v of the commands that reach a server.
func verboseFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("v", false, "after a failure's plain words, print the error chain behind them")
}

// serverSaid prints, under -v, what a stdio server wrote to its standard
// error (its own log, a stack trace), once it stopped; without -v, a
// command that failed says where to find it.
func serverSaid(stderr terminal, said string, verbose, failed bool) {
	switch {
	case said == "":
	case verbose:
		stderr.Linef("  what the server wrote to its standard error:")
		stderr.Block(untrusted.Text(said))
	case failed:
		stderr.Linef("  (-v shows what the server wrote to its standard error)")
	}
}

// failed prints why command could not reach or use a server, in plain
// words (servers.Explain), and under -v the error chain behind them.
// serverStderr is what a stdio server last wrote there.
func failed(stderr terminal, command string, err error, serverStderr string, verbose bool) {
	var signIn *signin.Error
	if errors.As(err, &signIn) { // says itself, without the layers of the HTTP and MCP clients around it
		stderr.Linef("elicitdesk %s: %s", command, signIn)
		return
	}
	var start *servers.StartError
	if errors.As(err, &start) {
		serverStderr = start.Stderr
	}
	x := servers.Explain(err, serverStderr)
	stderr.Linef("elicitdesk %s: %s", command, x.Summary)
	if verbose && x.Details.Block() != x.Summary {
		stderr.Linef("  the error chain:")
		stderr.Block(x.Details)
	}
}

// answerer answers each elicitation it is given with answer, one at a
// time, so that each one's lines stay together on stderr, counting those
// it could not answer so (and cancelled) in unanswered.
func answerer(answer string, values func() ([]byte, error), stderr terminal, unanswered *atomic.Int32) func(*servers.Elicitation) {
	var one sync.Mutex
	n := 0 // the requests answered so far: -answer FILE's list answers each in turn
	return func(e *servers.Elicitation) {
		one.Lock()
		defer one.Unlock()
		describe(e, stderr)
		res, err := scriptedAnswer(answer, values, n, e)
		n++
		if err != nil {
			stderr.Linef("  cannot answer, cancelling: %s", err)
			res = forms.Result{Action: forms.Cancel}
			unanswered.Add(1)
		}
		if err := e.Reply(res); err != nil {
			stderr.Linef("  not sent: %s", err)
			return
		}
		sent, _ := json.Marshal(res)
		stderr.Linef("  answered %s", json.RawMessage(sent))
	}
}

// callThroughDesk asks the running app to call the tool on its connection
// to the -server entry, and prints the result. Ctrl-C abandons the call.
func callThroughDesk(t *target, tool string, args map[string]any, stdout, stderr terminal) int {
	cfg, _, err := readConfig(*t.config)
	if err == nil {
		_, err = findServer(cfg, t.server)
	}
	if err != nil {
		stderr.Linef("elicitdesk call: %s", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	res, err := callDesk(ctx, endpoint.ToolCall{Server: t.server, Tool: tool, Arguments: args})
	if errors.Is(err, endpoint.ErrNotRunning) {
		stderr.Linef("elicitdesk call: %s: start it (elicitdesk) for -answer desk, or answer here with -answer defaults|decline|cancel|FILE", err)
		return 1
	}
	if err != nil {
		stderr.Linef("elicitdesk call: %s", err)
		return 1
	}
	if err := stdout.JSON(res); err != nil {
		stderr.Linef("elicitdesk call: the app's answer is not JSON: %s", err)
		return 1
	}
	var result struct {
		IsError bool `json:"isError"`
	}
	if json.Unmarshal(res, &result) == nil && result.IsError {
		stderr.Linef("elicitdesk call: the tool failed (its result, printed above, is an error)")
		return 1
	}
	return 0
}

// callDesk has the running app make call.
func callDesk(ctx context.Context, call endpoint.ToolCall) (json.RawMessage, error) {
	c, err := endpoint.Dial(ctx, endpoint.AppPath())
	if err != nil {
		return nil, err
	}
	defer c.Close()
	return c.CallTool(ctx, call)
}
