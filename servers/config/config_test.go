package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// settings drops what Load adds beyond the file's values, for comparing entries.
func settings(s Server) Server {
	s.Err, s.Warnings, s.raw = nil, nil, nil
	return s
}

// copyFile puts a testdata file into a fresh temp dir so tests never write to testdata.
func copyFile(t *testing.T, src string) string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "servers.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestConfigPath(t *testing.T) {
	home := t.TempDir()
	if got, want := Path(home), filepath.Join(home, "elicitdesk", "servers.json"); got != want {
		t.Errorf("Path = %q, want %q", got, want)
	}
}

func TestLoadConfigValid(t *testing.T) {
	tests := []struct {
		file string
		want []Server
	}{
		{"stdio.json", []Server{{
			Name:      "filesystem",
			Command:   "npx",
			Args:      []string{"-y", "@modelcontextprotocol/server-filesystem", "/home/me/My Documents"},
			Env:       map[string]string{"DEBUG": "1", "NODE_ENV": "production"},
			Cwd:       "/home/me",
			Transport: TransportStdio,
		}}},
		{"http.json", []Server{
			{
				Name:      "remote",
				URL:       "https://mcp.example.com/mcp?team=a&env=prod",
				Headers:   map[string]string{"Authorization": "Bearer secret"},
				Transport: TransportHTTP,
			},
			{Name: "local-http", URL: "http://localhost:8080/mcp", Transport: TransportHTTP},
			{Name: "blank-type", URL: "https://blank.example.com/mcp", Transport: TransportHTTP},
		}},
		{"sse.json", []Server{
			{Name: "legacy", URL: "https://legacy.example.com/sse", Transport: TransportSSE, ProtocolVersion: "2025-06-18"},
		}},
		{"mixed.json", []Server{
			{Name: "zeta", Command: "/usr/local/bin/zeta", Transport: TransportStdio, Disabled: true},
			{Name: "alpha", URL: "https://alpha.example.com/mcp", Transport: TransportHTTP, ProtocolVersion: "2026-07-28"},
			{Name: "mid", Command: "mid-server", Transport: TransportStdio},
			{Name: "beta", URL: "http://127.0.0.1:3001/sse", Transport: TransportSSE},
		}},
		{"bom.json", []Server{{Name: "bom", Command: "x", Transport: TransportStdio}}},
		{"empty.json", nil},
		{"other_keys.json", []Server{{Name: "tools", Command: "tools", Transport: TransportStdio}}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join("testdata", "valid", tt.file)
			c, err := Load(path)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if c.Path != path {
				t.Errorf("Path = %q, want %q", c.Path, path)
			}
			var got []Server
			for _, s := range c.Servers {
				if s.Err != nil {
					t.Errorf("server %q: unexpected Err %v", s.Name, s.Err)
				}
				got = append(got, settings(s))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("servers:\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestLoadConfigBroken(t *testing.T) {
	tests := []struct {
		file string
		want string
	}{
		{"trailing_comma.json", `trailing_comma.json:3:29: invalid character '}' looking for beginning of object key string`},
		{"truncated.json", `truncated.json:3:28: unexpected end of JSON input`},
		{"empty.json", `empty.json:1:1: unexpected end of JSON input`},
		{"yaml.json", `yaml.json:1:1: invalid character 'm' looking for beginning of value`},
		{"trailing_brace.json", `trailing_brace.json:6:1: invalid character '}' after top-level value`},
		// Columns count characters: the é before the error is two bytes.
		{"missing_comma.json", `missing_comma.json:1:41: invalid character '"' after object key:value pair`},
		{"array.json", `array.json:1:1: the file must hold a JSON object`},
		{"servers_array.json", `servers_array.json:2:17: "mcpServers" must be an object`},
		{"servers_twice.json", `servers_twice.json:3:3: duplicate key "mcpServers"`},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			c, err := Load(filepath.Join("testdata", "broken", tt.file))
			if err == nil {
				t.Fatalf("Load succeeded with %d servers, want error %q", len(c.Servers), tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("error:\n got %s\nwant %s", err, tt.want)
			}
		})
	}
}

func TestLoadConfigMissing(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "servers.json"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error = %v, want fs.ErrNotExist", err)
	}
}

func TestLoadConfigBadEntries(t *testing.T) {
	tests := []struct {
		name string
		err  string // empty when the entry loads normally
	}{
		{"good-first", ""},
		{"both", `bad.json:4:5: server "both" has both "command" and "url"; use "command" for a local server or "url" for a remote one`},
		{"neither", `bad.json:5:5: server "neither" has neither "command" nor "url"`},
		{"ftp-type", `bad.json:6:60: "type" must be "stdio", "http" or "sse", not "ftp"`},
		{"stdio-type-url", `bad.json:7:32: "type" "stdio" needs "command", not "url"`},
		{"sse-type-command", `bad.json:8:34: "type" "sse" needs "url", not "command"`},
		{"args-string", `bad.json:9:45: "args" must be an array of strings`},
		{"args-number", `bad.json:10:51: "args" item 1 must be a string`},
		{"env-number", `bad.json:11:59: "env" value of "B" must be a string`},
		{"bad-version", `bad.json:12:56: "protocolVersion" must be one of 2025-06-18, 2025-11-25, 2026-07-28, or empty to negotiate; not "2024-11-05"`},
		{"ftp-url", `bad.json:13:24: "url" must be an http:// or https:// URL, not "ftp://example.com/mcp"`},
		{"relative-url", `bad.json:14:29: "url" must be an http:// or https:// URL, not "/mcp"`},
		{"empty-command", `bad.json:15:34: "command" is empty`},
		{"disabled-string", `bad.json:16:53: "disabled" must be true or false`},
		{"not-object", `bad.json:17:19: server "not-object" must be an object`},
		{"dup-key", `bad.json:18:33: duplicate key "command"`},
		{"", `bad.json:19:5: server name is empty`},
		{"good-last", ""},
		{"good-first", `bad.json:21:5: duplicate server name "good-first"`},
	}
	c, err := Load(filepath.Join("testdata", "entries", "bad.json"))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if len(c.Servers) != len(tests) {
		t.Fatalf("got %d servers, want %d", len(c.Servers), len(tests))
	}
	for i, tt := range tests {
		s := c.Servers[i]
		if s.Name != tt.name {
			t.Errorf("server %d: name %q, want %q", i, s.Name, tt.name)
		}
		var got string
		if s.Err != nil {
			got = s.Err.Error()
		}
		if got != tt.err {
			t.Errorf("server %d (%q): Err\n got %s\nwant %s", i, tt.name, got, tt.err)
		}
	}
	good := map[int]Server{
		0:  {Name: "good-first", Command: "echo", Args: []string{"hi"}, Transport: TransportStdio},
		17: {Name: "good-last", URL: "http://localhost:8080/mcp", Transport: TransportHTTP},
	}
	for i, want := range good {
		if got := settings(c.Servers[i]); !reflect.DeepEqual(got, want) {
			t.Errorf("server %d = %+v, want %+v", i, got, want)
		}
	}
}

func TestLoadConfigWarnings(t *testing.T) {
	c, err := Load(filepath.Join("testdata", "entries", "warnings.json"))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	want := map[string][]string{
		"cline": {
			`warnings.json:5:7: unknown key "autoApprove" ignored`,
			`warnings.json:6:7: "headers" is ignored for stdio servers`,
		},
		"remote": {
			`warnings.json:8:88: unknown key "note" ignored`,
			`warnings.json:8:50: "args" is ignored for remote servers`,
			`warnings.json:8:65: "env" is ignored for remote servers`,
			`warnings.json:8:76: "cwd" is ignored for remote servers`,
		},
	}
	for _, s := range c.Servers {
		if s.Err != nil {
			t.Errorf("server %q: warnings must not make Err: %v", s.Name, s.Err)
		}
		if !reflect.DeepEqual(s.Warnings, want[s.Name]) {
			t.Errorf("server %q warnings:\n got %q\nwant %q", s.Name, s.Warnings, want[s.Name])
		}
	}
}

func TestEnsureConfig(t *testing.T) {
	path := Path(t.TempDir())
	demo := Server{Name: "demo", Command: "/opt/elicit desk/elicitdesk", Args: []string{"demo-server"}}
	c, err := Ensure(path, demo)
	if err != nil {
		t.Fatalf("Ensure: %v", err)
	}
	wantFile := `{
  "mcpServers": {
    "demo": {
      "command": "/opt/elicit desk/elicitdesk",
      "args": [
        "demo-server"
      ]
    }
  }
}
`
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != wantFile {
		t.Errorf("created file:\n%s\nwant:\n%s", data, wantFile)
	}
	demo.Transport = TransportStdio
	if len(c.Servers) != 1 || !reflect.DeepEqual(settings(c.Servers[0]), demo) || c.Servers[0].Err != nil {
		t.Errorf("servers = %+v, want only %+v", c.Servers, demo)
	}
	if runtime.GOOS != "windows" {
		for p, want := range map[string]fs.FileMode{path: 0o600, filepath.Dir(path): 0o700 | fs.ModeDir} {
			if fi, err := os.Stat(p); err != nil || fi.Mode() != want {
				t.Errorf("mode of %s = %v (%v), want %v", p, fi.Mode(), err, want)
			}
		}
	}

	// An existing file is loaded, never replaced.
	if _, err := Ensure(path, Server{Name: "other", Command: "other"}); err != nil {
		t.Fatalf("second Ensure: %v", err)
	}
	if again, _ := os.ReadFile(path); string(again) != wantFile {
		t.Errorf("second Ensure changed the file to:\n%s", again)
	}
}

func TestSaveUnchanged(t *testing.T) {
	in := filepath.Join("testdata", "save", "in.json")
	path := copyFile(t, in)
	c, err := Load(path)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if err := c.Save(); err != nil {
		t.Fatalf("Save: %v", err)
	}
	want, _ := os.ReadFile(in)
	if got, _ := os.ReadFile(path); string(got) != string(want) {
		t.Errorf("Save without edits changed the file:\n%s\nwant:\n%s", got, want)
	}
}

func TestSaveEdits(t *testing.T) {
	path := copyFile(t, filepath.Join("testdata", "save", "in.json"))
	c, err := Load(path)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	edit := func(name string, f func(*Server)) {
		for i := range c.Servers {
			if c.Servers[i].Name == name {
				f(&c.Servers[i])
				return
			}
		}
		t.Fatalf("no server %q", name)
	}
	edit("zeta", func(s *Server) { s.Args, s.Disabled = []string{"--fast"}, true })
	edit("alpha", func(s *Server) {
		s.Transport, s.Headers = TransportSSE, map[string]string{"Authorization": "Bearer t"}
	})
	edit("cleared", func(s *Server) { s.Cwd, s.Disabled = "", false })
	c.Servers = append(c.Servers[:3], c.Servers[4:]...) // remove "gone"
	c.Servers = append(c.Servers, Server{Name: "new", URL: "https://new.example.com/mcp?x=1&y=<2>", ProtocolVersion: "2025-11-25"})
	if err := c.Save(); err != nil {
		t.Fatalf("Save: %v", err)
	}

	want, _ := os.ReadFile(filepath.Join("testdata", "save", "edited.json"))
	if got, _ := os.ReadFile(path); string(got) != string(want) {
		t.Errorf("saved file:\n%s\nwant:\n%s", got, want)
	}
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil || len(entries) != 1 {
		t.Errorf("directory holds %v (%v), want only servers.json", entries, err)
	}
	if fi, err := os.Stat(path); runtime.GOOS != "windows" && (err != nil || fi.Mode() != 0o600) {
		t.Errorf("mode = %v (%v), want 0600", fi.Mode(), err)
	}

	// What was saved loads back as edited.
	back, err := Load(path)
	if err != nil {
		t.Fatalf("Load after Save: %v", err)
	}
	if len(back.Servers) != len(c.Servers) {
		t.Fatalf("reloaded %d servers, want %d", len(back.Servers), len(c.Servers))
	}
	for i, s := range back.Servers {
		wantS := settings(c.Servers[i])
		if wantS.Transport == "" {
			wantS.Transport = TransportHTTP // the loader fills in the default
		}
		if got := settings(s); !reflect.DeepEqual(got, wantS) {
			t.Errorf("reloaded server %d = %+v, want %+v", i, got, wantS)
		}
	}
}

func TestServer(t *testing.T) {
	c, err := Load(filepath.Join("testdata", "entries", "bad.json"))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if s, ok := c.Server("good-first"); !ok || s.Command != "echo" {
		t.Errorf(`Server("good-first") = %+v, %v; want the first entry of that name`, s, ok)
	}
	if s, ok := c.Server("absent"); ok {
		t.Errorf(`Server("absent") = %+v, true; want false`, s)
	}
}

// TestLoadConfigDeepValue nests a value inside one entry: past maxDepth it
// spoils only that entry, with the position of the first bracket too deep,
// and Save names the entry rather than losing its value.
func TestLoadConfigDeepValue(t *testing.T) {
	tests := []struct {
		name  string
		depth int
		key   string // the deep value's key in entry "deep"
		ok    bool   // whether the entry loads and saves
	}{
		{"unknown key at the limit", maxDepth, "x", true},
		{"unknown key one past the limit", maxDepth + 1, "x", false},
		{"unknown key 100000 deep", 100_000, "x", false},
		{"known key 100000 deep", 100_000, "args", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prefix := `    "deep": {"command": "d", "` + tt.key + `": `
			data := "{\n  \"mcpServers\": {\n    \"before\": {\"command\": \"b\"},\n" +
				prefix + strings.Repeat("[", tt.depth) + strings.Repeat("]", tt.depth) + "},\n" +
				"    \"after\": {\"url\": \"https://example.com/mcp\"}\n  }\n}\n"
			path := filepath.Join(t.TempDir(), "servers.json")
			if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
				t.Fatal(err)
			}
			c, err := Load(path)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if len(c.Servers) != 3 || c.Servers[0].Err != nil || c.Servers[2].Err != nil {
				t.Fatalf("the other entries must load: %+v", c.Servers)
			}
			deep := c.Servers[1]
			if tt.ok {
				if deep.Err != nil {
					t.Fatalf("entry within the limit: Err %v", deep.Err)
				}
				if err := c.Save(); err != nil {
					t.Fatalf("Save: %v", err)
				}
				back, err := Load(path)
				if err != nil || len(back.Servers) != 3 || back.Servers[1].Err != nil ||
					bytes.Count(back.Servers[1].raw, []byte("[")) != tt.depth {
					t.Fatalf("the value did not survive Save: %v", err)
				}
				return
			}
			// The bracket one past the limit, on line 4.
			want := fmt.Sprintf(`servers.json:4:%d: %q nests deeper than %d levels`, len(prefix)+maxDepth+1, tt.key, maxDepth)
			if deep.Err == nil || deep.Err.Error() != want {
				t.Errorf("Err\n got %v\nwant %s", deep.Err, want)
			}
			c.Servers[0].Disabled = true
			if err := c.Save(); err == nil || !errors.Is(err, errTooDeep) || !strings.Contains(err.Error(), `server "deep"`) {
				t.Errorf("Save = %v, want an error naming server \"deep\"", err)
			}
			if got, _ := os.ReadFile(path); string(got) != data {
				t.Error("a failed Save changed the file")
			}
		})
	}
}

// TestLoadConfigDeepWholeFile covers deep values that do spoil the whole
// file: one outside any entry, and a syntax error behind one, which must be
// reported where it is rather than as the depth encoding/json gives up at.
func TestLoadConfigDeepWholeFile(t *testing.T) {
	deep := strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000)
	tests := []struct {
		name, data, want string
	}{
		{"top-level key", `{"other": ` + deep + `, "mcpServers": {}}`,
			fmt.Sprintf(`servers.json:1:%d: "other" nests deeper than %d levels`, len(`{"other": `)+maxDepth+1, maxDepth)},
		{"missing comma after a deep value", `{"mcpServers": {"a": {"x": ` + deep + ` "command": "c"}}}`,
			fmt.Sprintf(`servers.json:1:%d: invalid character '"' after object key:value pair`, len(`{"mcpServers": {"a": {"x": `)+len(deep)+2)},
		{"text after a deep value", `{"mcpServers": {"a": {"x": ` + deep + `}}} x`,
			fmt.Sprintf(`servers.json:1:%d: invalid character 'x' after top-level value`, len(`{"mcpServers": {"a": {"x": `)+len(deep)+5)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := parse("servers.json", []byte(tt.data)); err == nil || err.Error() != tt.want {
				t.Errorf("error\n got %v\nwant %s", err, tt.want)
			}
		})
	}
}

// FuzzLoad checks the loader never panics and that whatever it
// accepts survives a Save unchanged in meaning.
func FuzzLoad(f *testing.F) {
	seeds, err := filepath.Glob(filepath.Join("testdata", "*", "*.json"))
	if err != nil || len(seeds) == 0 {
		f.Fatalf("no seeds: %v", err)
	}
	for _, p := range seeds {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := parse("fuzz.json", data)
		if err != nil {
			return
		}
		for _, s := range c.Servers {
			_ = s.Target()
		}
		out, err := c.marshal()
		if errors.Is(err, errTooDeep) {
			return // Load blamed the entry; Save refuses rather than lose its value
		}
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		back, err := parse("fuzz.json", out)
		if err != nil {
			t.Fatalf("saved file does not load: %v\n%s", err, out)
		}
		if len(back.Servers) != len(c.Servers) {
			t.Fatalf("saved file has %d servers, want %d\n%s", len(back.Servers), len(c.Servers), out)
		}
		for i, s := range back.Servers {
			if got, want := settings(s), settings(c.Servers[i]); !reflect.DeepEqual(got, want) {
				t.Errorf("server %d after save = %+v, want %+v\n%s", i, got, want, out)
			}
			if (s.Err == nil) != (c.Servers[i].Err == nil) {
				t.Errorf("server %d Err after save = %v, want %v\n%s", i, s.Err, c.Servers[i].Err, out)
			}
		}
	})
}

func TestSignsIn(t *testing.T) {
	tests := []struct {
		name string
		s    Server
		want bool
	}{
		{"stdio", Server{Transport: TransportStdio}, false},
		{"http", Server{Transport: TransportHTTP, URL: "https://a.example/mcp"}, true},
		{"sse", Server{Transport: TransportSSE, URL: "https://a.example/sse"}, true},
		{"other headers", Server{Transport: TransportHTTP, Headers: map[string]string{"X-Api-Key": "k"}}, true},
		{"own token", Server{Transport: TransportHTTP, Headers: map[string]string{"Authorization": "Bearer t"}}, false},
		{"own token in lower case", Server{Transport: TransportSSE, Headers: map[string]string{"authorization": "Bearer t"}}, false},
	}
	for _, tt := range tests {
		if got := tt.s.SignsIn(); got != tt.want {
			t.Errorf("%s: SignsIn() = %v, want %v", tt.name, got, tt.want)
		}
	}
}
