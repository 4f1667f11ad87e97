package servers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/servers/config"
	"github.com/elicitdesk/elicitdesk/servers/rpc"
)

// TestExplainRealErrors makes each failure happen for real (a closed port,
// a server answering 401, a command that is not there…), dials, and checks
// the sentence Explain makes of the error, from testdata.
func TestExplainRealErrors(t *testing.T) {
	raw, err := os.ReadFile("testdata/explain/summaries.json")
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]string
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	answering := func(code int) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(code)
			fmt.Fprint(w, "no")
		}))
		t.Cleanup(srv.Close)
		return srv.URL + "/mcp"
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	l.Close()
	tlsSrv := httptest.NewTLSServer(http.NotFoundHandler())
	tlsSrv.Config.ErrorLog = quietHTTPLog()
	t.Cleanup(tlsSrv.Close)
	plain := answering(200)
	silent := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-silent:
		}
	}))
	t.Cleanup(func() { close(silent); hang.Close() })
	missing := "elicitdesk-no-such-command"
	text := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(text, []byte("not a program\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	sh := func(script string) config.Server {
		return config.Server{Transport: config.TransportStdio, Command: "/bin/sh", Args: []string{"-c", script}}
	}
	cases := []struct {
		name    string
		cfg     config.Server
		timeout time.Duration
	}{
		{"http closed port", config.Server{Transport: config.TransportHTTP, URL: "http://" + closed + "/mcp"}, 0},
		{"sse closed port", config.Server{Transport: config.TransportSSE, URL: "http://" + closed + "/sse"}, 0},
		{"http 401", config.Server{Transport: config.TransportHTTP, URL: answering(401)}, 0},
		{"sse 401", config.Server{Transport: config.TransportSSE, URL: answering(401)}, 0},
		{"http 404", config.Server{Transport: config.TransportHTTP, URL: answering(404)}, 0},
		{"sse 403", config.Server{Transport: config.TransportSSE, URL: answering(403)}, 0},
		{"sse 404", config.Server{Transport: config.TransportSSE, URL: answering(404)}, 0},
		{"http 500", config.Server{Transport: config.TransportHTTP, URL: answering(500)}, 0},
		{"sse 503", config.Server{Transport: config.TransportSSE, URL: answering(503)}, 0},
		{"untrusted certificate", config.Server{Transport: config.TransportHTTP, URL: tlsSrv.URL + "/mcp"}, 0},
		{"https to plain http", config.Server{Transport: config.TransportHTTP, URL: strings.Replace(plain, "http:", "https:", 1)}, 0},
		{"unknown host", config.Server{Transport: config.TransportHTTP, URL: "http://nosuch.invalid/mcp"}, 0},
		{"no answer", config.Server{Transport: config.TransportHTTP, URL: hang.URL + "/mcp"}, 200 * time.Millisecond},
		{"missing command", config.Server{Transport: config.TransportStdio, Command: missing}, 0},
		{"not a program", config.Server{Transport: config.TransportStdio, Command: text}, 0},
		{"missing working directory", config.Server{Transport: config.TransportStdio, Command: "/bin/sh", Cwd: "/nonexistent/dir"}, 0},
		{"exits with code 3", sh("echo starting >&2; echo 'fatal: no API key in the environment' >&2; exit 3"), 0},
		{"exits at once", sh("exit 0"), 0},
		{"killed", sh("kill -9 $$"), 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.Name = "x"
			ctx := context.Background()
			if tc.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.timeout)
				defer cancel()
			}
			c, err := Dial(ctx, tc.cfg, NewRouter(DefaultLimits, quietLog()), quietLog())
			if err == nil {
				c.Close()
				t.Fatal("connected")
			}
			var se *StartError
			stderr := ""
			if errors.As(err, &se) {
				stderr = se.Stderr
			}
			got := Explain(err, stderr)
			exp := strings.NewReplacer("{addr}", closed, "{name}", missing, "{file}", text).Replace(want[tc.name])
			if got.Summary != exp {
				t.Errorf("summary\n got %q\nwant %q\nfrom %v", got.Summary, exp, err)
			}
			if got.Details != "" && string(got.Details) != err.Error() {
				t.Errorf("details %q, want the whole chain %q", got.Details, err)
			}
		})
	}
	if got := Explain(errors.New("the server speaks protocol 2025-06-18, not the pinned 2025-11-25"), "").Summary; got != want["unknown error"] {
		t.Errorf("an unknown error is said %q", got)
	}
}

// A server's last words pass through untrusted: no hidden characters.
func TestExplainStderrIsNeutralised(t *testing.T) {
	err := &StartError{Err: fmt.Errorf("initializing: %w", rpc.ErrClosed)}
	got := Explain(err, "ok\nbad \u202etxt.exe\n\n").Summary
	if strings.ContainsRune(got, '\u202e') || !strings.Contains(got, "U+202E") {
		t.Errorf("summary %q", got)
	}
}

// TestExplainWriteToClosedPipe: a server that exits before the first
// request is written leaves a write to a closed pipe, which "exits at once"
// above meets only when the exit wins the race.
func TestExplainWriteToClosedPipe(t *testing.T) {
	closed := &fs.PathError{Op: "write", Path: "|1", Err: os.ErrClosed}
	err := &StartError{Err: fmt.Errorf("initializing: sending initialize: %w", closed)}
	if got, want := Explain(err, "").Summary, "The server closed the connection during start-up."; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
}

func quietHTTPLog() *log.Logger { return log.New(io.Discard, "", 0) }

// Explain reads what servers wrote (an HTTP body, stderr): whatever it is,
// the summary shows no hidden character and never panics.
func FuzzExplain(f *testing.F) {
	f.Add("request failed with status 500: boom", "fatal\n")
	f.Add("unexpected status code: 999", "\u202e\n\x1b[2J")
	f.Add("status 401 status 404", "")
	f.Fuzz(func(t *testing.T, msg, stderr string) {
		got := Explain(&StartError{Err: errors.New(msg), Stderr: stderr}, stderr).Summary
		for _, r := range got {
			if r != '\n' && r != '\t' && untrusted.Hidden(r) {
				t.Fatalf("summary %q shows U+%04X", got, r)
			}
		}
	})
}

// A stdio server that exits during start-up leaves its stderr in the
// status, where the Servers window shows it.
func TestFailedStartKeepsStderr(t *testing.T) {
	statuses := make(chan Status, 8)
	m := NewManager(NewRouter(DefaultLimits, quietLog()), quietLog(), func(s Status) { statuses <- s })
	defer m.Close()
	m.backoff = Backoff{Min: time.Hour, Max: time.Hour}
	m.Apply(&config.File{Servers: []config.Server{{Name: "sh", Transport: config.TransportStdio, Command: "/bin/sh", Args: []string{"-c", "echo 'no token set' >&2; exit 2"}}}})
	var st Status
	for st = range statuses {
		if st.State == StateFailed {
			break
		}
	}
	if st.Stderr != "no token set\n" {
		t.Errorf("stderr %q", st.Stderr)
	}
	if got, want := Explain(st.Err, st.Stderr).Summary, "The server stopped during start-up: “no token set”."; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
}

// TestLastWords reads why a server gave up out of what runtimes and
// loggers really write to stderr.
func TestLastWords(t *testing.T) {
	raw, err := os.ReadFile("testdata/explain/last_words.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct{ Name, Stderr, Want string }
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			if got := LastWords(tc.Stderr); got != tc.Want {
				t.Errorf("LastWords = %q, want %q", got, tc.Want)
			}
		})
	}
}

// TestExplainGivesTheLastWordsAsTheReason: a server that exits at start
// is explained by what it said, the exit code kept for the details.
func TestExplainGivesTheLastWordsAsTheReason(t *testing.T) {
	exit := exec.Command("/bin/sh", "-c", "exit 1").Run()
	stderr := "Warning: Cannot access directory /home/me/projects, skipping\nError: None of the specified directories are accessible\n"
	err := &StartError{Err: fmt.Errorf("initializing: %w", rpc.ErrClosed), Stderr: stderr, Exit: exit}
	x := Explain(err, stderr)
	if want := "The server stopped during start-up: “None of the specified directories are accessible”."; x.Summary != want {
		t.Errorf("summary %q, want %q", x.Summary, want)
	}
	if !strings.Contains(string(x.Details), "exit status 1") {
		t.Errorf("details %q lack the exit status", x.Details)
	}
	lost := Explain(fmt.Errorf("reading: %w", io.EOF), "ready\nout of memory\n")
	if want := "The server stopped: “out of memory”."; lost.Summary != want {
		t.Errorf("a server that went away later: %q, want %q", lost.Summary, want)
	}
}
