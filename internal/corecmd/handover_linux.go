//go:build linux

package corecmd

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/elicitdesk/elicitdesk/internal/base/term"
)

// HandOver replaces this process with the core's own executable, passing
// it args, when one is installed beside this binary, may be run and is not
// older than it: a binary built alone since (go build) runs its own core
// rather than a stale one. make install and the .deb put the app's binary
// first. It returns the app's binary, this one, when this process runs the
// core itself, which it also does, saying why on stderr, when the core
// would not start (one being written, say).
func HandOver(args []string, stderr term.Terminal) (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	self, err := os.Stat(exe)
	if err != nil {
		return exe, nil
	}
	dir := filepath.Dir(exe)
	for _, core := range []string{filepath.Join(dir, Name), filepath.Join(dir, "..", "lib", "elicitdesk", Name)} {
		st, err := os.Stat(core)
		if err != nil || !st.Mode().IsRegular() || st.ModTime().Before(self.ModTime()) || unix.Access(core, unix.X_OK) != nil {
			continue
		}
		env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, AppEnv+"=") })
		err = syscall.Exec(core, append([]string{core}, args...), append(env, AppEnv+"="+exe))
		stderr.Linef("elicitdesk: cannot run %s (%v): this process runs the core itself", core, err)
		return exe, nil
	}
	return exe, nil
}
