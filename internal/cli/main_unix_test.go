//go:build unix

package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// unixRole plays the roles of the test binary, re-run as a child, that
// only Unix tests give it; ok is whether it played one.
func unixRole() (code int, ok bool) {
	if os.Getenv(fakeCoreEnv) == "1" {
		return serveFakeCore(os.Args[1:]), true
	}
	return 0, false
}

// TestCallAnswerFromPipe answers through a named pipe that is only written
// once the request has arrived: -answer FILE is read late, not at start.
func TestCallAnswerFromPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "answer")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0) // blocks until the request arrives and the CLI opens it
		if err != nil {
			return
		}
		f.WriteString(`{"confirm": true}`)
		f.Close()
	}()
	var stdout, stderr bytes.Buffer
	code := Run(append([]string{"call", "-tool", "ask_confirm", "-answer", fifo}, demoCommand(t)...), nil, &stdout, &stderr)
	if code != 0 || !strings.Contains(stdout.String(), `\"confirm\":true`) {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout.String(), stderr.String())
	}
}
