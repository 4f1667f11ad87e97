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
// would not start (one being written, say); with verbose, it says why
// whenever it runs the core itself.
func HandOver(args []string, verbose bool, stderr term.Terminal) (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	self, err := os.Stat(exe)
	if err != nil {
		return exe, nil
	}
	dir := filepath.Dir(exe)
	why := "there is no " + Name + " beside it or in ../lib/elicitdesk (make build builds it)"
	for _, core := range []string{filepath.Join(dir, Name), filepath.Join(dir, "..", "lib", "elicitdesk", Name)} {
		st, err := os.Stat(core)
		switch {
		case err != nil:
			continue
		case !st.Mode().IsRegular():
			why = core + " is not a file"
			continue
		case st.ModTime().Before(self.ModTime()):
			why = core + " is older than this binary"
			continue
		case unix.Access(core, unix.X_OK) != nil:
			why = core + " may not be run"
			continue
		}
		env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, AppEnv+"=") })
		err = syscall.Exec(core, append([]string{core}, args...), append(env, AppEnv+"="+exe))
		stderr.Linef("elicitdesk: cannot run %s (%v): this process runs the core itself", core, err)
		return exe, nil
	}
	if verbose {
		stderr.Linef("elicitdesk: %s: this process runs the core itself", why)
	}
	return exe, nil
}
