package procgroup

import (
	"os/exec"
	"syscall"

	"golang.org/x/sys/windows"
)

// noConsole starts cmd without a console window of its own. Elicit Desk
// is a Windows GUI program, which has no console to share: without this,
// Windows opens a console window for each server it starts (node, npx's
// cmd.exe, python), over the person's work. A server's output goes
// through pipes, so it needs none.
func noConsole(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_NO_WINDOW
}
