package cli

import (
	"io"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/hosts"
)

// runLint prints a schema's problems. Exit 0 when it can be shown (warnings
// allowed), 1 when a problem is fatal, 2 when the file is unreadable or not JSON.
// A schema's property names come from its author, so paths and messages are
// shown through untrusted's views.
func runLint(args []string, stdin io.Reader, stdout, stderr terminal) int {
	fs := stderr.FlagSet("lint")
	asJSON := fs.Bool("json", false, "print the problems as a JSON array (with -hosts, an object of problems and hosts)")
	withHosts := fs.Bool("hosts", false, "also say what each MCP host Elicit Desk knows will do with the form")
	if code, done := parseMixed(fs, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() != 1 {
		return misuse(fs, stderr, "takes one schema file (- reads standard input), not %d", fs.NArg())
	}
	raw, err := readInput(fs.Arg(0), stdin)
	if err != nil {
		stderr.Linef("elicitdesk lint: %s", err)
		return 2
	}
	problems, err := forms.Lint(raw)
	if err != nil {
		stderr.Linef("elicitdesk lint: %s: %s", fs.Arg(0), err)
		return 2
	}
	var verdicts []hosts.FormVerdict
	if *withHosts {
		if schema, err := forms.Parse(raw); err == nil {
			for _, h := range hosts.FormSupports() {
				verdicts = append(verdicts, hosts.Judge(schema, h))
			}
		}
	}
	switch {
	case *asJSON && *withHosts:
		stdout.JSON(struct {
			Problems []forms.Problem     `json:"problems"`
			Hosts    []hosts.FormVerdict `json:"hosts"`
		}{append([]forms.Problem{}, problems...), append([]hosts.FormVerdict{}, verdicts...)})
	case *asJSON:
		stdout.JSON(append([]forms.Problem{}, problems...))
	default:
		for _, p := range problems {
			stdout.Linef("%s", p)
		}
		if *withHosts {
			printVerdicts(verdicts, stdout)
		}
	}
	for _, p := range problems {
		if p.Severity == forms.Fatal {
			return 1
		}
	}
	return 0
}

// printVerdicts says what each host does with the form, then where each
// record comes from.
func printVerdicts(verdicts []hosts.FormVerdict, out terminal) {
	if len(verdicts) == 0 {
		out.Linef("No host can show this form: it has fatal problems.")
		return
	}
	out.Linef("What each host does with this form:")
	table, flush := out.Table()
	for _, v := range verdicts {
		table.Linef("  %s\t%s\t%s", v.Host.Name, v.Host.Version, v.Shows)
	}
	flush()
	out.Linef("Sources:")
	for _, v := range verdicts {
		out.Linef("  %s, %s: %s", v.Host.Name, v.Host.Date, v.Host.Source)
	}
}
