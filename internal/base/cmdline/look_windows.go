package cmdline

import (
	"os/exec"
	"path/filepath"
)

// Look returns the program a stdio server's command names: a bare name
// looked up as MCP hosts on Windows look it up (see lookWindows), with the
// extensions of PATHEXT, on the PATH of env, the environment the server
// gets, then in dir, the folder it runs in (this process's when empty).
// Anything else is returned as it is, for exec.Command.
func Look(name, dir string, env []string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return name
	}
	return lookWindows(name, abs, env, exec.LookPath)
}
