package signin

import (
	"context"
	"fmt"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// BrowserEnv names the environment variable that replaces the system
// browser: a command line that gets the authorization URL as its last
// argument. Tests and headless machines follow the URL with their own
// program (curl -sfL -o /dev/null follows an authorization server that
// approves at once).
const BrowserEnv = "ELICITDESK_BROWSER"

// Wait is how long a person has to approve a sign-in in the browser: the
// time limit of SignIn's context in the command line and the app.
const Wait = 5 * time.Minute

// Browser shows the person an authorization URL. Open returns once the
// opener is done: at once for a desktop browser, when the whole visit is
// over for a program that follows the URL itself.
type Browser interface {
	Open(ctx context.Context, url string) error
}

// BrowserFunc is a Browser made of a function.
type BrowserFunc func(ctx context.Context, url string) error

// Open calls f.
func (f BrowserFunc) Open(ctx context.Context, url string) error { return f(ctx, url) }

// Command is a Browser that runs a command line with the URL appended.
type Command []string

// Open runs the command and waits for it.
func (c Command) Open(ctx context.Context, url string) error {
	if len(c) == 0 {
		return fmt.Errorf("no browser command")
	}
	out, err := exec.CommandContext(ctx, c[0], append(c[1:], url)...).CombinedOutput()
	if err == nil {
		return nil
	}
	if said := strings.TrimSpace(string(out)); said != "" {
		return fmt.Errorf("the browser command %q failed: %w: %s", c[0], err, said)
	}
	return fmt.Errorf("the browser command %q failed: %w", c[0], err)
}

// SystemBrowser is the desktop's way of opening a URL.
func SystemBrowser() Browser {
	switch runtime.GOOS {
	case "darwin":
		return Command{"open"}
	case "windows":
		return Command{"rundll32", "url.dll,FileProtocolHandler"}
	}
	return Command{"xdg-open"}
}

// BrowserFromEnv is the command getenv(BrowserEnv) names, split at spaces,
// or the system browser when it is unset.
func BrowserFromEnv(getenv func(string) string) Browser {
	if c := strings.Fields(getenv(BrowserEnv)); len(c) > 0 {
		return Command(c)
	}
	return SystemBrowser()
}
