package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/adrg/xdg"
	"github.com/dustin/go-humanize"

	"github.com/elicitdesk/elicitdesk/internal/base/atomicfile"
	"github.com/elicitdesk/elicitdesk/internal/base/build"
	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
)

// runTraffic prints what passed on the running app's connections to its
// configured servers and bridged sessions, every message's facts; or,
// with -captured, the messages the capture kept, redacted. What a server
// wrote (methods, ids, tool names, bodies) is shown through untrusted's
// views.
func runTraffic(args []string, stdout, stderr terminal) int {
	fs := stderr.FlagSet("traffic")
	asJSON := fs.Bool("json", false, "print JSON Lines, one message a line")
	follow := fs.Bool("follow", false, "keep printing messages as they pass, until interrupted")
	captured := fs.Bool("captured", false, "read the messages the capture kept (Settings, Traffic), with their bodies, from its file: the app need not run")
	harFile := fs.String("har", "", "write the messages as a HAR 1.2 `file` (- for standard output), requests with their answers")
	stats := fs.Bool("stats", false, "print the latency percentiles of the answered requests, by method and tool")
	if code, done := parseMixed(fs, args, stdout, stderr); done {
		return code
	}
	filter, err := traffic.ParseFilter(fs.Args())
	if err != nil {
		stderr.Linef("elicitdesk traffic: %s", err)
		stderr.Ours("Every word of a filter must hold:\n" + traffic.FilterHelp())
		return 2
	}
	if *follow && (*captured || *harFile != "" || *stats) {
		stderr.Linef("elicitdesk traffic: -follow prints the running app's messages as they pass; it goes with neither -captured, -har nor -stats")
		return 2
	}
	var lines []traffic.CaptureLine
	if *captured {
		path := traffic.DefaultCapturePath(xdg.StateHome)
		lines, err = traffic.ReadCapture(path, traffic.DefaultCaptureLimits.Retention, time.Now())
		if err != nil {
			stderr.Linef("elicitdesk traffic: the capture: %s", err)
			return 1
		}
		if len(lines) == 0 {
			stderr.Linef("Nothing was captured in %s: switch on Traffic in Settings to keep the messages themselves.", path)
			return 0
		}
	} else {
		ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
		defer stop()
		if !*follow {
			return printListed(ctx, filter, *asJSON, *harFile, *stats, stdout, stderr)
		}
		return followTraffic(ctx, filter, *asJSON, stdout, stderr)
	}
	return printLines(pick(lines, filter), *asJSON, *harFile, *stats, stdout, stderr)
}

// printListed prints, or writes as HAR, what the running app lists now.
func printListed(ctx context.Context, filter traffic.Filter, asJSON bool, harFile string, stats bool, stdout, stderr terminal) int {
	var lines []traffic.CaptureLine
	code := listTraffic(ctx, false, stderr, func(list []traffic.Entry) {
		for _, e := range list {
			lines = append(lines, traffic.CaptureLine{Entry: e})
		}
	})
	if code != 0 {
		return code
	}
	return printLines(pick(lines, filter), asJSON, harFile, stats, stdout, stderr)
}

// followTraffic prints what the running app lists, and what passes next,
// until ctx ends.
func followTraffic(ctx context.Context, filter traffic.Filter, asJSON bool, stdout, stderr terminal) int {
	table := stdout.Columns() // one table across the batches
	return listTraffic(ctx, true, stderr, func(list []traffic.Entry) {
		var lines []traffic.CaptureLine
		for _, e := range list {
			lines = append(lines, traffic.CaptureLine{Entry: e})
		}
		lines = pick(lines, filter)
		if asJSON {
			printTraffic(lines, asJSON, stdout)
			return
		}
		rows := make([][]any, len(lines))
		for i, l := range lines {
			rows[i] = trafficCells(l)
		}
		table.Rows(rows)
	})
}

// listTraffic hands what the running app lists to each, and with follow
// what passes after, until ctx ends.
func listTraffic(ctx context.Context, follow bool, stderr terminal, each func([]traffic.Entry)) int {
	dctx, cancel := context.WithTimeout(ctx, askWait)
	c, err := endpoint.Dial(dctx, endpoint.AppPath())
	cancel()
	if err != nil {
		stderr.Linef("elicitdesk traffic: %s", trafficErr(err))
		return 1
	}
	defer c.Close()
	q := endpoint.TrafficQuery{}
	for {
		list, err := c.Traffic(ctx, q)
		if err != nil {
			if ctx.Err() != nil {
				return 0 // interrupted while following
			}
			stderr.Linef("elicitdesk traffic: %s", trafficErr(err))
			return 1
		}
		each(list)
		if len(list) > 0 {
			q.After = list[len(list)-1].Seq
		}
		if !follow {
			return 0
		}
		q.Wait = true
	}
}

// pick is the lines filter matches.
func pick(lines []traffic.CaptureLine, filter traffic.Filter) []traffic.CaptureLine {
	var out []traffic.CaptureLine
	for _, l := range lines {
		if filter.Match(l.Entry) {
			out = append(out, l)
		}
	}
	return out
}

// printLines prints lines, their latency percentiles, or their HAR.
func printLines(lines []traffic.CaptureLine, asJSON bool, harFile string, stats bool, stdout, stderr terminal) int {
	switch {
	case harFile != "":
		har, err := traffic.HAR(lines, appName, cmp.Or(build.Release, "devel"))
		// The same JSON, with each character that could fool a reader or a
		// terminal as its escape.
		safe := untrusted.JSON(har) + "\n"
		if err == nil && harFile == "-" {
			stdout.Ours(safe)
			return 0
		}
		if err == nil {
			err = atomicfile.Write(harFile, []byte(safe), 0o600) // bodies: the person's only
		}
		if err != nil {
			stderr.Linef("elicitdesk traffic: %s", err)
			return 1
		}
		stdout.Linef("%d messages written to %s.", len(lines), untrusted.Text(harFile))
	case stats:
		printLatencies(lines, asJSON, stdout)
	default:
		printTraffic(lines, asJSON, stdout)
		if len(lines) == 0 && !asJSON {
			stdout.Linef("No messages match.")
		}
	}
	return 0
}

// printLatencies prints the latency percentiles of lines' answers.
func printLatencies(lines []traffic.CaptureLine, asJSON bool, out terminal) {
	entries := make([]traffic.Entry, len(lines))
	for i, l := range lines {
		entries[i] = l.Entry
	}
	stats := traffic.Latencies(entries)
	if asJSON {
		for _, s := range stats {
			line, _ := json.Marshal(s)
			out.Linef("%s", json.RawMessage(line))
		}
		return
	}
	if len(stats) == 0 {
		out.Linef("No answered requests match.")
		return
	}
	table, flush := out.Table()
	table.Ours(traffic.LatencyHeadings + "\n")
	for _, s := range stats {
		table.Ours(s.Row() + "\n") // its cells shown through untrusted already
	}
	flush()
}

// trafficErr says why the app could not be asked.
func trafficErr(err error) string {
	switch {
	case errors.Is(err, endpoint.ErrNotRunning):
		return "Elicit Desk is not running: it records what passes on its connections while it runs"
	case endpoint.Forwarded(err):
		return "this Elicit Desk is another machine's, reached through a forward, which may only ask the person: run `elicitdesk traffic` on that desktop"
	case jsonrpc.As(err) != nil && jsonrpc.As(err).Code == jsonrpc.CodeMethodNotFound:
		return "the running Elicit Desk is older than this command and keeps no traffic: quit it and start it again"
	}
	return err.Error()
}

// printTraffic prints lines as a table, a captured body cut to one line
// at its end, or as JSON Lines, with their bodies.
func printTraffic(lines []traffic.CaptureLine, asJSON bool, out terminal) {
	if asJSON {
		for _, l := range lines {
			out.Linef("%s", json.RawMessage(l.JSON()))
		}
		return
	}
	if len(lines) == 0 {
		return
	}
	table, flush := out.Table()
	for _, l := range lines {
		cells := trafficCells(l)
		// The cells as Linef's arguments: the tabs between them are the
		// format's, ours.
		table.Linef(strings.TrimSuffix(strings.Repeat("%s\t", len(cells)), "\t"), cells...)
	}
	flush()
}

// trafficCells are the cells of l's row, each shown on its own: a
// captured body cut to one line at the end.
func trafficCells(l traffic.CaptureLine) []any {
	e := l.Entry
	cells := []any{e.Time.Local().Format("15:04:05.000"), e.Where(), e.Dir.Arrow(),
		e.Word(), e.What(), orDash(e.ID.Short(24)), humanize.IBytes(uint64(e.Size)), e.Took()}
	if l.Body != nil {
		cells = append(cells, untrusted.Text(l.Body).Short(80))
	}
	return cells
}
