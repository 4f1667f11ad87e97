//go:build unix

package cli

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// BenchmarkRequestToWindowAhead measures, as BenchmarkRequestToWindowCold
// does, a request's window when no windows' process ran before, here for
// a host's session through the bridge with a server that has asked the
// person before: the session's start has the core start one ahead of
// need. The host's tool call comes once that process has attached and
// parsed its fonts, as a prompt comes after its host started. Measured
// from the host's tools/call to the window mapped (ms-ahead), and for a
// second call in the same session, its windows' process running
// (ms-warm); and what such a process costs while it waits with no
// window: its memory and wakeups a second.
func BenchmarkRequestToWindowAhead(b *testing.B) {
	demo := fmt.Sprintf(`{"mcpServers": {"demo": {"command": %q, "args": ["demo-server"]}}}`, os.Getenv(binEnv))
	d := startDesktopArgs(b, demo, []string{"-background", "-ui-idle=1ms"}, false) // not a first start: no Welcome
	d.waitReady(1)
	maps := d.watchMaps()
	ctx := b.Context()
	session := func() *bridged {
		cmd := exec.Command(d.bin, "bridge", "--", d.bin, "demo-server")
		cmd.Env = d.env
		return startBridge(b, ctx, cmd)
	}
	timeCall := func(h *bridged) time.Duration {
		done := make(chan error, 1)
		start := time.Now()
		go func() {
			req := mcp.CallToolRequest{}
			req.Params.Name = "ask_confirm"
			_, err := h.host.CallTool(ctx, req)
			done <- err
		}()
		mapped := d.nextMap(maps, true, ".")
		d.keys(mapped.Window, "", "Escape")
		if err := <-done; err != nil {
			b.Fatal(err)
		}
		d.nextMap(maps, false, "")
		return mapped.At.Sub(start)
	}
	gone := func() { // until no windows' process runs
		for deadline := time.Now().Add(time.Minute); d.count("windows detached") < d.count("windows attached"); time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				b.Fatal("the windows' process stayed")
			}
		}
	}
	first := session() // the server asks once: from now on, it has asked before
	timeCall(first)
	first.end()
	// started starts a session and waits for the windows' process it has
	// the core start to attach and parse its fonts.
	started := func() *bridged {
		gone()
		fonts, attached := d.count("fonts ready"), d.count("windows attached")
		h := session()
		for deadline := time.Now().Add(time.Minute); d.count("fonts ready") == fonts || d.count("windows attached") == attached; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				b.Fatal("no windows' process started ahead of the session's requests")
			}
		}
		return h
	}
	// What a process started ahead costs while it waits, no window shown.
	h := started()
	pids := d.uiProcesses()
	if len(pids) != 1 {
		b.Fatalf("windows' processes %v, want one", pids)
	}
	const idle = 5 * time.Second
	switches := contextSwitches(b, pids[0])
	time.Sleep(idle) // the idle time measured, not a wait
	wakeups := float64(contextSwitches(b, pids[0])-switches) / idle.Seconds()
	waiting := memoryOf(b, pids[0])
	timeCall(h)
	h.end()

	const requests = 10
	var ahead, warm []time.Duration
	for b.Loop() {
		for range requests {
			h := started()
			ahead = append(ahead, timeCall(h))
			warm = append(warm, timeCall(h))
			h.end()
		}
	}
	reportSpread(b, ahead, "ms-ahead")
	reportSpread(b, warm, "ms-warm")
	b.ReportMetric(waiting.uss, "MB-USS-waiting")
	b.ReportMetric(waiting.pss, "MB-PSS-waiting")
	b.ReportMetric(waiting.rss, "MB-RSS-waiting")
	b.ReportMetric(wakeups, "wakeups/s-waiting")
}

// count is how many of the app's log lines say msg.
func (d *desktop) count(msg string) int {
	return strings.Count(d.log.String(), `msg="`+msg+`"`)
}
