package cli

import (
	"context"
	"errors"
	"net/http"
	"os/signal"
	"syscall"

	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/config"
	"github.com/elicitdesk/elicitdesk/servers/signin"
)

// newCLISigner is the command line's Signer, which tells the person on
// stderr where it keeps the sign-in and that the browser is waiting.
func newCLISigner(stderr terminal) *signin.Signer {
	return signin.FromEnv(stderr.Logger(), func(err error) {
		stderr.Linef("elicitdesk: %s; the sign-in is kept in memory only, for this run (set %s=FILE to keep sign-ins in a file only you can read)", err, signin.TokenFileEnv)
	}, func(url string) {
		stderr.Linef("elicitdesk: sign in in the browser; waiting for it (if none opened, open %s)", url)
	})
}

// signInWrap is the wrap that signs in to cfg's server when it asks,
// telling the person on stderr; nil for a server that does not sign in
// (config.Server.SignsIn). status, if not nil, hears each sign-in's phases.
func signInWrap(cfg config.Server, stderr terminal, status func(signin.Status)) servers.Wrap {
	if !cfg.SignsIn() {
		return nil
	}
	signer := newCLISigner(stderr)
	return func(base http.RoundTripper) http.RoundTripper {
		return signer.Transport(cfg.URL, base, true, status)
	}
}

// runLogin signs in to a remote server and keeps the tokens.
func runLogin(args []string, stdout, stderr terminal) int {
	return runSignIn("login", args, stdout, stderr, func(ctx context.Context, s *signin.Signer, cfg config.Server) error {
		if err := s.SignIn(ctx, cfg.URL, nil); err != nil {
			return err
		}
		stdout.Linef("signed in to %s", cfg.URL)
		return nil
	})
}

// runLogout forgets a remote server's tokens.
func runLogout(args []string, stdout, stderr terminal) int {
	return runSignIn("logout", args, stdout, stderr, func(_ context.Context, s *signin.Signer, cfg config.Server) error {
		if err := s.SignOut(cfg.URL); err != nil {
			return err
		}
		stdout.Linef("signed out of %s", cfg.URL)
		return nil
	})
}

// runSignIn is what login and logout share: the target, a context Ctrl-C
// and signin.Wait end, and the Signer.
func runSignIn(name string, args []string, stdout, stderr terminal, do func(context.Context, *signin.Signer, config.Server) error) int {
	fs := stderr.FlagSet(name)
	t := addTargetFlags(fs)
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() != 0 {
		return noArgs(fs, stderr)
	}
	cfg, err := t.resolve(nil)
	if err == nil && cfg.Transport == config.TransportStdio {
		err = errors.New("a stdio server needs no sign-in")
	}
	if err != nil {
		stderr.Linef("elicitdesk %s: %s", name, err)
		return targetExit(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, signin.Wait)
	defer cancel()
	if err := do(ctx, newCLISigner(stderr), cfg); err != nil {
		stderr.Linef("elicitdesk %s: %s", name, err)
		return 1
	}
	return 0
}
