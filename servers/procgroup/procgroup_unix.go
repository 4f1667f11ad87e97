//go:build unix

package procgroup

import "syscall"

// Group is the process group of a command started by Start.
type Group struct {
	id int
}

// Terminate sends SIGTERM to every process of the group.
func (g Group) Terminate() { g.signal(syscall.SIGTERM) }

// Kill sends SIGKILL to every process of the group.
func (g Group) Kill() { g.signal(syscall.SIGKILL) }

func (g Group) signal(sig syscall.Signal) {
	if g.id > 0 {
		_ = syscall.Kill(-g.id, sig)
	}
}
