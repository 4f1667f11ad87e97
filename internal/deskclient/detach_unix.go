//go:build unix

package deskclient

import (
	"os/exec"
	"syscall"
)

// detach starts cmd in a session of its own: a host that ends the
// bridge's process group leaves the app it started running.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}
