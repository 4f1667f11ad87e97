package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/adrg/xdg"

	"github.com/elicitdesk/elicitdesk/internal/hosts"
)

// hostsHome gives this process a private HOME with a Cursor config
// holding content, and returns the config's path.
func hostsHome(t *testing.T, content string) string {
	t.Helper()
	t.Cleanup(xdg.Reload) // last, once the environment is back
	home := t.TempDir()
	for _, k := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "APPDATA", "GEMINI_CLI_HOME", "COPILOT_HOME"} {
		t.Setenv(k, "")
	}
	t.Setenv("HOME", home)
	xdg.Reload() // where route records its binary
	path := filepath.Join(home, ".cursor", "mcp.json")
	os.MkdirAll(filepath.Dir(path), 0o700)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errs bytes.Buffer
	code = Run(args, nil, &out, &errs)
	return code, out.String(), errs.String()
}

// TestHostsCommands: the exit codes and messages scripts and people rely on.
func TestHostsCommands(t *testing.T) {
	const cursor = `{
  "mcpServers": {
    "files": {"command": "npx", "args": ["-y", "server-filesystem", "/tmp"]},
    "remote": {"url": "https://mcp.example.com/mcp"},
    "both": {"type": "http", "url": "https://mcp.example.com/other", "command": "npx"}
  }
}
`
	path := hostsHome(t, cursor)
	code, out, errs := runCLI("hosts", "-json")
	var list []struct {
		Host, Config string
		Servers      []struct {
			Name, Transport string
			Routed          bool
		}
	}
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil {
		t.Fatalf("hosts -json: exit %d, %v: %s%s", code, err, out, errs)
	}
	if len(list) != 1 || list[0].Host != "cursor" || list[0].Config != path || len(list[0].Servers) != 3 ||
		list[0].Servers[0].Transport != "stdio" || list[0].Servers[0].Routed || list[0].Servers[1].Transport != "http" {
		t.Fatalf("hosts -json: %+v", list)
	}

	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"hosts", "route", "nosuch"}, 1, `no host "nosuch"; the hosts are claude-desktop, claude-code`},
		{[]string{"hosts", "route", "zed"}, 1, "Zed has no config at"},
		{[]string{"hosts", "route", "cursor", "nosuch"}, 1, `Cursor's config has no server "nosuch"; nothing was changed`},
		{[]string{"hosts", "unroute", "cursor"}, 0, "files: not routed"},
		{[]string{"hosts", "route"}, 2, "usage: elicitdesk hosts"},
		{[]string{"hosts", "route", "cursor", "both"}, 1, `both: it has a url and "command" too`},
	} {
		code, out, errs := runCLI(tc.args...)
		if code != tc.code || !strings.Contains(out+errs, tc.want) {
			t.Errorf("%q: exit %d, %s%s; want %d and %q", tc.args, code, out, errs, tc.code, tc.want)
		}
	}
	if got, _ := os.ReadFile(path); string(got) != cursor {
		t.Fatal("a refused command changed the config")
	}

	code, out, _ = runCLI("hosts", "route", "cursor")
	for _, want := range []string{"Routed 2 servers of Cursor", "bridge -name=files -- npx -y server-filesystem /tmp", "bridge -name=remote -url https://mcp.example.com/mcp", `both: it has a url and "command" too`, "Restart Cursor"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("route: exit %d, %q lacks %q", code, out, want)
		}
	}
	exe, _ := hosts.Exe()
	if got, err := os.ReadFile(hosts.RecordPath(filepath.Join(filepath.Dir(filepath.Dir(path)), ".local", "state"))); string(got) != exe+"\n" {
		t.Errorf("route recorded %q, %v; want %s", got, err, exe)
	}
	if code, out, _ = runCLI("hosts", "route", "cursor"); code != 0 || !strings.Contains(out, "files: already routed") {
		t.Errorf("routing twice: exit %d: %s", code, out)
	}
	os.WriteFile(path, []byte("{\"mcpServers\": {\"files\": {\"command\": \"npx\",}}}"), 0o600)
	if code, _, errs = runCLI("hosts", "route", "cursor"); code != 1 || !strings.Contains(errs, "not valid JSON at line 1") {
		t.Errorf("malformed: exit %d: %s", code, errs)
	}
	if code, out, _ = runCLI("hosts"); code != 0 || !strings.Contains(out, "\n  cannot be read: not valid JSON at line 1") {
		t.Errorf("hosts with a malformed config (its path once, on the host's line): exit %d: %s", code, out)
	}
}

// TestRoutedEntryInTypeScriptHost routes a host config's entry for
// server-everything with the real binary, then runs the entry as the host
// would (command line and env from the rewritten file) with the
// TypeScript SDK's client: the server's tools, its elicitation among them,
// come through the bridge, and so does the entry's env. Unrouting gives
// the file back byte for byte. Each shape of entry: Cursor's command and
// args, and opencode's one command array with its environment.
func TestRoutedEntryInTypeScriptHost(t *testing.T) {
	node, entry := everything(t)
	bin := elicitdeskBin(t)
	type routedEntry struct {
		Command     any // a string, or opencode's array
		Args        []string
		Env         map[string]string
		Environment map[string]string
	}
	for _, tc := range []struct {
		host, path, key string // path under HOME, or XDG_CONFIG_HOME when it starts with "xdg:"
		entry           map[string]any
	}{
		{"cursor", ".cursor/mcp.json", "mcpServers", map[string]any{"command": node, "args": []string{entry, "stdio"}, "env": map[string]string{"ROUTED_ENV": "from the host config"}}},
		{"opencode", "xdg:opencode/opencode.json", "mcp", map[string]any{"type": "local", "command": []string{node, entry, "stdio"}, "environment": map[string]string{"ROUTED_ENV": "from the host config"}}},
	} {
		t.Run(tc.host, func(t *testing.T) {
			env := noAppEnv(t)
			dirs := map[string]string{} // the last value wins, as exec.Cmd reads Env
			for _, kv := range env {
				k, v, _ := strings.Cut(kv, "=")
				dirs[k] = v
			}
			path := filepath.Join(dirs["HOME"], tc.path)
			if rest, ok := strings.CutPrefix(tc.path, "xdg:"); ok {
				path = filepath.Join(dirs["XDG_CONFIG_HOME"], rest)
			}
			os.MkdirAll(filepath.Dir(path), 0o700)
			orig, _ := json.MarshalIndent(map[string]any{tc.key: map[string]any{"everything": tc.entry}}, "", "  ")
			os.WriteFile(path, orig, 0o600)

			hostsCmd := func(args ...string) string {
				cmd := exec.Command(bin, append([]string{"hosts"}, args...)...)
				cmd.Env = env
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("hosts %q: %v\n%s", args, err, out)
				}
				return string(out)
			}
			hostsCmd("route", tc.host)
			data, _ := os.ReadFile(path)
			var routed map[string]map[string]routedEntry
			if err := json.Unmarshal(data, &routed); err != nil {
				t.Fatal(err)
			}
			e := routed[tc.key]["everything"]
			var argv []string
			switch c := e.Command.(type) {
			case string:
				argv = append([]string{c}, e.Args...)
			case []any:
				for _, a := range c {
					s, _ := a.(string)
					argv = append(argv, s)
				}
			}
			if !slices.Equal(argv, []string{bin, "bridge", "-name=everything", "--", node, entry, "stdio"}) {
				t.Fatalf("routed entry runs %q", argv)
			}

			hostEnv := slices.Clone(env)
			for k, v := range e.Env {
				hostEnv = append(hostEnv, k+"="+v)
			}
			for k, v := range e.Environment {
				hostEnv = append(hostEnv, k+"="+v)
			}
			h := startHost(t, hostEnv, append([]string{"--call", "get-env", "--"}, argv...)...)
			var listed struct{ Tools []string }
			if err := json.Unmarshal([]byte(h.next(time.Minute)), &listed); err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(listed.Tools, "trigger-elicitation-request") {
				t.Errorf("trigger-elicitation-request is not among the tools through the bridge: %v", listed.Tools)
			}
			if got := h.next(time.Minute); !strings.Contains(got, "from the host config") {
				t.Errorf("the entry's env did not reach the server: %s", got)
			}
			if err := h.wait(); err != nil {
				t.Errorf("host: %v", err)
			}

			hostsCmd("unroute", tc.host)
			if got, _ := os.ReadFile(path); !bytes.Equal(got, orig) {
				t.Errorf("unroute did not give the config back:\n%s", got)
			}
		})
	}
}

// TestHostsProjects: Claude Code's servers of a project of its own are
// listed apart from the user's, `hosts route claude-code NAME` finds a
// server of a project, a name in two scopes needs -project, and unroute
// gives ~/.claude.json back.
func TestHostsProjects(t *testing.T) {
	cursor := hostsHome(t, `{"mcpServers": {}}`)
	const claude = `{
  "numStartups": 3,
  "projects": {
    "/home/ada/src/demo": {
      "allowedTools": [],
      "mcpServers": {
        "everything": {"type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"], "env": {}},
        "memory": {"type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"], "env": {}}
      }
    },
    "/home/ada/src/empty": {"mcpServers": {}}
  },
  "mcpServers": {
    "memory": {"type": "stdio", "command": "mcp-memory", "args": [], "env": {}}
  }
}
`
	path := filepath.Join(filepath.Dir(filepath.Dir(cursor)), ".claude.json")
	os.WriteFile(path, []byte(claude), 0o600)
	code, out, _ := runCLI("hosts")
	if code != 0 || !strings.Contains(out, "Claude Code (claude-code)  "+path+"\n") || !strings.Contains(out, "Claude Code, project /home/ada/src/demo (claude-code -project /home/ada/src/demo)  "+path) || strings.Contains(out, "empty") {
		t.Errorf("hosts: exit %d:\n%s", code, out)
	}
	if code, out, errs := runCLI("hosts", "route", "claude-code", "everything"); code != 0 || !strings.Contains(out, "everything (project /home/ada/src/demo): ") {
		t.Errorf("route a project's server: exit %d: %s%s", code, out, errs)
	}
	if code, _, errs := runCLI("hosts", "route", "claude-code", "memory"); code != 1 || !strings.Contains(errs, `"memory" in more than one scope (the user's; project /home/ada/src/demo); say which with -project DIR`) {
		t.Errorf("a name in two scopes: exit %d: %s", code, errs)
	}
	if code, out, errs := runCLI("hosts", "route", "claude-code", "memory", "-project", ""); code != 0 || !strings.Contains(out, "Routed 1 server of Claude Code") || strings.Contains(out, "project /") {
		t.Errorf("route the user's, the flag after the name: exit %d: %s%s", code, out, errs)
	}
	if code, _, errs := runCLI("hosts", "route", "claude-code", "-project", "/nowhere"); code != 1 || !strings.Contains(errs, "no servers of the project /nowhere") {
		t.Errorf("an unknown project: exit %d: %s", code, errs)
	}
	code, out, _ = runCLI("hosts", "-json")
	if code != 0 || !strings.Contains(out, `"host": "claude-code",
    "project": "/home/ada/src/demo",`) {
		t.Errorf("hosts -json: %s", out)
	}
	if code, out, errs := runCLI("hosts", "unroute", "claude-code"); code != 0 || !strings.Contains(out, "Unrouted 2 servers") {
		t.Errorf("unroute: exit %d: %s%s", code, out, errs)
	}
	if got, _ := os.ReadFile(path); string(got) != claude {
		t.Errorf("not given back:\n%s", got)
	}
}

// TestHostsProfiles: each VS Code profile with servers is listed as a
// group of its own (the sample User folder under internal/hosts/testdata),
// `hosts route vscode -profile NAME` takes the profile's name or its ID
// and edits its mcp.json alone, a server of a profile asked for without
// -profile is pointed at it, and unroute gives every file back.
func TestHostsProfiles(t *testing.T) {
	cursor := hostsHome(t, `{"mcpServers": {}}`)
	user := filepath.Join(filepath.Dir(filepath.Dir(cursor)), ".config", "Code", "User")
	if err := os.CopyFS(user, os.DirFS(filepath.Join("..", "hosts", "testdata", "vscode-user"))); err != nil {
		t.Fatal(err)
	}
	read := func(elem ...string) string {
		b, _ := os.ReadFile(filepath.Join(append([]string{user}, elem...)...))
		return string(b)
	}
	web, dflt := read("profiles", "5d0c1e7a", "mcp.json"), read("mcp.json")
	code, out, _ := runCLI("hosts")
	for _, want := range []string{
		"VS Code (vscode)  " + filepath.Join(user, "mcp.json") + "\n",
		"VS Code, profile Data ⟨U+202E⟩Science (vscode -profile 'Data ⟨U+202E⟩Science')  " + filepath.Join(user, "profiles", "-4a1f9e2b", "mcp.json") + "\n",
		"VS Code, profile Web (vscode -profile Web)  " + filepath.Join(user, "profiles", "5d0c1e7a", "mcp.json") + "\n",
		"VS Code, profile 7e8f9a0b (vscode -profile 7e8f9a0b)  ",
	} {
		if code != 0 || !strings.Contains(out, want) || strings.Contains(out, "Writing") {
			t.Errorf("hosts: exit %d, lacks %q:\n%s", code, want, out)
		}
	}
	code, out, _ = runCLI("hosts", "-json")
	if code != 0 || !strings.Contains(out, `"host": "vscode",
    "profile": "Web",
    "profileId": "5d0c1e7a",`) {
		t.Errorf("hosts -json: %s", out)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"hosts", "route", "vscode", "jupyter"}, 1, `VS Code, default profile has no server "jupyter" in ` + filepath.Join(user, "mcp.json") + "; the profile Data ⟨U+202E⟩Science has it: say -profile NAME for a profile's; nothing was changed"},
		{[]string{"hosts", "route", "vscode", "-profile", "Nope"}, 1, `VS Code has no profile "Nope"; its profiles are: Data ⟨U+202E⟩Science, Web, Writing, 7e8f9a0b`},
		{[]string{"hosts", "route", "vscode", "-profile", "Writing"}, 1, "VS Code, profile Writing has no config at " + filepath.Join(user, "profiles", "1b2c3d4e", "mcp.json")},
		{[]string{"hosts", "route", "cursor", "-profile", "Web"}, 2, "Cursor keeps no servers per profile; -profile is for VS Code"},
		{[]string{"hosts", "route", "vscode", "-profile", "Web", "playwright"}, 0, "Routed 1 server of VS Code, profile Web (" + filepath.Join(user, "profiles", "5d0c1e7a", "mcp.json") + "):\n  playwright: "},
		{[]string{"hosts", "route", "vscode", "-profile", "7e8f9a0b"}, 0, "Routed 1 server of VS Code, profile 7e8f9a0b"},
		{[]string{"hosts", "route", "vscode", "-profile", "", "memory"}, 0, "Routed 1 server of VS Code, default profile"},
		{[]string{"hosts", "unroute", "vscode", "-profile", "5d0c1e7a"}, 0, "Unrouted 1 server of VS Code, profile Web"},
		{[]string{"hosts", "unroute", "vscode", "-profile", "7e8f9a0b"}, 0, "Unrouted 1 server of VS Code, profile 7e8f9a0b"},
		{[]string{"hosts", "unroute", "vscode"}, 0, "Unrouted 1 server of VS Code, default profile"},
	} {
		code, out, errs := runCLI(tc.args...)
		if code != tc.code || !strings.Contains(out+errs, tc.want) {
			t.Errorf("%q: exit %d, %s%s; want %d and %q", tc.args, code, out, errs, tc.code, tc.want)
		}
	}
	if read("profiles", "5d0c1e7a", "mcp.json") != web || read("mcp.json") != dflt || read("profiles", "7e8f9a0b", "mcp.json") != "{\r\n  \"servers\": {\r\n    \"fetch\": {\"command\": \"uvx\", \"args\": [\"mcp-server-fetch\"]}\r\n  }\r\n}\r\n" {
		t.Error("not given back")
	}
	if _, err := os.Stat(filepath.Join(user, "profiles", "-4a1f9e2b", "mcp.json"+hosts.BackupSuffix)); err == nil {
		t.Error("a profile not asked for was written")
	}
}

// TestHostsLimit: routing Codex's servers says what their time limit on a
// call becomes, and unrouting what it goes back to, in the file as it was.
func TestHostsLimit(t *testing.T) {
	hostsHome(t, `{"mcpServers": {}}`)
	codex := filepath.Join(t.TempDir(), "codex")
	t.Setenv("CODEX_HOME", codex)
	os.MkdirAll(codex, 0o700)
	const config = "[mcp_servers.everything]\ncommand = \"npx\"\nargs = [\"-y\", \"@modelcontextprotocol/server-everything\"]\ntool_timeout_sec = 60\n"
	path := filepath.Join(codex, "config.toml")
	os.WriteFile(path, []byte(config), 0o600)
	if code, out, errs := runCLI("hosts", "route", "codex"); code != 0 || !strings.Contains(out, "everything: ") || !strings.Contains(out, "    and tool_timeout_sec = 1800 (was 60)") {
		t.Errorf("route: exit %d: %s%s", code, out, errs)
	}
	if code, out, errs := runCLI("hosts", "unroute", "codex"); code != 0 || !strings.Contains(out, "    and tool_timeout_sec = 60") {
		t.Errorf("unroute: exit %d: %s%s", code, out, errs)
	}
	if got, _ := os.ReadFile(path); string(got) != config {
		t.Errorf("not given back: %s", got)
	}
}
