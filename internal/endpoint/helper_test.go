//go:build unix

package endpoint

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// helperEnv makes the test binary one of the other processes the tests
// need: "MODE PATH" (see runHelper).
const helperEnv = "ELICITDESK_ENDPOINT_HELPER"

// nobody is the other user the squatting tests run helpers as.
const nobody = 65534

func TestMain(m *testing.M) {
	if h := os.Getenv(helperEnv); h != "" {
		mode, path, _ := strings.Cut(h, " ")
		os.Exit(runHelper(mode, path))
	}
	os.Exit(m.Run())
}

// runHelper is the helper process. It prints "ready" once set up and runs
// until its standard input closes, or until killed.
func runHelper(mode, path string) int {
	switch mode {
	case "instance": // an app holding the endpoint at path
		s, err := Listen(context.Background(), path, newHandler(), quiet())
		if err != nil {
			fmt.Println(err)
			return 1
		}
		fmt.Println("ready")
		io.Copy(io.Discard, os.Stdin)
		s.Close()
	case "emfile": // an app with few file descriptors, logging JSON to stderr
		if err := lowerFileLimit(64); err != nil {
			fmt.Println(err)
			return 1
		}
		s, err := Listen(context.Background(), path, newHandler(), slog.New(slog.NewJSONHandler(os.Stderr, nil)))
		if err != nil {
			fmt.Println(err)
			return 1
		}
		fmt.Println("ready")
		io.Copy(io.Discard, os.Stdin)
		s.Close()
	case "squat": // another user's listener at path
		return squat(path)
	case "dial": // another user's peer: says hello, prints what came back
		c, err := net.Dial("unix", path)
		if err != nil {
			fmt.Println("dial:", err)
			return 1
		}
		fmt.Println("ready")
		fmt.Fprintf(c, "%s\n", helloLine())
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		got, err := io.ReadAll(c)
		fmt.Printf("got %q %v\n", got, err)
	default:
		fmt.Println("unknown helper mode", mode)
		return 2
	}
	return 0
}

// squat listens at path, and once its standard input closes prints how
// many connections reached it and how many bytes they sent.
func squat(path string) int {
	ln, err := net.Listen("unix", path)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	fmt.Println("ready")
	io.Copy(io.Discard, os.Stdin)
	// Whoever connected has hung up by now; take what is queued.
	ln.(*net.UnixListener).SetDeadline(time.Now().Add(200 * time.Millisecond))
	conns, bytes := 0, int64(0)
	for {
		c, err := ln.Accept()
		if err != nil {
			break
		}
		conns++
		c.SetReadDeadline(time.Now().Add(time.Second))
		n, _ := io.Copy(io.Discard, c)
		bytes += n
		c.Close()
	}
	fmt.Printf("%d connections, %d bytes\n", conns, bytes)
	return 0
}

// helper is a running helper process.
type helper struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Reader
	lines chan string // its standard error, line by line
}

// startHelper starts the test binary as the helper in mode for path, as
// the user uid, and waits until it is ready. Running as another user needs
// root; the test is skipped when it cannot be.
func startHelper(t *testing.T, mode, path string, uid int) *helper {
	t.Helper()
	bin := os.Args[0]
	cmd := exec.Command(bin)
	if uid != os.Getuid() {
		if os.Getuid() != 0 {
			t.Skipf("running a helper as uid %d needs root; this test runs as uid %d", uid, os.Getuid())
		}
		bin = binaryFor(t, uid)
		cmd = exec.Command(bin)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}
		cmd.Dir = filepath.Dir(bin)
	}
	cmd.Env = append(os.Environ(), helperEnv+"="+mode+" "+path)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errs, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		if errors.Is(err, syscall.EPERM) {
			t.Skipf("cannot run a process as uid %d here: %v", uid, err)
		}
		t.Fatal(err)
	}
	h := &helper{cmd: cmd, in: in, out: bufio.NewReader(out), lines: make(chan string, 1024)}
	go func() {
		defer close(h.lines)
		sc := bufio.NewScanner(errs)
		for sc.Scan() {
			h.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		h.cmd.Process.Kill()
		h.cmd.Wait()
	})
	if line := h.line(t); line != "ready" {
		t.Fatalf("helper %s says %q", mode, line)
	}
	return h
}

// line reads the helper's next line of standard output.
func (h *helper) line(t *testing.T) string {
	t.Helper()
	line, err := h.out.ReadString('\n')
	if err != nil && line == "" {
		t.Fatalf("helper: %v", err)
	}
	return strings.TrimSuffix(line, "\n")
}

// finish closes the helper's standard input and returns its last line.
func (h *helper) finish(t *testing.T) string {
	t.Helper()
	h.in.Close()
	return h.line(t)
}

// binaryFor copies the test binary where uid may run it: the build
// directory is private to us.
func binaryFor(t *testing.T, uid int) string {
	t.Helper()
	dir := sharedDir(t, uid)
	src, err := os.Open(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	bin := filepath.Join(dir, "endpoint.test")
	dst, err := os.OpenFile(bin, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	return bin
}

// sharedDir is a new directory that uid owns and everyone may enter,
// outside our private temporary directories.
func sharedDir(t *testing.T, uid int) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "endpoint-shared-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(dir, uid, uid); err != nil {
		t.Fatal(err)
	}
	return dir
}

// lowerFileLimit lowers this process's soft limit of open files to n.
func lowerFileLimit(n uint64) error {
	var l unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &l); err != nil {
		return err
	}
	l.Cur = n
	return unix.Setrlimit(unix.RLIMIT_NOFILE, &l)
}
