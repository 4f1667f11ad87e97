// Package cli is the elicitdesk command line: the app when run with no
// arguments, and the commands developers and scripts use to lint schemas,
// reach servers and read the history. Every command prints through a
// terminal, which shows server text only through untrusted's views.
package cli

import (
	"io"
	"strings"

	"github.com/agnivade/levenshtein"

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
	errs.Linef("elicitdesk: unknown command %q%s", args[0], didYouMean(args[0]))
	errs.Ours("The commands: " + strings.Join(commandNames(), ", ") + ".\nRun `elicitdesk help` for their usage, or `elicitdesk help COMMAND` for one's.\n")
	return 2
}

// didYouMean names the command that typed is a typo or the start of, if
// one is: "; did you mean history?".
func didYouMean(typed string) string {
	best, distance := "", min(2, len(typed)/3+1)+1 // a few edits, fewer in a short word: hsitory, calll, not x for ui
	for _, name := range commandNames() {
		d := levenshtein.ComputeDistance(typed, name)
		if len(typed) >= 3 && strings.HasPrefix(name, typed) {
			d = 1 // hist
		}
		if d < distance {
			best, distance = name, d
		}
	}
	if best == "" {
		return ""
	}
	return "; did you mean " + best + "?"
}

// commandNames are the commands one types after elicitdesk: not ui,
// which the app starts.
func commandNames() []string {
	var names []string
	for _, c := range commands() {
		if c.name != appCommand && c.name != uiCommand {
			names = append(names, c.name)
		}
	}
	return names
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
