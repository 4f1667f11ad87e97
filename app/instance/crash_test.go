package instance

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"
)

// helperEnv names the socket path when the test binary runs as another
// instance for TestCrashedProcess.
const helperEnv = "ELICITDESK_INSTANCE_HELPER"

// TestHelperInstance is the other process of TestCrashedProcess: it claims
// the path, says so and runs until killed.
func TestHelperInstance(t *testing.T) {
	path := os.Getenv(helperEnv)
	if path == "" {
		t.Skip("only run by TestCrashedProcess")
	}
	if _, err := Listen(t.Context(), path, nil); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("ready")
	time.Sleep(time.Minute)
}

// TestCrashedProcess runs an instance in another process, reaches it, then
// kills it: its lock goes with it and the socket file it left is claimed.
func TestCrashedProcess(t *testing.T) {
	path := socketPath(t)
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestHelperInstance$")
	cmd.Env = append(os.Environ(), helperEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if line, _ := bufio.NewReader(out).ReadString('\n'); line != "ready\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("helper says %q", line)
	}
	if _, err := Listen(t.Context(), path, nil); err != ErrRunning {
		t.Errorf("Listen beside a running process = %v, want ErrRunning", err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the killed process left no socket file, so nothing stale is tested: %v", err)
	}
	i, err := Listen(t.Context(), path, nil)
	if err != nil {
		t.Fatalf("Listen after the crash: %v", err)
	}
	i.Close()
}
