//go:build unix

package corecmd

import (
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"syscall"
)

// privateConn makes the private connection of the windows' process that
// cmd starts: a socket pair, whose other end the process gets as its
// descriptor 3. Unlike a pipe's, a socket's descriptor cannot be opened
// again through /proc/PID/fd, so no other process can join it. started
// closes the core's copy of the process's end once it runs.
func privateConn(cmd *exec.Cmd) (conn io.ReadWriteCloser, started func(), err error) {
	syscall.ForkLock.RLock() // no process started meanwhile inherits them
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fds[0])
		syscall.CloseOnExec(fds[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, nil, fmt.Errorf("the windows' connection: %w", err)
	}
	ours, theirs := os.NewFile(uintptr(fds[0]), "windows"), os.NewFile(uintptr(fds[1]), "core")
	defer ours.Close()
	c, err := net.FileConn(ours)
	if err != nil {
		theirs.Close()
		return nil, nil, fmt.Errorf("the windows' connection: %w", err)
	}
	cmd.ExtraFiles = []*os.File{theirs} // descriptor 3
	return c, func() { theirs.Close() }, nil
}

// CoreConn is the windows' process's end of its private connection, which
// the core started it with.
func CoreConn() (io.ReadWriteCloser, error) {
	f := os.NewFile(3, "core")
	defer f.Close()
	c, err := net.FileConn(f)
	if err != nil {
		return nil, fmt.Errorf("not started by Elicit Desk's core (no connection on descriptor 3): %w", err)
	}
	return c, nil
}
