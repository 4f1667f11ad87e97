package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/adrg/xdg"

	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/servers"
)

// historyHome points HOME and the XDG directories at a temporary directory
// and returns the history path the app would use there.
func historyHome(t *testing.T) string {
	t.Helper()
	t.Cleanup(xdg.Reload) // last, once the environment is back
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	for _, v := range []string{"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"} {
		t.Setenv(v, filepath.Join(dir, v))
	}
	xdg.Reload()
	return history.DefaultPath(filepath.Join(dir, "XDG_DATA_HOME"))
}

// writeHistory records three requests at path, oldest first, and closes it,
// as the app leaves the file when it quits.
func writeHistory(t *testing.T, path string) {
	t.Helper()
	s, err := history.Open(path, nil, history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	at := time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)
	for i, e := range []history.Entry{
		{Server: servers.Identity{Name: "files", Machine: "devbox"}, Message: "Clear the cache?", Mode: servers.ModeForm,
			Schema: json.RawMessage(`{"type":"object","properties":{}}`), Outcome: history.Declined},
		{Server: servers.Identity{Name: "deployer"}, Message: "Deploy to production?\nIt is Friday.", Mode: servers.ModeForm,
			Schema: json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}}}`), Outcome: history.Accepted, Content: json.RawMessage(`{"ok":true}`)},
		{Server: servers.Identity{Name: "files"}, Message: "Delete the folder?", Mode: servers.ModeForm,
			Schema: json.RawMessage(`{"type":"object","properties":{}}`), Outcome: history.Declined},
		{Server: servers.Identity{Name: "auth"}, Message: "Sign in to continue", Mode: servers.ModeURL,
			URL: "https://auth.example.com/login", Outcome: history.Stale, Reason: "the server cancelled"},
		{Server: servers.Identity{Name: "files", Host: servers.HostInfo{Name: "claude-ai", Title: "Claude \u202eDesktop"}}, Message: "Pick a directory", Mode: servers.ModeForm,
			Schema: json.RawMessage(`{"type":"object","properties":{}}`), Outcome: history.NoWindow, Reason: "Elicit Desk is not running"},
	} {
		e.Received = at.Add(time.Duration(i) * time.Minute)
		if _, err := s.Add(context.Background(), e); err != nil {
			t.Fatal(err)
		}
	}
}

func TestHistoryCommand(t *testing.T) {
	path := historyHome(t)
	writeHistory(t, path)
	tests := []struct {
		name  string
		args  []string
		code  int
		lines []string // in order, each a substring of one output line
	}{
		{"table, newest first, first line only", nil, 0,
			[]string{"RECEIVED  ", "Claude ⟨U+202E⟩Desktop  form  no-window  Pick a directory", "auth  ", "files  ", "Deploy to production?", "files on devbox  "}},
		{"json lines", []string{"-json"}, 0, []string{`"message":"Pick`, `"message":"Sign in`, `"message":"Delete`, `"message":"Deploy`, `"message":"Clear`}},
		{"no window, with its host", []string{"-json", "-outcome", "no-window"}, 0, []string{`"host":{"name":"claude-ai","title":"Claude \u202eDesktop"}`}},
		{"search", []string{"-json", "-search", "folder"}, 0, []string{`"message":"Delete the folder?"`}},
		{"search with FTS syntax", []string{"-json", "-search", `"deploy" OR (`}, 0, nil},
		{"server", []string{"-json", "-server", "auth"}, 0, []string{`"outcome":"stale"`}},
		{"this machine's server", []string{"-json", "-server", "files"}, 0, []string{`"message":"Pick`, `"message":"Delete`}},
		{"another machine's", []string{"-json", "-server", "files", "-machine", "devbox"}, 0, []string{`"message":"Clear`}},
		{"another machine's, with words", []string{"-json", "-server", "files", "-machine", "devbox", "-search", "cache"}, 0, []string{`"message":"Clear`}},
		{"a machine without a server", []string{"-machine", "devbox"}, 2, nil},
		{"outcome", []string{"-json", "-outcome", "accepted"}, 0, []string{`"server":{"name":"deployer"`}},
		{"limit", []string{"-json", "-limit", "1"}, 0, []string{`"message":"Pick`}},
		{"nothing matches", []string{"-search", "nowhere"}, 0, []string{"No entries match."}},
		{"server only configured", []string{"-server", "demo"}, 0, []string{"No entries match."}},
		{"server nowhere", []string{"-server", "nosuch"}, 1, nil},
		{"unknown outcome", []string{"-outcome", "maybe"}, 2, nil},
		{"negative limit", []string{"-limit", "-1"}, 2, nil},
		{"stray argument", []string{"extra"}, 2, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Run(append([]string{"history", "-db", path}, tt.args...), nil, &stdout, &stderr)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout.String(), stderr.String())
			}
			var lines []string
			for l := range strings.Lines(stdout.String()) {
				lines = append(lines, l)
			}
			if len(lines) != len(tt.lines) {
				t.Fatalf("%d lines, want %d:\n%s", len(lines), len(tt.lines), stdout.String())
			}
			for i, want := range tt.lines {
				if !strings.Contains(lines[i], want) {
					t.Errorf("line %d %q lacks %q", i+1, lines[i], want)
				}
			}
			if code != 0 && stderr.Len() == 0 {
				t.Error("a failure without a word on stderr")
			}
		})
	}
}

// TestHistoryCommandBadFiles checks that a read never creates or changes a
// history: a -db that is not there and a damaged one are exit 2, and the
// damaged one stays as it was. (The default history, missing, says
// nothing was recorded: TestHistoryCommand.)
func TestHistoryCommandBadFiles(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "none", "history.db")
	damaged := filepath.Join(dir, "damaged.db")
	garbage := bytes.Repeat([]byte("not a database "), 300)
	if err := os.WriteFile(damaged, garbage, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		path   string
		code   int
		stdout string
	}{
		{"missing", missing, 2, ""},
		{"damaged", damaged, 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := Run([]string{"history", "-db", tt.path}, nil, &stdout, &stderr); code != tt.code {
				t.Fatalf("exit %d, want %d: %s", code, tt.code, stderr.String())
			}
			if stdout.String() != tt.stdout {
				t.Errorf("printed %q, want %q", stdout.String(), tt.stdout)
			}
		})
	}
	if _, err := os.Stat(filepath.Dir(missing)); !os.IsNotExist(err) {
		t.Error("reading a missing history created something")
	}
	if raw, _ := os.ReadFile(damaged); !bytes.Equal(raw, garbage) {
		t.Error("reading a damaged history changed it")
	}
	if aside, _ := filepath.Glob(damaged + "*"); len(aside) != 1 {
		t.Errorf("files beside the damaged one: %v", aside)
	}
}

// TestHistoryCommandDefaultPath runs the command as its own process, so the
// history is found under $XDG_DATA_HOME as the app writes it.
func TestHistoryCommandDefaultPath(t *testing.T) {
	path := historyHome(t)
	writeHistory(t, path)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "history", "-json", "-search", "sign")
	cmd.Env = append(os.Environ(), cliEnv+"=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var servers []string
	lines := bufio.NewScanner(bytes.NewReader(out))
	for lines.Scan() {
		var e struct{ Server struct{ Name string } }
		if err := json.Unmarshal(lines.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		servers = append(servers, e.Server.Name)
	}
	if !slices.Equal(servers, []string{"auth"}) {
		t.Errorf("found entries of %v, want [auth]", servers)
	}
}

// TestHistoryNothingRecorded: with no history at its default place, as
// before the app's first request, history says nothing was recorded, and
// creates nothing.
func TestHistoryNothingRecorded(t *testing.T) {
	t.Cleanup(xdg.Reload) // registered first, so it runs once the variable is back
	data := filepath.Join(t.TempDir(), "data")
	t.Setenv("XDG_DATA_HOME", data)
	xdg.Reload()
	var stdout, stderr bytes.Buffer
	if code := Run([]string{"history"}, nil, &stdout, &stderr); code != 0 || stdout.String() != noHistory+"\n" {
		t.Errorf("exit %d, printed %q (%s), want %q", code, stdout.String(), stderr.String(), noHistory)
	}
	if _, err := os.Stat(data); !os.IsNotExist(err) {
		t.Error("reading a missing history created something")
	}
}
