//go:build !headless

package cli

import "github.com/elicitdesk/elicitdesk/internal/corecmd"

// runApp checks the app's command line and hands the app over to the
// core's own executable (corecmd.HandOver), or runs the core in this
// process where there is none.
func runApp(args []string, stdout, stderr terminal) int {
	fs := stderr.FlagSet(appCommand)
	options := corecmd.Flags(fs)
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() != 0 {
		return noArgs(fs, stderr)
	}
	o := options()
	var err error
	if o.Exe, err = corecmd.HandOver(args, o.Verbose, stderr); err != nil {
		stderr.Linef("elicitdesk: %s", err)
		return 2
	}
	return corecmd.Run(o, stdout, stderr)
}
