//go:build unix && !linux

package deskclient

import (
	"os/exec"
	"syscall"
)

// startDetached starts the app, argv, in a session of its own: a host that
// ends the bridge's process group leaves the app it started running. It
// returns the app's pid and running, which says whether the app still runs.
func startDetached(argv []string) (pid int, running func() bool, err error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	return start(cmd)
}
