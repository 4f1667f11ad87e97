//go:build linux && !headless

package cli

import (
	"os"
	"path/filepath"
	"syscall"
)

// handOver replaces this process with the core's own executable, passing
// it args, when one is installed beside this binary and is not older than
// it: a binary built alone since (go build) runs its own core rather than
// a stale one. It returns the app's binary, this one, when this process
// runs the core itself.
func handOver(args []string) (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	self, err := os.Stat(exe)
	if err != nil {
		return exe, nil
	}
	dir := filepath.Dir(exe)
	for _, core := range []string{filepath.Join(dir, coreName), filepath.Join(dir, "..", "lib", "elicitdesk", coreName)} {
		if st, err := os.Stat(core); err == nil && st.Mode().IsRegular() && !st.ModTime().Before(self.ModTime()) {
			return exe, syscall.Exec(core, append([]string{core}, args...), append(os.Environ(), appEnv+"="+exe))
		}
	}
	return exe, nil
}
