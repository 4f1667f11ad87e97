package deskclient

import (
	"os/exec"
	"syscall"

	"golang.org/x/sys/windows"
)

// startDetached starts the app, argv, without the bridge's console, so
// that it outlives it. It returns the app's pid and running, which says
// whether the app still runs.
func startDetached(argv []string) (pid int, running func() bool, err error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.DETACHED_PROCESS | windows.CREATE_NEW_PROCESS_GROUP}
	return start(cmd)
}
