package atomicfile

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
)

// crashEnv makes the test binary a writer that stops just before its
// rename, says so on stdout, and waits to be killed.
const crashEnv = "ATOMICFILE_WRITE_AND_WAIT"

func TestMain(m *testing.M) {
	if path := os.Getenv(crashEnv); path != "" {
		err := WriteChecked(path, bytes.Repeat([]byte("x"), 50<<20), 0o600, func() error {
			os.Stdout.WriteString("ready\n")
			os.Stdin.Read(make([]byte, 1)) // until killed: stdin stays open
			return errors.New("stdin closed")
		})
		panic(err)
	}
	os.Exit(m.Run())
}

// writer starts a writer of path that stops before its rename.
func writer(t *testing.T, path string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	if line, err := bufio.NewReader(out).ReadString('\n'); line != "ready\n" {
		t.Fatalf("writer: %q %v", line, err)
	}
	return cmd
}

func temps(t *testing.T, dir string) []string {
	t.Helper()
	left, err := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	if err != nil {
		t.Fatal(err)
	}
	return left
}

// TestKilledWriter: a writer killed before its rename leaves its 50 MB
// temporary file, which the next write removes; a live writer's is kept.
func TestKilledWriter(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a live writer's file cannot be removed on Windows; the rest is the same")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(path, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	writer(t, path) // alive, stopped before its rename
	live := temps(t, dir)
	dead := writer(t, path)
	dead.Process.Kill()
	dead.Wait()
	left := slices.DeleteFunc(temps(t, dir), func(p string) bool { return slices.Contains(live, p) })
	if len(live) != 1 || len(left) != 1 {
		t.Fatalf("live writer's %v, killed writer's %v", live, left)
	}
	other := filepath.Join(dir, ".mcp.json.backup.tmp") // not a name CreateTemp gives
	if err := os.WriteFile(other, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	live = append(live, other)
	if err := Write(path, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := temps(t, dir); !slices.Equal(got, live) {
		t.Errorf("temporary files %v, want only the live writer's %v", got, live)
	}
	if _, err := os.Stat(left[0]); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the killed writer's file: %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "new" {
		t.Errorf("file holds %q", got)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("someone else's file was removed: %v", err)
	}
}
