//go:build !unix

package procgroup

import (
	"os"
	"os/exec"
)

// Group is a command started by Start: without process groups, only the
// command itself can be ended, not what it started.
type Group struct {
	proc *os.Process
}

// Start starts cmd.
func Start(cmd *exec.Cmd) (Group, error) {
	noConsole(cmd)
	if err := cmd.Start(); err != nil {
		return Group{}, err
	}
	return Group{proc: cmd.Process}, nil
}

// Terminate ends the command: there is no gentler signal here.
func (g Group) Terminate() { g.Kill() }

// Kill ends the command.
func (g Group) Kill() {
	if g.proc != nil {
		_ = g.proc.Kill()
	}
}
