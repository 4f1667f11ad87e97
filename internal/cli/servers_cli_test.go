//go:build unix

package cli

import (
	"context"
	"encoding/json"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/endpoint"
)

// twoServers is a servers.json with a usable, a disabled and a broken entry.
const twoServers = `{"mcpServers": {
  "demo": {"command": "elicitdesk", "args": ["demo-server"]},
  "github": {"url": "https://api.example.com/mcp"},
  "off": {"command": "off", "disabled": true},
  "broken": {"command": 7}
}}`

// writeConfig writes content as a servers.json in a new directory.
func writeConfig(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "servers.json")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// statusDesk stands in for the running app: it answers servers/status with
// list.
type statusDesk struct {
	person
	list  []endpoint.ServerStatus
	reads string // the servers.json it reads, when set: it refuses to tell of another
}

func (d statusDesk) Servers(_ context.Context, q endpoint.ServersQuery) ([]endpoint.ServerStatus, error) {
	if d.reads != "" && q.Config != d.reads {
		return nil, endpoint.OtherConfig(d.reads)
	}
	return d.list, nil
}

// serveApp serves the endpoint as the running app would, with desk, until
// the test ends.
func serveApp(t *testing.T, desk endpoint.Handler) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	path, err := endpoint.DefaultPath()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := endpoint.Listen(ctx, path, desk, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); srv.Close() })
}

// TestServersLive lists the servers with the app running (an endpoint in
// this process) and without: live states and their errors, with the error
// chain behind them under -v, or the configuration with a note that the
// app is not running.
func TestServersLive(t *testing.T) {
	noApp(t)
	config := writeConfig(t, twoServers)
	since := time.Now().Add(-time.Minute)
	tests := []struct {
		name    string
		running bool
		rows    map[string]string // server: its state
		lines   []string          // substrings of stdout
		absent  []string
	}{
		{"not running", false,
			map[string]string{"demo": "configured", "github": "configured", "off": "disabled", "broken": "invalid"},
			[]string{"Elicit Desk is not running: showing the configuration.", "broken is invalid:\n  servers.json:5:25: \"command\" must be a string\n  servers.json:5:3: "},
			[]string{"enabled", "ready"}},
		{"running", true,
			map[string]string{"demo": "ready", "github": "needs sign-in", "off": "disabled", "broken": "failed"},
			[]string{"ready since " + since.Format(timeLayout), "broken is failed: servers.json:5: bad ⟨U+202E⟩command",
				"github needs you to sign in: use Sign in in the app's Servers window."},
			[]string{"not running", "enabled", "github is", "the error chain"}},
		{"running, -v", true,
			map[string]string{"demo": "ready", "github": "needs sign-in", "off": "disabled", "broken": "failed"},
			[]string{"broken is failed: servers.json:5: bad ⟨U+202E⟩command\n  the error chain:\n  reading servers.json: line 5: bad ⟨U+202E⟩command\n"},
			[]string{"not running", "github is"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.running {
				desk := statusDesk{reads: config, list: []endpoint.ServerStatus{
					{Name: "broken", State: "failed", Error: "servers.json:5: bad \u202ecommand", Details: "reading servers.json: line 5: bad \u202ecommand", Since: since},
					{Name: "demo", State: "ready", Since: since},
					{Name: "github", State: "needs sign-in", Error: "signing in to https://x/mcp: sign-in needed", Since: since},
					{Name: "off", State: "disabled", Since: since},
				}}
				serveApp(t, desk)
			}
			args := []string{"servers", "-config", config}
			if strings.HasSuffix(tt.name, "-v") {
				args = append(args, "-v")
			}
			code, stdout, stderr := run(args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			saysOnly(t, stdout, tt.lines, tt.absent)
			code, stdout, stderr = run("servers", "-json", "-config", config)
			var rows []serverRow
			if err := json.Unmarshal([]byte(stdout), &rows); code != 0 || err != nil {
				t.Fatalf("exit %d, %v: %s %s", code, err, stdout, stderr)
			}
			got := map[string]string{}
			for _, r := range rows {
				got[r.Name] = r.State
				if tt.running != (r.Since != nil) {
					t.Errorf("%s: since %v while running is %v", r.Name, r.Since, tt.running)
				}
			}
			for name, state := range tt.rows {
				if got[name] != state {
					t.Errorf("%s is %q, want %q", name, got[name], state)
				}
			}
		})
	}
}

// saysOnly checks that stdout says each of want and none of absent.
func saysOnly(t *testing.T, stdout string, want, absent []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(stdout, w) {
			t.Errorf("stdout lacks %q:\n%s", w, stdout)
		}
	}
	for _, not := range absent {
		if strings.Contains(stdout, not) {
			t.Errorf("stdout says %q:\n%s", not, stdout)
		}
	}
}

// TestServersNotTheAppsFile: of a servers.json the running app does not
// read, the list is the file's, without the app's states for its own
// servers of the same names: one it says it reads another of, and one
// that does not exist (a running app's does: it writes its own at its
// first start), which an app of an earlier release would answer of.
func TestServersNotTheAppsFile(t *testing.T) {
	appReads := filepath.Join(t.TempDir(), "servers.json")
	missing := filepath.Join(t.TempDir(), "servers.json")
	for _, tt := range []struct {
		name   string
		reads  string // the app's file, which it says; "" for an app that does not say
		file   func(t *testing.T) string
		want   []string
		absent []string
	}{
		{"another file", appReads, func(t *testing.T) string { return writeConfig(t, twoServers) },
			[]string{"demo", "configured", "Elicit Desk runs with " + appReads + ", not this file: showing the configuration."},
			[]string{"ready", "pending"}},
		{"a missing file", "", func(*testing.T) string { return missing },
			[]string{"demo", "configured", missing + " does not exist yet"},
			[]string{"ready", "not running"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			noApp(t)
			serveApp(t, statusDesk{reads: tt.reads, list: []endpoint.ServerStatus{{Name: "demo", State: "ready", Since: time.Now()}}})
			code, stdout, stderr := run("servers", "-config", tt.file(t))
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			saysOnly(t, stdout, tt.want, tt.absent)
		})
	}
}

func TestServersNoneConfigured(t *testing.T) {
	noApp(t)
	code, stdout, stderr := run("servers", "-config", writeConfig(t, `{"mcpServers": {}}`))
	if code != 0 || !strings.HasPrefix(stdout, "No servers are configured in ") {
		t.Errorf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
}

// TestUnknownServer: every command taking -server refuses a name that is
// not configured, with exit 1 and the names there are.
func TestUnknownServer(t *testing.T) {
	noApp(t)
	config := writeConfig(t, twoServers)
	const want = "no server named “nosuch”; configured: demo, github, off, broken"
	for _, args := range [][]string{
		{"tools"},
		{"call", "-tool", "ask_confirm"},
		{"call", "-tool", "ask_confirm", "-answer", "desk"},
		{"bridge"},
		{"history"}, // noApp's data home holds none: nothing recorded
	} {
		t.Run(args[0], func(t *testing.T) {
			code, stdout, stderr := run(append(args, "-config", config, "-server", "nosuch")...)
			if code != 1 || stdout != "" || !strings.Contains(stderr, want) {
				t.Errorf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
			}
		})
	}
}

// TestReadOnlyCommandsCreateNothing runs each command that only reads in
// an empty home: afterwards the home holds exactly what it held.
func TestReadOnlyCommandsCreateNothing(t *testing.T) {
	exe := asElicitdesk(t)
	home, env := privateHome(t)
	env = append(env, "DISPLAY=", "WAYLAND_DISPLAY=", "XDG_STATE_HOME="+filepath.Join(home, "xdg_state_home"), cliEnv+"=1")
	before := tree(t, home)
	for _, tt := range []struct {
		args []string
		code int
	}{
		{[]string{"servers"}, 0}, {[]string{"servers", "-json"}, 0},
		{[]string{"tools", "-server", "demo"}, 0},
		{[]string{"call", "-server", "demo", "-tool", "ask_confirm", "-answer", "decline"}, 0},
		{[]string{"call", "-server", "demo", "-tool", "ask_confirm", "-answer", "desk"}, 1}, // no app runs
		{[]string{"history"}, 0}, {[]string{"history", "-json"}, 0}, {[]string{"history", "-server", "demo"}, 0},
		{[]string{"hosts"}, 0}, {[]string{"hosts", "-json"}, 0},
		{[]string{"version"}, 0}, {[]string{"help"}, 0},
	} {
		cmd := exec.Command(exe, tt.args...)
		cmd.Env = append(os.Environ(), env...)
		out, _ := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); code != tt.code {
			t.Errorf("%v: exit %d, want %d: %s", tt.args, code, tt.code, out)
		}
		if after := tree(t, home); after != before {
			t.Fatalf("%v changed the home:\nbefore:\n%s\nafter:\n%s\noutput: %s", tt.args, before, after, out)
		}
	}
}

// tree lists every file and directory under root.
func tree(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		b.WriteString(rel + "\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
