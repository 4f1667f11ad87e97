//go:build unix

package servers

import (
	"io"
	"os/exec"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/servers/config"
)

// TestStopDoesNotWaitForAnEscapedChild: a server whose child left its
// process group (setsid) keeps the stderr pipe open after the server is
// gone. Stopping must not wait for that child, or Close, the manager and
// the app's exit would hang with it.
func TestStopDoesNotWaitForAnEscapedChild(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid here:", err)
	}
	const marker = "31.4159" // the escaped child's sleep, to find and end it
	t.Cleanup(func() { exec.Command("pkill", "-f", "sleep "+marker).Run() })
	p, err := StartProcess(config.Server{Command: "sh", Args: []string{"-c", "setsid sleep " + marker + " & exec sleep " + marker}}, io.Discard, func(error) {})
	if err != nil {
		t.Fatal(err)
	}
	stopped := make(chan struct{})
	go func() {
		p.Stop(2 * time.Second)
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-time.After(20 * time.Second): // stop's own steps take at most about 6 s
		t.Fatal("stop waited for a child that left the server's process group")
	}
}
