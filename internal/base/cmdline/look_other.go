//go:build !windows

package cmdline

// Look returns name: exec.Command looks a bare name up on the PATH as
// execvp does, which is what hosts on Linux and macOS do.
func Look(name, dir string, env []string) string { return name }
