//go:build !linux

package corecmd

import (
	"os"

	"github.com/elicitdesk/elicitdesk/internal/base/term"
)

// HandOver: only Linux builds a core of its own; this binary runs it.
func HandOver([]string, bool, term.Terminal) (string, error) { return os.Executable() }
