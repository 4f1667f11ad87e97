// Package cli is the elicitdesk command line: the app when run with no
// arguments, and the commands developers and scripts use to lint schemas,
// reach servers and read the history. Every command prints through a
// terminal, which shows server text only through untrusted's views.
package cli

import (
	"io"
	"strings"

	"github.com/elicitdesk/elicitdesk/internal/base/term"
	"github.com/elicitdesk/elicitdesk/internal/corecmd"
)

// appID is the application's reverse-DNS identity, and appName what the
// desktop calls it.
const (
	appID   = corecmd.AppID
	appName = corecmd.AppName
)

// terminal is where a command prints: every command prints only through
// it.
type terminal = term.Terminal

// timeLayout is how a moment is printed: local time to the second.
const timeLayout = "2006-01-02 15:04:05"

// Run dispatches a command line and returns the exit code.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	s := stdio{in: stdin, out: stdout, err: stderr}
	out, errs := s.terminals()
	if len(args) > 0 {
		switch args[0] {
		case "-h", "-help", "--help":
			out.Ours(usage() + "\n")
			return 0
		case "-version", "--version":
			return runVersion(args[1:], out, errs)
		}
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return runApp(args, out, errs)
	}
	if c, ok := lookup(args[0]); ok && c.name != appCommand {
		return c.run(args[1:], s)
	}
	errs.Linef("elicitdesk: unknown command %q", args[0])
	errs.Ours("\n" + usage() + "\n")
	return 2
}

// writeCloser is w, closed if it can be: closing a bridge's stdout tells
// its host the conversation is over.
func writeCloser(w io.Writer) io.WriteCloser {
	if wc, ok := w.(io.WriteCloser); ok {
		return wc
	}
	return nopCloser{w}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
