package cli

import (
	"github.com/elicitdesk/elicitdesk/forms"
)

// runLint prints a schema's problems. Exit 0 when it can be shown (warnings
// allowed), 1 when a problem is fatal, 2 when the file is unreadable or not JSON.
// A schema's property names come from its author, so paths and messages are
// shown through untrusted's views.
func runLint(args []string, stdout, stderr terminal) int {
	fs := stderr.FlagSet("lint")
	asJSON := fs.Bool("json", false, "print the problems as a JSON array")
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() != 1 {
		return misuse(fs, stderr)
	}
	raw, err := readInput(fs.Arg(0), nil)
	if err != nil {
		stderr.Linef("elicitdesk lint: %s", err)
		return 2
	}
	problems, err := forms.Lint(raw)
	if err != nil {
		stderr.Linef("elicitdesk lint: %s: %s", fs.Arg(0), err)
		return 2
	}
	if *asJSON {
		stdout.JSON(append([]forms.Problem{}, problems...))
	} else {
		for _, p := range problems {
			stdout.Linef("%s", p)
		}
	}
	for _, p := range problems {
		if p.Severity == forms.Fatal {
			return 1
		}
	}
	return 0
}
