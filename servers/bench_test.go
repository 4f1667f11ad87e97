package servers

import (
	"math"
	"testing"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/servers/demo"
)

// BenchmarkRoundTrip measures one elicitation end to end, in process: the
// demo server asks, the request crosses the wire and the router, a
// scripted answer goes back and the server finishes its tool call.
func BenchmarkRoundTrip(b *testing.B) {
	c, r := dialDemo(b, false)
	r.limits.PerMinute = math.MaxInt // the default would refuse all but 30 a minute
	b.ReportAllocs()
	for b.Loop() {
		got := call(c, demo.ToolAskConfirm, nil)
		e := next(b, r)
		e.Reply(forms.Result{Action: forms.Decline})
		if out := <-got; out.err != nil {
			b.Fatal(out.err)
		}
	}
}
