package cli

import (
	"context"
	"encoding/json"
	"errors"
	"os/signal"
	"syscall"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
)

// runTraffic prints what passed on the running app's connections to its
// configured servers: every message's facts, never its params or result.
// What a server wrote (methods, ids, tool names) is shown through
// untrusted's views.
func runTraffic(args []string, stdout, stderr terminal) int {
	fs := stderr.FlagSet("traffic")
	asJSON := fs.Bool("json", false, "print JSON Lines, one message a line")
	follow := fs.Bool("follow", false, "keep printing messages as they pass, until interrupted")
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	filter, err := traffic.ParseFilter(fs.Args())
	if err != nil {
		stderr.Linef("elicitdesk traffic: %s", err)
		stderr.Ours("Every word of a filter must hold:\n" + traffic.FilterHelp())
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	dctx, cancel := context.WithTimeout(ctx, askWait)
	c, err := endpoint.Dial(dctx, endpoint.AppPath())
	cancel()
	if err != nil {
		stderr.Linef("elicitdesk traffic: %s", trafficErr(err))
		return 1
	}
	defer c.Close()
	q := endpoint.TrafficQuery{}
	shown := 0
	for {
		list, err := c.Traffic(ctx, q)
		if err != nil {
			if ctx.Err() != nil {
				return 0 // interrupted while following
			}
			stderr.Linef("elicitdesk traffic: %s", trafficErr(err))
			return 1
		}
		var picked []traffic.Entry
		for _, e := range list {
			if filter.Match(e) {
				picked = append(picked, e)
			}
		}
		shown += len(picked)
		printTraffic(picked, *asJSON, stdout)
		if len(list) > 0 {
			q.After = list[len(list)-1].Seq
		}
		if !*follow {
			break
		}
		q.Wait = true
	}
	if shown == 0 && !*asJSON {
		stdout.Linef("No messages match.")
	}
	return 0
}

// trafficErr says why the app could not be asked.
func trafficErr(err error) string {
	switch {
	case errors.Is(err, endpoint.ErrNotRunning):
		return "Elicit Desk is not running: it records what passes on its connections while it runs"
	case jsonrpc.As(err) != nil && jsonrpc.As(err).Code == jsonrpc.CodeMethodNotFound:
		return "the running Elicit Desk is older than this command and keeps no traffic: quit it and start it again"
	}
	return err.Error()
}

// printTraffic prints entries as a table, or as JSON Lines.
func printTraffic(entries []traffic.Entry, asJSON bool, out terminal) {
	if asJSON {
		for _, e := range entries {
			line, _ := json.Marshal(e)
			out.Linef("%s", json.RawMessage(line))
		}
		return
	}
	if len(entries) == 0 {
		return
	}
	table, flush := out.Table()
	for _, e := range entries {
		what := e.Method.Short(48)
		if e.Tool != "" {
			what += " " + e.Tool.Quote()
		}
		server := untrusted.Text(e.Server).Short(32)
		if e.Session != "" {
			server += " (" + e.Host.Short(32) + ")"
		}
		table.Linef("%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s", e.Time.Local().Format("15:04:05.000"), server, arrow(e.Dir),
			kindWord(e), what, orDash(e.ID.Short(24)), humanize.IBytes(uint64(e.Size)), latency(e))
	}
	flush()
}

// arrow shows which way a message went.
func arrow(d traffic.Dir) string {
	if d == traffic.ToServer {
		return "→"
	}
	return "←"
}

// kindWord is an entry's kind, an answer's outcome in its place.
func kindWord(e traffic.Entry) string {
	if o := e.Outcome(); o != "" {
		return o
	}
	return string(e.Kind)
}

// latency is an answer's time since its request, "-" where there is none.
func latency(e traffic.Entry) string {
	if e.Latency == 0 {
		return "-"
	}
	return e.Latency.Round(100 * time.Microsecond).String()
}
