package autostart

import (
	"strings"

	"github.com/elicitdesk/elicitdesk/internal/base/cmdline"
)

// commandLine joins args into a Windows command line that CreateProcess
// and CommandLineToArgvW split back into args. The program is always
// quoted, because Windows reads it up to the closing quote with no
// escapes and a Run value's unquoted path with a blank is read
// ambiguously; the arguments are quoted as cmdline.WindowsArg does.
func commandLine(args []string) string {
	words := []string{`"` + args[0] + `"`}
	for _, a := range args[1:] {
		words = append(words, cmdline.WindowsArg(a))
	}
	return strings.Join(words, " ")
}
