package hosts

import (
	"os"
	"os/exec"
	"path/filepath"
)

// Exe is the elicitdesk that routed entries run: this binary, named as
// PATH finds it when that is the same file. The kernel reports the path
// with every link resolved, which for Homebrew, nix or asdf is a
// versioned directory that the next upgrade removes.
func Exe() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	onPath, err := exec.LookPath("elicitdesk")
	if err != nil {
		return exe, nil
	}
	if onPath, err = filepath.Abs(onPath); err != nil {
		return exe, nil
	}
	a, errA := os.Stat(onPath)
	b, errB := os.Stat(exe)
	if errA == nil && errB == nil && os.SameFile(a, b) {
		return onPath, nil
	}
	return exe, nil
}
