package hostsview

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicitdesk/elicitdesk/internal/hosts"
)

const exe = "/opt/elicitdesk"

// bin are the binaries the tests route with: exe, and one an earlier
// route recorded.
var bin = hosts.Binaries{Exe: exe, Recorded: []string{"/usr/bin/elicitdesk"}}

// sample is testdata/mcp.json, copied, as Cursor's config.
func sample(t *testing.T) hosts.Found {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "mcp.json"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	h := hosts.Host{ID: "cursor", Name: "Cursor", Config: path, Key: "mcpServers", Format: hosts.JSON}
	found := hosts.Find([]hosts.Host{h}, bin)
	if len(found) != 1 || found[0].Err != nil {
		t.Fatalf("found %+v", found)
	}
	return found[0]
}

func TestHostRows(t *testing.T) {
	rows := hostRows([]hosts.Found{sample(t)}, bin)
	if len(rows) != 1 {
		t.Fatalf("%d rows", len(rows))
	}
	r := rows[0]
	if r.Name != "Cursor" || r.Err != "" || r.Routable != 5 {
		t.Errorf("host row %+v: want Cursor, no error, 5 routable (github, files, old, notion, hidden…)", r)
	}
	for i, want := range []serverRow{
		{Name: "github", Transport: "stdio", Runs: "npx -y @modelcontextprotocol/server-github", Switch: switchOff},
		{Name: "files", Transport: "stdio", Runs: `npx.cmd -y @modelcontextprotocol/server-filesystem 'C:\Users\Zoë\Desktop'`, Switch: switchOff},
		{Name: "mine", Transport: "stdio", Runs: "uvx mcp-server-time", Switch: switchOn},
		{Name: "old", Transport: "stdio", Runs: "mcp-old", Switch: switchOn},
		{Name: "notion", Transport: "http", Runs: "https://mcp.notion.com/mcp", Switch: switchOff},
		{Name: "broken", Transport: "stdio", Broken: true},
		{Name: "hidden⟨U+202E⟩gnp.exe", Transport: "stdio", Runs: "'evil⟨U+200B⟩'", Switch: switchOff},
	} {
		got := r.Servers[i]
		if want.Broken {
			if !got.Broken || got.Note == "" || got.Switch != switchNone {
				t.Errorf("server %d = %+v, want a broken entry with its error and no switch", i, got)
			}
			continue
		}
		got.Key = ""
		if got != want {
			t.Errorf("server %d:\n got %+v\nwant %+v", i, got, want)
		}
	}
}

func TestHostRowsUnreadable(t *testing.T) {
	f := hosts.Found{Host: hosts.Host{Name: "Zed", Config: "/home/x/.config/zed/settings.json"}, Err: errors.New("settings.json:3:1: bad\u202e")}
	r := hostRows([]hosts.Found{f}, bin)[0]
	if r.Path != f.Host.Config || !strings.Contains(r.Err, "⟨U+202E⟩") || len(r.Servers) != 0 {
		t.Errorf("unreadable host = %+v", r)
	}
	if sum := Summarize(f, bin); sum.Routable || sum.Done || !strings.HasPrefix(sum.Line, "Its config cannot be read") {
		t.Errorf("Summarize = %+v", sum)
	}
}

func TestSummary(t *testing.T) {
	f := sample(t)
	if sum := Summarize(f, bin); sum != (Summary{"7 servers, 2 of 6 routed through Elicit Desk.", true, false}) {
		t.Errorf("Summarize = %+v", sum)
	}
	p, err := f.Config.Route()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	f = hosts.Find([]hosts.Host{f.Host}, bin)[0]
	// The broken entry cannot be routed.
	if sum := Summarize(f, bin); sum != (Summary{"7 servers: the 6 that can be are routed through Elicit Desk.", false, true}) {
		t.Errorf("Summarize after Route all = %+v", sum)
	}
}

func TestShorten(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"short", "short"},
		{strings.Repeat("a", runsWidth), strings.Repeat("a", runsWidth)},
		{strings.Repeat("word ", 40), strings.TrimSpace(strings.Repeat("word ", 18)) + "…"},
	} {
		if got := shorten(c.in, runsWidth); got != c.want {
			t.Errorf("shorten(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestProjectRows: Claude Code's servers of a project of its own show as a
// host of their own, named by the project's folder, the whole directory
// beside the config's path; its switches plan for its servers alone.
func TestProjectRows(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude.json")
	os.WriteFile(path, []byte(`{"projects": {"/home/ada/src/demo\u202e": {"mcpServers": {"a": {"command": "npx"}}}}, "mcpServers": {"a": {"command": "uvx"}}}`), 0o600)
	h := hosts.Host{ID: "claude-code", Name: "Claude Code", Config: path, Key: "mcpServers", Format: hosts.JSON, Projects: "projects"}
	found := hosts.Find([]hosts.Host{h}, bin)
	rows := hostRows(found, bin)
	if len(rows) != 2 || rows[0].Name != "Claude Code" || rows[1].Name != "Claude Code · demo⟨U+202E⟩" || !strings.HasSuffix(rows[1].Path, ", the servers of the project /home/ada/src/demo⟨U+202E⟩") {
		t.Fatalf("rows %+v", rows)
	}
	p, err := found[1].Config.Route(rows[1].Servers[0].Key)
	if err != nil || len(p.Changes) != 1 || p.Changes[0].From[0] != "npx" {
		t.Errorf("the project's switch plans %+v, %v", p, err)
	}
}

// TestProfileRows: each VS Code profile with servers (the sample User
// folder under internal/hosts/testdata) shows as a host of its own, named
// "VS Code — profile NAME" with the name shown safely, its own mcp.json as
// its path; its switches plan for that file alone.
func TestProfileRows(t *testing.T) {
	user := filepath.Join(t.TempDir(), "User")
	if err := os.CopyFS(user, os.DirFS(filepath.Join("..", "..", "internal", "hosts", "testdata", "vscode-user"))); err != nil {
		t.Fatal(err)
	}
	h := hosts.Host{ID: "vscode", Name: "VS Code", Config: filepath.Join(user, "mcp.json"), Key: "servers", Format: hosts.JSONC, Profiles: user}
	found := hosts.Find([]hosts.Host{h}, bin)
	rows := hostRows(found, bin)
	var got []string
	for _, r := range rows {
		got = append(got, r.Name+" | "+r.Path)
	}
	want := []string{
		"VS Code | " + filepath.Join(user, "mcp.json"),
		"VS Code — profile Data ⟨U+202E⟩Science | " + filepath.Join(user, "profiles", "-4a1f9e2b", "mcp.json"),
		"VS Code — profile Web | " + filepath.Join(user, "profiles", "5d0c1e7a", "mcp.json"),
		"VS Code — profile 7e8f9a0b | " + filepath.Join(user, "profiles", "7e8f9a0b", "mcp.json"),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	p, err := found[2].Config.Route(rows[2].Servers[0].Key)
	if err != nil || len(p.Changes) != 1 || p.Changes[0].Server != "playwright" || p.Config.Path != filepath.Join(user, "profiles", "5d0c1e7a", "mcp.json") {
		t.Errorf("the profile's switch plans %+v, %v", p, err)
	}
}

// TestReadOnlyRow: a host listed read-only shows the reason, no servers,
// and nothing for Route all; the Welcome window's line says so.
func TestReadOnlyRow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crushrc")
	os.WriteFile(path, []byte("mcp add a --command npx\n"), 0o600)
	h := hosts.Host{ID: "crush-rc", Name: "Crush (crushrc)", Config: path, Key: "mcp", ReadOnly: "it is a script"}
	f := hosts.Find([]hosts.Host{h}, bin)[0]
	r := hostRows([]hosts.Found{f}, bin)[0]
	if r.ReadOnly != "it is a script" || r.Err != "" || len(r.Servers) != 0 || r.Routable != 0 {
		t.Errorf("row %+v", r)
	}
	if s := Summarize(f, bin); s.Routable || s.Done || s.Line != "Listed only, never edited: it is a script." {
		t.Errorf("summary %+v", s)
	}
}
