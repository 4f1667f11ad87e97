//go:build unix

package endpoint

import (
	"encoding/json"
	"net"
	"os"
	"strings"
	"testing"
	"time"
)

// TestCrashedProcess runs an app in another process, reaches it, then
// kills it: its lock goes with it and the socket file it left is claimed.
func TestCrashedProcess(t *testing.T) {
	path := socketPath(t)
	h := startHelper(t, "instance", path, os.Getuid())
	if _, err := Listen(t.Context(), path, newHandler(), quiet()); err != ErrRunning {
		t.Errorf("Listen beside a running process = %v, want ErrRunning", err)
	}
	h.cmd.Process.Kill()
	h.cmd.Wait()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the killed process left no socket file, so nothing stale is tested: %v", err)
	}
	s, err := Listen(t.Context(), path, newHandler(), quiet())
	if err != nil {
		t.Fatalf("Listen after the crash: %v", err)
	}
	s.Close()
}

// TestOutOfFileDescriptors runs the server with 64 file descriptors, opens
// more idle connections than that, then closes them: the accept loop must
// have logged running out once for the whole episode, kept going, and
// answer a real request.
func TestOutOfFileDescriptors(t *testing.T) {
	path := socketPath(t)
	h := startHelper(t, "emfile", path, os.Getuid())
	var idle []net.Conn
	defer func() {
		for _, c := range idle {
			c.Close()
		}
	}()
	for range 100 {
		c, err := net.Dial("unix", path)
		if err != nil {
			t.Fatalf("idle connection %d: %v", len(idle), err)
		}
		idle = append(idle, c)
	}
	waitLog(t, h, "cannot accept connections", "too many open files")
	for _, c := range idle {
		c.Close()
	}
	idle = nil
	c, err := Dial(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.CallTool(t.Context(), ToolCall{Server: "demo", Tool: "echo"}); err != nil {
		t.Fatalf("a request after running out: %v", err)
	}
	h.in.Close() // the helper closes its server and ends
	for line := range h.lines {
		if strings.Contains(line, "cannot accept") {
			t.Errorf("logged running out again in the same episode: %s", line)
		}
	}
}

// waitLog reads the helper's JSON log until a message holding msg, with
// an err holding each of errs, and returns the lines before it; it fails
// if none comes soon.
func waitLog(t *testing.T, h *helper, msg string, errs ...string) (before []string) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		var line string
		select {
		case l, ok := <-h.lines:
			if !ok {
				t.Fatalf("the helper ended without logging %q", msg)
			}
			line = l
		case <-timeout:
			t.Fatalf("the log did not say %q in time", msg)
		}
		var rec struct{ Msg, Err string }
		json.Unmarshal([]byte(line), &rec)
		if !strings.Contains(rec.Msg, msg) {
			before = append(before, line)
			continue
		}
		for _, e := range errs {
			if !strings.Contains(rec.Err, e) {
				t.Errorf("log %s does not say %q", line, e)
			}
		}
		return before
	}
}
