// Command elicitdesk shows MCP elicitation requests as native forms.
//
// Run with no arguments it opens the app; the subcommands serve developers
// and scripts (see internal/cli).
package main

import (
	"os"

	"github.com/elicitdesk/elicitdesk/internal/cli"
)

func main() {
	os.Exit(cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
