package serversview

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"fyne.io/fyne/v2/theme"

	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/config"
	"github.com/elicitdesk/elicitdesk/servers/signin"
)

func TestViewStatus(t *testing.T) {
	now := time.Date(2026, 11, 23, 16, 10, 0, 0, time.Local)
	first := time.Date(2026, 11, 23, 16, 2, 13, 0, time.Local)
	// The shape of a real refused connection's error; servers.Explain is
	// tested on real ones.
	chain := fmt.Errorf("initializing: transport error: %w", &url.Error{Op: "Post", URL: "http://127.0.0.1:9/mcp",
		Err: &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}})
	remote := config.Server{Name: "r", URL: "http://127.0.0.1:9/mcp", Transport: config.TransportHTTP}
	failed := row{Name: "r", Entry: remote, InFile: true, Status: servers.Status{
		Name: "r", State: servers.StateFailed, Err: chain, Since: now.Add(-time.Second), FailedSince: first, RetryAt: now.Add(7200 * time.Millisecond),
	}}
	retrying := failed
	// Trying again, the manager keeps the last failure's reason.
	retrying.Status.State, retrying.Status.RetryAt = servers.StateConnecting, time.Time{}
	exitErr := exec.Command("/bin/sh", "-c", "exit 1").Run()
	lastWords := "Warning: Cannot access directory /home/me/projects, skipping\nError: None of the specified directories are accessible\n"
	startErr := &servers.StartError{Err: fmt.Errorf("initializing: %w", io.EOF), Stderr: lastWords, Exit: exitErr}
	local := config.Server{Name: "files", Command: "npx", Transport: config.TransportStdio}
	exited := row{Name: "files", Entry: local, InFile: true, Status: servers.Status{
		Name: "files", State: servers.StateFailed, Err: startErr, Stderr: lastWords, Since: first, FailedSince: first, RetryAt: now.Add(2 * time.Second),
	}}
	ready := row{Name: "r", Entry: remote, InFile: true, Status: servers.Status{Name: "r", State: servers.StateReady, Since: first}}
	broken := row{Name: "b", Entry: config.Server{Name: "b", Err: errors.New("servers.json:4:9: url and command both set")}, InFile: true,
		Status: servers.Status{Name: "b", State: servers.StateFailed, Err: errors.New("servers.json:4:9: url and command both set"), Since: first, FailedSince: first}}
	need := &signin.Error{Server: remote.URL, Err: signin.ErrSignInNeeded}
	needs := row{Name: "r", Entry: remote, InFile: true, Status: servers.Status{Name: "r", State: servers.StateNeedsSignIn, Err: need, Since: first}}
	issuer := &signin.Error{Server: remote.URL, Err: errors.New(`the authorization server's metadata names another issuer ("https://elsewhere.example")`)}
	signedIn := ready
	signedIn.Status.SignedIn = true
	needsPlain := "The server needs you to sign in. Sign in opens your browser."
	waitingText := "Sign in to the server in your browser and allow Elicit Desk, then come back here. Cancel stops waiting."

	for _, tc := range []struct {
		name string
		r    row
		a    signInAttempt
		want statusView
	}{
		{"failed, waiting", failed, signInAttempt{}, statusView{Light: theme.ColorNameError, Headline: "Failed since 16:02:13 · Retrying in 8 s", CanRetry: true, Ticking: true,
			Problem: "Can't reach 127.0.0.1:9: nothing is listening there. Is the server running?", Details: chain.Error()}},
		{"trying again", retrying, signInAttempt{}, statusView{Light: theme.ColorNameWarning, Headline: "Failed since 16:02:13 · Trying again…",
			Problem: "Can't reach 127.0.0.1:9: nothing is listening there. Is the server running?", Details: chain.Error()}},
		{"exited at start: its last words", exited, signInAttempt{}, statusView{Light: theme.ColorNameError, Headline: "Failed since 16:02:13 · Retrying in 2 s", CanRetry: true, Ticking: true,
			Problem: "The server stopped during start-up: “None of the specified directories are accessible”.", Details: strings.TrimSuffix(startErr.Error(), "\n")}},
		{"ready: it may restart", ready, signInAttempt{}, statusView{Light: theme.ColorNameSuccess, Headline: "Ready since 16:02:13", Restart: "Reconnect"}},
		{"broken entry: no retry, the file must change", broken, signInAttempt{}, statusView{Light: theme.ColorNameError, Headline: "Failed since 16:02:13",
			Problem: "servers.json:4:9: url and command both set"}},
		{"needs a sign-in: no retry", needs, signInAttempt{}, statusView{Light: theme.ColorNameWarning, Headline: "Sign in needed since 16:02:13",
			SignIn: "Sign in", Problem: needsPlain, Asking: true, Details: need.Error()}},
		{"signing in", needs, signInAttempt{Running: true}, statusView{Light: theme.ColorNameWarning, Headline: "Signing in…", CanCancel: true, Asking: true}},
		{"waiting for the browser", needs, signInAttempt{Running: true, Phase: signin.WaitingForBrowser},
			statusView{Light: theme.ColorNameWarning, Headline: "Waiting for the browser…", CanCancel: true, Asking: true, Problem: waitingText}},
		{"sign-in failed", needs, signInAttempt{Phase: signin.Failed, Err: issuer}, statusView{Light: theme.ColorNameWarning, Headline: "Sign-in failed",
			SignIn: "Sign in again", Problem: `Sign-in failed: the authorization server's metadata names another issuer ("https://elsewhere.example").`, Details: issuer.Error()}},
		{"signed in", signedIn, signInAttempt{}, statusView{Light: theme.ColorNameSuccess, Headline: "Ready since 16:02:13", CanSignOut: true, Restart: "Reconnect"}},
	} {
		if got := viewStatus(tc.r, tc.a, now); got != tc.want {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.name, got, tc.want)
		}
	}
}

func TestRetryText(t *testing.T) {
	for _, tc := range []struct {
		left time.Duration
		want string
	}{
		{8 * time.Second, "Retrying in 8 s"},
		{7*time.Second + time.Millisecond, "Retrying in 8 s"},
		{time.Millisecond, "Retrying in 1 s"},
		{0, "Retrying now…"},
		{-time.Second, "Retrying now…"},
		{time.Minute, "Retrying in 1 min"},
		{65 * time.Second, "Retrying in 1 min 5 s"},
	} {
		if got := retryText(tc.left); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.left, got, tc.want)
		}
	}
}
