//go:build !linux

package deskclient

import "os/exec"

// start starts cmd, a child of the bridge, and waits for it in the
// background; running says whether it still runs.
func start(cmd *exec.Cmd) (pid int, running func() bool, err error) {
	if err := cmd.Start(); err != nil {
		return 0, nil, err
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	return cmd.Process.Pid, func() bool {
		select {
		case <-exited:
			return false
		default:
			return true
		}
	}, nil
}
