package procgroup

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"syscall"
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
	// /proc/self/exe, not os.Executable: the running binary even when an
	// update has replaced the file.
	path := cmd.Path
	cmd.Args = append([]string{keeperName, path}, cmd.Args...)
	cmd.Path = "/proc/self/exe"
	cmd.ExtraFiles = []*os.File{w} // the keeper's fd 3: see report
	// The keeper has a group of its own too: a host that signals its own
	// group, or a terminal's Ctrl-C, reaches the bridge, not the keeper.
	// SIGTERM when the thread that starts it ends: see keep.
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

// report is what the keeper writes on its fd 3 once it has started the
// command, or failed to.
type report struct {
	Pid    int          `json:"pid,omitempty"`
	Failed *startFailed `json:"failed,omitempty"`
}

// startFailed is an error of exec.Cmd.Start, kept whole across the pipe
// for what the caller tells apart: an *fs.PathError with an errno (not a
// program, not found, not allowed), else its text.
type startFailed struct {
	Op    string `json:"op,omitempty"`
	Path  string `json:"path,omitempty"`
	Errno int    `json:"errno,omitempty"`
	Text  string `json:"text,omitempty"`
}

func failed(err error) *startFailed {
	var pe *fs.PathError
	var errno syscall.Errno
	if errors.As(err, &pe) && errors.As(pe.Err, &errno) {
		return &startFailed{Op: pe.Op, Path: pe.Path, Errno: int(errno)}
	}
	return &startFailed{Text: err.Error()}
}

func (f *startFailed) err() error {
	if f.Op != "" {
		return &fs.PathError{Op: f.Op, Path: f.Path, Err: syscall.Errno(f.Errno)}
	}
	return errors.New(f.Text)
}
