package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/elicitdesk/elicitdesk/forms"
)

// runLint prints a schema's problems. Exit 0 when it can be shown (warnings
// allowed), 1 when a problem is fatal, 2 when the file is unreadable or not JSON.
func runLint(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lint", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the problems as a JSON array")
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: elicitdesk lint [-json] SCHEMA.json")
		return 2
	}
	raw, err := readInput(fs.Arg(0), nil)
	if err != nil {
		fmt.Fprintln(stderr, "elicitdesk lint:", err)
		return 2
	}
	problems, err := forms.Lint(raw)
	if err != nil {
		fmt.Fprintf(stderr, "elicitdesk lint: %s: %v\n", fs.Arg(0), err)
		return 2
	}
	if *asJSON {
		out, _ := json.MarshalIndent(append([]forms.Problem{}, problems...), "", "  ")
		fmt.Fprintf(stdout, "%s\n", out)
	} else {
		for _, p := range problems {
			fmt.Fprintln(stdout, p)
		}
	}
	for _, p := range problems {
		if p.Severity == forms.Fatal {
			return 1
		}
	}
	return 0
}
