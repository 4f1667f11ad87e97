//go:build !unix

package servers

import (
	"os/exec"
	"syscall"
)

func inOwnGroup(*exec.Cmd) {}

// signalGroup can only stop the direct child here.
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

const (
	sigTerm = syscall.Signal(15)
	sigKill = syscall.Signal(9)
)
