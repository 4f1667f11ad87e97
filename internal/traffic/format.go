package traffic

import (
	"strconv"
	"strings"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// How an entry reads in a table, `elicitdesk traffic`'s and the Traffic
// window's: what a peer wrote goes through untrusted's views.

// Arrow shows which way a message went: → to the server, ← from it.
func (d Dir) Arrow() string {
	if d == ToServer {
		return "→"
	}
	return "←"
}

// Word is an entry's kind, an answer's outcome in its place.
func (e Entry) Word() string {
	if o := e.Outcome(); o != "" {
		return o
	}
	return string(e.Kind)
}

// What is the entry's method, and a tool call's tool, quoted.
func (e Entry) What() string {
	what := e.Method.Short(48)
	if e.Tool != "" {
		what += " " + e.Tool.Quote()
	}
	return what
}

// Where is the entry's server, and a bridged session's host beside it.
func (e Entry) Where() string {
	where := untrusted.Text(e.Server).Short(32)
	if e.Session != "" {
		where += " (" + e.Host.Short(32) + ")"
	}
	return where
}

// Took is an answer's latency, "-" where there is none.
func (e Entry) Took() string {
	if e.Latency == 0 {
		return "-"
	}
	return Round(e.Latency)
}

// Round is d to three or four figures: 361µs, 84.2ms, 1.564s.
func Round(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return d.Round(time.Microsecond).String()
	case d < time.Second:
		return d.Round(100 * time.Microsecond).String()
	}
	return d.Round(time.Millisecond).String()
}

// LatencyHeadings head a table of Latency rows.
const LatencyHeadings = "METHOD\tTOOL\tCALLS\tFAILED\tP50\tP95\tP99\tSLOWEST"

// Row is l as a line of LatencyHeadings' table, its cells tab-separated
// and shown through untrusted. FAILED counts every call that did not
// succeed: errors, cancels and tools that said they failed.
func (l Latency) Row() string {
	tool := untrusted.Text(l.Tool).Short(32)
	if tool == "" {
		tool = "-"
	}
	return strings.Join([]string{untrusted.Text(l.Method).Short(48), tool, strconv.Itoa(l.Count), strconv.Itoa(l.Errors + l.ToolFailed),
		Round(l.P50), Round(l.P95), Round(l.P99), Round(l.Slowest)}, "\t")
}
