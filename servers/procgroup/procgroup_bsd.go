//go:build unix && !(linux && cgo)

package procgroup

import (
	"os/exec"
	"syscall"
)

// Start starts cmd, which sets no SysProcAttr, in a process group of its
// own. There is no parent-death signal here: a caller killed before it
// stops the group leaves the group running.
func Start(cmd *exec.Cmd) (Group, error) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return Group{}, err
	}
	return Group{id: cmd.Process.Pid}, nil
}
