package servers

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"slices"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/cmdline"
	"github.com/elicitdesk/elicitdesk/servers/config"
	"github.com/elicitdesk/elicitdesk/servers/procgroup"
)

// Process is a running stdio server.
type Process struct {
	cmd    *exec.Cmd
	group  procgroup.Group
	stdin  io.WriteCloser
	stdout io.Reader
	exited chan struct{}
	err    error
}

// StartProcess starts the server of cfg in a process group of its own,
// which on Linux ends with the calling process (see package procgroup);
// exited is called with the reason when it exits, before Stop returns.
func StartProcess(cfg config.Server, stderr io.Writer, exited func(error)) (*Process, error) {
	env := os.Environ()
	for _, k := range slices.Sorted(maps.Keys(cfg.Env)) {
		env = append(env, k+"="+cfg.Env[k])
	}
	// On Windows a bare name is looked up as hosts look it up; elsewhere
	// exec.Command does as they do.
	cmd := exec.Command(cmdline.Look(cfg.Command, cfg.Cwd, env), cfg.Args...)
	cmd.Dir = cfg.Cwd
	cmd.Env = env
	cmd.Stderr = stderr
	// A child that left the server's process group may hold stderr open
	// for ever; once the server has exited, Wait gives it this long.
	cmd.WaitDelay = 2 * time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	group, err := procgroup.Start(cmd)
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", cfg.Command, err)
	}
	p := &Process{cmd: cmd, group: group, stdin: stdin, stdout: stdout, exited: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		exited(p.exitErr())
		close(p.exited)
	}()
	return p, nil
}

func (p *Process) exitErr() error {
	if p.err != nil {
		return fmt.Errorf("the server exited: %w", p.err)
	}
	return errors.New("the server exited")
}

// Stdin carries our messages to the server; Stdout its messages to us.
func (p *Process) Stdin() io.WriteCloser { return p.stdin }
func (p *Process) Stdout() io.Reader     { return p.stdout }

// Stop closes the server's stdin, as the spec's shutdown asks, then
// escalates to SIGTERM and SIGKILL for its whole process group, giving the
// server grace after each step.
func (p *Process) Stop(grace time.Duration) {
	p.stdin.Close()
	if !p.waitExit(grace) {
		p.end(grace)
	}
	p.group.Kill() // the server is gone: leave none of its children behind
}

// Terminate passes a SIGTERM on to the server's whole process group at
// once, its stdin closed too, and SIGKILL after grace: for a host that
// SIGTERMs us and may SIGKILL us soon after, with no time for Stop's first
// step.
func (p *Process) Terminate(grace time.Duration) {
	p.stdin.Close()
	p.end(grace)
	p.group.Kill()
}

// end sends SIGTERM to the server's group, then SIGKILL if the server has
// not exited within grace, and waits for it to exit.
func (p *Process) end(grace time.Duration) {
	p.group.Terminate()
	if !p.waitExit(grace) {
		p.group.Kill()
		<-p.exited
	}
}

// waitExit reports whether the server exits within d.
func (p *Process) waitExit(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}
