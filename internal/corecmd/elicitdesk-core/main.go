// Command elicitdesk-core is Elicit Desk's core, which elicitdesk hands the
// app over to on Linux: the core alone, without Fyne, GL or the other
// commands (package corecmd). make build puts it beside elicitdesk.
package main

import (
	"os"

	"github.com/elicitdesk/elicitdesk/internal/base/inherited"
	"github.com/elicitdesk/elicitdesk/internal/corecmd"
)

func main() {
	inherited.Seal()
	os.Exit(corecmd.Main(os.Args[1:], os.Stdout, os.Stderr))
}
