// Command elicitdesk shows MCP elicitation requests as native forms.
//
// Run with no arguments it opens the app; the subcommands serve developers
// and scripts (see internal/cli).
package main

import (
	"os"

	"github.com/elicitdesk/elicitdesk/internal/base/inherited"
	"github.com/elicitdesk/elicitdesk/internal/cli"
	"github.com/elicitdesk/elicitdesk/internal/desktop/console"
)

func main() {
	inherited.Seal()
	// With arguments it is a command, or the app asked for its log (-v):
	// on Windows it prints to the terminal it was started from. Without,
	// it is the app as the Start menu starts it, which leaves the terminal
	// at once and is not ended with it.
	if len(os.Args) > 1 {
		console.Attach()
	}
	os.Exit(cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
