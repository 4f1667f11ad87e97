package signin

import (
	"context"
	"log/slog"
	"os"
)

// Environment variables of sign-in, besides BrowserEnv.
const (
	TokenFileEnv    = "ELICITDESK_TOKEN_FILE"          // keep sign-ins in this 0600 file, not the keyring
	clientIDEnv     = "ELICITDESK_CLIENT_ID"           // a client id registered beforehand
	clientSecretEnv = "ELICITDESK_CLIENT_SECRET"       // its secret (never a flag: flags show in ps)
	clientDocEnv    = "ELICITDESK_CLIENT_METADATA_URL" // Elicit Desk's Client ID Metadata Document
)

// FromEnv is Elicit Desk's Signer, the command line's and the app's:
// tokens in the OS keyring, or in memory where there is none (noKeyring
// hears why), or in the file the person named; the browser
// ELICITDESK_BROWSER names, else the system's, with opening, if not nil,
// hearing the URL first.
func FromEnv(log *slog.Logger, noKeyring func(error), opening func(url string)) *Signer {
	browser := BrowserFromEnv(os.Getenv)
	if opening != nil {
		system := browser
		browser = BrowserFunc(func(ctx context.Context, url string) error {
			opening(url)
			return system.Open(ctx, url)
		})
	}
	return New(Options{
		Store:   OpenStore(os.Getenv(TokenFileEnv), noKeyring),
		Browser: browser,
		Identity: Identity{
			ClientID:     os.Getenv(clientIDEnv),
			ClientSecret: os.Getenv(clientSecretEnv),
			MetadataURL:  os.Getenv(clientDocEnv),
		},
		Log: log,
	})
}
