package serversview

import (
	"net"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/config"
)

// A server that cannot be reached shows when it first failed, counts down
// to the next attempt on the window's clock, says why in plain words with
// the chain behind Details, and Retry now tries again.
func TestFailedServerCountsDownAndRetries(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	h := newDemoHarness(t, config.Server{Name: "remote", URL: "http://" + addr + "/mcp", Transport: config.TransportHTTP})
	var now time.Time
	h.w.deps.Now = func() time.Time { return now }
	var failed servers.Status
	h.waitFor("a wait to retry", func() bool {
		r := h.row("remote")
		if r == nil || r.Status.RetryAt.IsZero() {
			return false
		}
		failed = r.Status
		return true
	})
	now = failed.RetryAt.Add(-7500 * time.Millisecond)
	h.w.tick()
	d := h.w.detail
	if want := "Failed since " + failed.FailedSince.Format("15:04:05") + " · Retrying in 8 s"; d.state.Text != want {
		t.Errorf("state %q, want %q", d.state.Text, want)
	}
	now = now.Add(5 * time.Second)
	h.w.tick()
	if !strings.HasSuffix(d.state.Text, "· Retrying in 3 s") {
		t.Errorf("after 5 s the state says %q", d.state.Text)
	}
	if want := "Can't reach " + addr + ": nothing is listening there. Is the server running?"; d.problem.Text != want {
		t.Errorf("problem %q, want %q", d.problem.Text, want)
	}
	if !d.more.Visible() || !strings.Contains(d.details.Text, "connection refused") {
		t.Errorf("details %q (shown %v)", d.details.Text, d.more.Visible())
	}
	if h.w.stopTicking == nil {
		t.Error("no ticker runs while a countdown shows")
	}

	test.Tap(button(t, d.content, "Retry now"))
	h.waitFor("another attempt", func() bool {
		st := h.row("remote").Status
		return st.Since.After(failed.Since)
	})
	if st := h.row("remote").Status; !st.FailedSince.Equal(failed.FailedSince) {
		t.Errorf("the retry moved FailedSince from %v to %v", failed.FailedSince, st.FailedSince)
	}

	// Disabled, nothing counts down and the ticker stops.
	test.Tap(d.toggle)
	h.waitState("remote", servers.StateDisabled)
	if h.w.stopTicking != nil || d.retry.Visible() {
		t.Error("the ticker or Retry now outlived the countdown")
	}
}
