//go:build unix

package servers

import (
	"os/exec"
	"syscall"
)

// inOwnGroup starts the command in a process group of its own, so that
// stopping it also stops what it started (npx, uv run and sh -c leave the
// real server as a grandchild).
func inOwnGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends sig to the command's whole process group.
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, sig)
	}
}

const (
	sigTerm = syscall.SIGTERM
	sigKill = syscall.SIGKILL
)
