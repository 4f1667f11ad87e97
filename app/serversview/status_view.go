package serversview

import (
	"fmt"
	"math"
	"time"

	"fyne.io/fyne/v2"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/config"
	"github.com/elicitdesk/elicitdesk/servers/signin"
)

// statusView is what the Overview says of a server's connection at a
// moment: one plain value, rendered by detail.showStatus.
type statusView struct {
	Light    fyne.ThemeColorName
	Headline string // "Failed since 16:02:13 · Retrying in 8 s"
	CanRetry bool   // a wait to reconnect that Retry now can end
	// Restart is the text of the button that starts a connected server
	// anew: "Restart" (a local command's process), "Reconnect" (a remote
	// server); "" hides it.
	Restart string
	Problem string // why it failed, in plain words; "" when it did not
	// Asking is whether Problem asks the person to do something rather
	// than says what failed, so it is not shown as an error.
	Asking  bool
	Details string // the technical chain, when it says more than Problem
	// Ticking is whether Headline changes as time passes.
	Ticking bool
	// SignIn is the text of the button that signs in ("Sign in", "Sign in
	// again"); "" hides it.
	SignIn     string
	CanCancel  bool // a sign-in is under way: Cancel ends it
	CanSignOut bool // a sign-in is stored: Sign out forgets it
}

// viewStatus is r's status as the Overview shows it at now, with a, the
// window's sign-in to it.
func viewStatus(r row, a signInAttempt, now time.Time) statusView {
	st := r.state()
	v := statusView{Light: lightColor(st), Headline: r.stateText(now)}
	problem := r.problem()
	if st == servers.StateNeedsSignIn {
		v.SignIn, v.Asking = "Sign in", true
		switch {
		case a.Running:
			v.Headline, v.SignIn, v.CanCancel, problem = "Signing in…", "", true, nil
			if a.Phase == signin.WaitingForBrowser {
				v.Headline = signin.Status{Phase: a.Phase}.Text()
				v.Problem = "Sign in to the server in your browser and allow Elicit Desk, then come back here. Cancel stops waiting."
			}
		case a.Err != nil:
			v.Headline, v.SignIn, v.Asking, problem = "Sign-in failed", "Sign in again", false, a.Err
		}
	}
	v.CanSignOut = r.Status.SignedIn && st != servers.StateNeedsSignIn
	if st == servers.StateReady {
		v.Restart = "Reconnect"
		if r.Entry.Transport == config.TransportStdio {
			v.Restart = "Restart"
		}
	}
	if problem != nil {
		x := servers.Explain(problem, r.Status.Stderr)
		v.Problem = x.Summary
		if d := x.Details.Block(); d != x.Summary {
			v.Details = d
		}
	}
	failed := r.Status.FailedSince
	switch {
	case st == servers.StateFailed && !r.Status.RetryAt.IsZero():
		v.Headline = "Failed since " + sinceText(failed, now) + " · " + retryText(r.Status.RetryAt.Sub(now))
		v.CanRetry, v.Ticking = true, true
	case st == servers.StateConnecting && !failed.IsZero():
		v.Headline = "Failed since " + sinceText(failed, now) + " · Trying again…"
	}
	return v
}

// retryText counts down to the next attempt, in whole seconds rounded up
// so that it never says 0 s before the attempt.
func retryText(left time.Duration) string {
	s := int(math.Ceil(left.Seconds()))
	switch {
	case s <= 0:
		return "Retrying now…"
	case s < 60:
		return fmt.Sprintf("Retrying in %d s", s)
	case s%60 == 0:
		return fmt.Sprintf("Retrying in %d min", s/60)
	}
	return fmt.Sprintf("Retrying in %d min %d s", s/60, s%60)
}

// problemText is a problem for a one-line place, such as the tools pane.
func problemText(err error) string {
	return untrusted.Text(servers.Explain(err, "").Summary).Line()
}
