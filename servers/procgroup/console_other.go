//go:build !unix && !windows

package procgroup

import "os/exec"

// noConsole does nothing: only Windows gives a program a console window.
func noConsole(*exec.Cmd) {}
