package procgroup

// The keeper itself is C (keeper_linux.c), run before the Go runtime
// starts: with the runtime, it would run every package's init (Fyne,
// sqlite...) and hold some 30 MB to wait for one process.

// #include "keeper_linux.h"
import "C"

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

const (
	keeperName  = C.KEEPER_NAME
	orphanGrace = C.KEEPER_ORPHAN_GRACE_MS * time.Millisecond
)

// Start starts cmd, which sets neither SysProcAttr nor ExtraFiles, under a
// keeper, and returns the group of the command, which the keeper started
// in a group of its own. cmd's Process and Wait are the keeper's: it exits
// once the command and its group have ended, as the command did (the same
// exit code or signal). An error starting the command is the one os/exec
// gives for a command with a SysProcAttr.
func Start(cmd *exec.Cmd) (Group, error) {
	if cmd.Err != nil {
		return Group{}, cmd.Err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return Group{}, err
	}
	defer r.Close()
	path := cmd.Path
	cmd.Args = append([]string{keeperName, path}, cmd.Args...)
	cmd.Path = keeperPath()
	cmd.ExtraFiles = []*os.File{w} // the keeper's fd 3: see report
	// The keeper has a group of its own too: a host that signals its own
	// group, or a terminal's Ctrl-C, reaches the bridge, not the keeper.
	// SIGTERM when the thread that starts it ends: see keeper_linux.c.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	err = cmd.Start()
	w.Close()
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == cmd.Path {
		pe.Path = path // a missing cmd.Dir: the command's error, not the keeper's
	}
	if err != nil {
		return Group{}, err
	}
	var rep report
	if err := json.NewDecoder(r).Decode(&rep); err != nil {
		cmd.Wait()
		return Group{}, fmt.Errorf("the keeper ended before starting %s: %w", path, err)
	}
	if rep.Failed != nil {
		cmd.Wait()
		return Group{}, rep.Failed.err()
	}
	return Group{id: rep.Pid}, nil
}

// keeperPath is the keeper Start runs: elicitdesk-keeper (keeper/main.c),
// which holds a thirtieth of the private memory, beside the executable (make
// build) or in lib/elicitdesk beside its bin folder (make install, the
// .deb: a helper, not a command); or else the running executable itself,
// whose constructor is the same keeper (a build not installed: go build,
// go test, fyne package's archive). /proc/self/exe, not os.Executable:
// the running binary even when an update has replaced the file.
func keeperPath() string {
	if exe, err := os.Executable(); err == nil {
		dir := filepath.Dir(exe)
		for _, own := range []string{filepath.Join(dir, keeperName), filepath.Join(dir, "..", "lib", "elicitdesk", keeperName)} {
			if st, err := os.Stat(own); err == nil && st.Mode().IsRegular() {
				return own
			}
		}
	}
	return "/proc/self/exe"
}

// report is what the keeper writes on its fd 3 once it has started the
// command, or failed to.
type report struct {
	Pid    int          `json:"pid,omitempty"`
	Failed *startFailed `json:"failed,omitempty"`
}

// startFailed is the error of a command that did not start, kept whole
// across the pipe: the *fs.PathError, with an errno, os/exec gives (not a
// program, not found, not allowed).
type startFailed struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Errno int    `json:"errno"`
}

func (f *startFailed) err() error {
	return &fs.PathError{Op: f.Op, Path: f.Path, Err: syscall.Errno(f.Errno)}
}
