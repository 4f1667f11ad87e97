package cli

import (
	"context"
	"errors"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/elicitdesk/elicitdesk/servers/config"
	"github.com/elicitdesk/elicitdesk/servers/signin"
	"github.com/elicitdesk/elicitdesk/servers/wire"
)

// Environment variables of sign-in, besides signin.BrowserEnv.
const (
	tokenFileEnv    = "ELICITDESK_TOKEN_FILE"          // keep sign-ins in this 0600 file, not the keyring
	clientIDEnv     = "ELICITDESK_CLIENT_ID"           // a client id registered beforehand
	clientSecretEnv = "ELICITDESK_CLIENT_SECRET"       // its secret (never a flag: flags show in ps)
	clientDocEnv    = "ELICITDESK_CLIENT_METADATA_URL" // Elicit Desk's Client ID Metadata Document
)

// signInWait bounds a sign-in: the person has this long to approve in the
// browser.
const signInWait = 5 * time.Minute

// newSigner is the command line's Signer: tokens in the OS keyring, or in
// memory with a warning where there is none, or in the file the person
// named; the browser ELICITDESK_BROWSER names, else the system's.
func newSigner(stderr terminal) *signin.Signer {
	store := signin.OpenStore(os.Getenv(tokenFileEnv), func(err error) {
		stderr.Linef("elicitdesk: %s; the sign-in is kept in memory only, for this run (set %s=FILE to keep sign-ins in a file only you can read)", err, tokenFileEnv)
	})
	browser := signin.BrowserFromEnv(os.Getenv)
	return signin.New(signin.Options{
		Store: store,
		Browser: signin.BrowserFunc(func(ctx context.Context, url string) error {
			stderr.Linef("elicitdesk: sign in in the browser; waiting for it (if none opened, open %s)", url)
			return browser.Open(ctx, url)
		}),
		Identity: signin.Identity{
			ClientID:     os.Getenv(clientIDEnv),
			ClientSecret: os.Getenv(clientSecretEnv),
			MetadataURL:  os.Getenv(clientDocEnv),
		},
		Log: stderr.Logger(),
	})
}

// signInWrap is the wrap that signs in to cfg's server when it asks,
// telling the person on stderr; nil for a stdio server.
func signInWrap(cfg config.Server, stderr terminal) wire.Wrap {
	if cfg.Transport == config.TransportStdio {
		return nil
	}
	signer := newSigner(stderr)
	return func(base http.RoundTripper) http.RoundTripper {
		return signer.Transport(cfg.URL, base, true, nil)
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
// and signInWait end, and the Signer.
func runSignIn(name string, args []string, stdout, stderr terminal, do func(context.Context, *signin.Signer, config.Server) error) int {
	fs := stderr.FlagSet(name)
	t := addTargetFlags(fs)
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() != 0 {
		return misuse(fs, stderr)
	}
	cfg, err := t.resolve(nil)
	if err == nil && cfg.Transport == config.TransportStdio {
		err = errors.New("a stdio server needs no sign-in")
	}
	if err != nil {
		stderr.Linef("elicitdesk %s: %s", name, err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, signInWait)
	defer cancel()
	if err := do(ctx, newSigner(stderr), cfg); err != nil {
		stderr.Linef("elicitdesk %s: %s", name, err)
		return 1
	}
	return 0
}
