// Package cmdline writes, reads and resolves command lines the way the
// system a program runs on does: a POSIX shell's quoting on Linux and
// macOS, the quoting CommandLineToArgvW and the C runtime read on Windows,
// and, on Windows, a bare command looked up as MCP hosts look it up.
//
// Both quotings are plain functions, tested on every system; Join and
// Split pick this system's.
package cmdline

import "errors"

// The errors Split reports for a line it cannot read.
var (
	errSingle    = errors.New("a ' quote is not closed")
	errDouble    = errors.New(`a " quote is not closed`)
	errBackslash = errors.New(`the line ends with a lone \`)
)

// Join renders argv as a command line a person can paste into this
// system's terminal, and that Split reads back as argv.
func Join(argv []string) string { return join(argv) }

// Split splits a command line a person typed or pasted into its words,
// as this system's terminal would, expanding nothing: no variables, no
// ~, no globs, as no shell runs the command.
func Split(line string) ([]string, error) { return split(line) }
