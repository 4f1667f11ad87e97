package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/adrg/xdg"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/link"
)

// forbidden reports a rune no command may print: a control character but
// \n and \t, a format character (bidi, zero-width, tag) or a line or
// paragraph separator.
func forbidden(r rune) bool {
	return r != '\n' && r != '\t' && unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp)
}

// TestHostileSurface runs every command against a hostile server, schema,
// servers.json and history, and checks that nothing it prints holds a
// forbidden rune, while JSON output still parses to the raw value.
func TestHostileSurface(t *testing.T) {
	h := mustLoadHostile(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(hostileEnv, "1") // the children this test starts serve the hostile server
	f := writeHostileFiles(t, h, exe)
	server := []string{"--", exe}

	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string                                    // a substring of standard error: the hostile path was taken
		stdout func(t *testing.T, h hostile, out []byte) // checks the JSON printed, if any
	}{
		{"call defaults", append([]string{"call", "-tool", hostileAsk}, server...), 0, "elicitation", callResult},
		{"call says the schema's warnings", append([]string{"call", "-tool", hostileAsk, "-answer", "decline"}, server...), 0, "warning #/properties/", callResult},
		{"call decline", append([]string{"call", "-tool", hostileAsk, "-answer", "decline"}, server...), 0, "elicitation", callResult},
		{"call FILE", append([]string{"call", "-tool", hostileAsk, "-answer", f.answer}, server...), 0, "answered", callResult},
		{"call hostile entry name", []string{"call", "-config", f.config, "-server", h.joined, "-tool", hostileAsk}, 0, "elicitation", callResult},
		{"call unknown hostile entry", []string{"call", "-config", f.config, "-server", h.joined + "?", "-tool", hostileAsk}, 1, "no server", nil},
		{"call error", append([]string{"call", "-tool", hostileFail}, server...), 1, "elicitdesk call:", nil},
		{"call -32042", []string{"call", "-config", f.config, "-server", h.joined, "-tool", hostileLink}, 1, "-32042", nil},
		{"call hostile tool result", append([]string{"call", "-tool", h.strings[0]}, server...), 1, "the tool failed", nil}, // its result is an error
		{"call says where the server's stderr is", append([]string{"call", "-tool", h.strings[0]}, server...), 1, "-v shows what the server wrote", nil},
		{"call -v prints the server's stderr", append([]string{"call", "-v", "-tool", h.strings[0]}, server...), 1, "what the server wrote to its standard error:", nil},
		{"tools -v prints the server's stderr", append([]string{"tools", "-v"}, server...), 0, "what the server wrote to its standard error:", toolList},
		{"tools", append([]string{"tools"}, server...), 0, "", toolList},
		{"tools of a server that dies", append([]string{"tools"}, append(server, hostileDie)...), 1, "elicitdesk tools:", nil},
		{"lint", []string{"lint", f.schema}, 0, "", nil},
		{"lint -json", []string{"lint", "-json", f.schema}, 0, "", lintProblems},
		{"lint -hosts", []string{"lint", "-hosts", f.schema}, 0, "", nil},
		{"validate", []string{"validate", "-schema", f.schema, f.content}, 1, "", fieldMessages},
		{"preview fatal schema", []string{"preview", f.fatal}, 1, "elicitdesk preview:", nil},
		{"servers", []string{"servers", "-config", f.config}, 0, "", nil},
		{"servers -json", []string{"servers", "-json", "-config", f.config}, 0, "", serverList},
		{"history", []string{"history", "-db", f.history}, 0, "", nil},
		{"history -json", []string{"history", "-json", "-db", f.history}, 0, "", historyLines},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Run(tt.args, nil, &stdout, &stderr)
			if code != tt.code {
				t.Errorf("exit %d, want %d", code, tt.code)
			}
			if !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("stderr lacks %q", tt.stderr)
			}
			noForbidden(t, stdout.String(), stderr.String())
			if tt.stdout != nil && !t.Failed() {
				tt.stdout(t, h, stdout.Bytes())
			}
			if t.Failed() {
				t.Logf("stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
			}
		})
	}
	// preview is not run: it opens a window, so it cannot run headless;
	// its answer is printed as call's is.
}

// noForbidden checks that what a command printed holds no forbidden rune.
func noForbidden(t *testing.T, stdout, stderr string) {
	t.Helper()
	for name, out := range map[string]string{"stdout": stdout, "stderr": stderr} {
		if i := strings.IndexFunc(out, forbidden); i >= 0 {
			t.Errorf("%s holds %U at %d: %+q", name, []rune(out[i:])[0], i, out[max(0, i-40):min(len(out), i+40)])
		}
	}
}

// TestHostileTraffic runs `elicitdesk traffic` against a running app whose
// server named its methods, ids and tools with hostile strings: nothing
// printed holds a forbidden rune, and the JSON still parses to the words.
func TestHostileTraffic(t *testing.T) {
	h := mustLoadHostile(t)
	serveHostileTraffic(t, h)
	harFile := filepath.Join(t.TempDir(), "traffic.har")
	tests := []struct {
		args  []string
		check func(out []byte)
	}{
		{[]string{"traffic"}, func(out []byte) {
			if n, want := bytes.Count(out, []byte("\n")), 2*len(h.strings); n != want {
				t.Errorf("%d lines for %d messages", n, want)
			}
			for line := range bytes.Lines(out) { // a table: the time, then the next column
				if !regexp.MustCompile(`^\d\d:\d\d:\d\d\.\d{3}  +\S`).Match(line) {
					t.Errorf("a line that is not a table's row: %q", line)
				}
			}
		}},
		{[]string{"traffic", "kind:request", h.strings[0]}, nil},
		{[]string{"traffic", "-json"}, func(out []byte) { trafficLines(t, h, out) }},
		{[]string{"traffic", "-captured"}, func(out []byte) {
			if n, want := bytes.Count(out, []byte("\n")), 2*len(h.strings); n != want {
				t.Errorf("%d lines for %d messages captured", n, want)
			}
		}},
		{[]string{"traffic", "-captured", "-json"}, func(out []byte) {
			trafficLines(t, h, out)
			for line := range bytes.Lines(bytes.TrimSpace(out)) {
				var l traffic.CaptureLine
				if decode(t, line, &l); !json.Valid(l.Body) || len(l.Body) == 0 {
					t.Errorf("a line without its body: %s", line)
				}
			}
		}},
		{[]string{"traffic", "-captured", "-har", "-"}, func(out []byte) {
			var har struct {
				Log struct{ Entries []json.RawMessage }
			}
			if decode(t, out, &har); len(har.Log.Entries) != 2*len(h.strings) {
				t.Errorf("%d HAR entries for %d messages", len(har.Log.Entries), 2*len(h.strings))
			}
		}},
		{[]string{"traffic", "-captured", "-har", harFile}, func(out []byte) {
			info, err := os.Stat(harFile)
			if err != nil || info.Mode().Perm() != 0o600 {
				t.Fatalf("the HAR file: %v, %v", info, err)
			}
			if os.Getenv(peersEnv) == "" {
				return // said by TestHAR's skip
			}
			cmd := exec.Command(filepath.Join(peers(t), ".bin", "node"), "../traffic/testdata/har-check.mjs")
			cmd.Stdin, _ = os.Open(harFile)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("har-validator: %v\n%.2000s", err, out)
			}
		}},
		{[]string{"traffic", "-stats"}, func(out []byte) {
			if !bytes.Contains(out, []byte("No answered requests match.")) {
				t.Errorf("latencies without answers: %s", out)
			}
		}},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		if code := Run(tt.args, nil, &stdout, &stderr); code != 0 {
			t.Errorf("%q: exit %d: %s", tt.args, code, stderr.String())
		}
		noForbidden(t, stdout.String(), stderr.String())
		if tt.check != nil {
			tt.check(stdout.Bytes())
		}
	}
}

// serveHostileTraffic serves, as a running app would, the traffic of a
// connection whose server names each of its methods, ids and tools with
// a hostile string.
func serveHostileTraffic(t *testing.T, h hostile) {
	noApp(t)
	rec := traffic.New(0)
	redact, _ := traffic.NewRedactor(nil)
	capture := traffic.NewCapture(t.Context(), traffic.DefaultCapturePath(xdg.StateHome), traffic.DefaultCaptureLimits, redact, slog.New(slog.DiscardHandler))
	rec.Capture(capture, traffic.Scope{All: true})
	defer capture.Flush(t.Context())
	conn := rec.Tap(h.joined, discard{})
	for _, s := range h.strings {
		for _, v := range []map[string]any{
			{"jsonrpc": "2.0", "id": s, "method": "tools/call", "params": map[string]any{"name": s}},
			{"jsonrpc": "2.0", "method": s},
		} {
			raw, _ := json.Marshal(v)
			m, err := link.Parse(raw)
			if err != nil {
				t.Fatal(err)
			}
			conn.Write(t.Context(), m)
		}
	}
	path, err := endpoint.DefaultPath()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := endpoint.Listen(t.Context(), path, trafficApp{rec: rec}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
}

// trafficApp is a running app that serves its traffic record.
type trafficApp struct {
	endpoint.Handler // nil: the commands tested ask only for traffic
	rec              *traffic.Record
}

func (a trafficApp) Traffic(context.Context, endpoint.TrafficQuery) ([]traffic.Entry, error) {
	list, _ := a.rec.After(0)
	return list, nil
}

// discard is a link that drops what is written to it.
type discard struct{}

func (discard) Read() (link.Message, error)               { return link.Message{}, io.EOF }
func (discard) Write(context.Context, link.Message) error { return nil }
func (discard) Close() error                              { return nil }

// trafficLines checks that every method and tool the hostile server
// named comes back whole, within traffic.FieldBytes, from the JSON Lines.
func trafficLines(t *testing.T, h hostile, out []byte) {
	var methods, tools []string
	for line := range bytes.Lines(bytes.TrimSpace(out)) {
		var e struct{ Method, Tool string }
		decode(t, line, &e)
		methods, tools = append(methods, e.Method), append(tools, e.Tool)
	}
	for _, s := range h.strings {
		want := string(untrusted.Text(s).Cut(traffic.FieldBytes))
		if !slices.Contains(methods, want) || !slices.Contains(tools, want) {
			t.Errorf("%s's method or tool %+q is not in the JSON", h.joined, want)
		}
	}
}

// hostileFiles are the files a hostile host or stranger wrote.
type hostileFiles struct {
	schema, fatal, content, answer, config, history string
}

// writeHostileFiles writes a hostile schema, a fatal one, invalid content
// and an answer for it, a servers.json whose entries are hostile (one runs
// the hostile server) and a history of hostile entries.
func writeHostileFiles(t *testing.T, h hostile, exe string) hostileFiles {
	dir := t.TempDir()
	write := func(name string, v any) string {
		t.Helper()
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, raw, 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	content, answer := map[string]any{}, map[string]any{"choice": "b"}
	// The entry that runs the hostile server pins a revision that still has -32042.
	entries := map[string]any{h.joined: map[string]any{"command": exe, "env": map[string]string{hostileEnv: "1"}, "protocolVersion": "2025-11-25"}}
	for _, s := range h.strings {
		content[s] = 1
		answer[s] = s
		entries[s] = map[string]any{"command": s, "args": []string{s}}
		entries[s+" url"] = map[string]any{"url": s}
	}
	f := hostileFiles{
		schema:  write("schema.json", h.schema()),
		fatal:   write("fatal.json", map[string]any{"type": "object", "properties": map[string]any{h.joined: map[string]any{"type": "object"}}}),
		content: write("content.json", content),
		answer:  write("answer.json", answer),
		config:  write("servers.json", map[string]any{"mcpServers": entries}),
		history: filepath.Join(dir, "history.db"),
	}
	writeHostileHistory(t, h, f.history)
	return f
}

// writeHostileHistory records a form and a URL request whose every field
// the server or host wrote is hostile.
func writeHostileHistory(t *testing.T, h hostile, path string) {
	s, err := history.Open(path, nil, history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	text := untrusted.Text(h.joined)
	who := servers.Identity{Name: h.joined, Target: h.joined, Reported: servers.ServerInfo{Name: text, Title: text, Version: text}}
	content, _ := json.Marshal(map[string]string{h.strings[0]: h.joined})
	for _, e := range []history.Entry{
		{Server: who, Message: text, Mode: servers.ModeForm, Schema: h.schema(), Outcome: history.Accepted, Content: content},
		{Server: who, Message: text, Mode: servers.ModeURL, URL: text, Outcome: history.Stale, Reason: h.joined},
	} {
		e.Received = time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)
		if _, err := s.Add(context.Background(), e); err != nil {
			t.Fatal(err)
		}
	}
}

// decode parses out as JSON into v.
func decode(t *testing.T, out []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(out, v); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
}

// callResult checks that the tool's hostile text came through unchanged.
func callResult(t *testing.T, h hostile, out []byte) {
	var res struct{ Content []struct{ Text string } }
	decode(t, out, &res)
	if len(res.Content) == 0 || !strings.HasPrefix(res.Content[0].Text, h.joined) {
		t.Errorf("the result lost the raw text: %+q", res.Content)
	}
}

// toolList checks that every hostile name and description decodes byte for byte.
func toolList(t *testing.T, h hostile, out []byte) {
	var tools []struct{ Name, Description string }
	decode(t, out, &tools)
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
		if tool.Name == hostileAsk && tool.Description != h.joined {
			t.Errorf("ask's description is %+q, want %+q", tool.Description, h.joined)
		}
	}
	for _, s := range h.strings {
		if !slices.Contains(names, s) {
			t.Errorf("no tool named %+q in %+q", s, names)
		}
	}
}

// lintProblems checks that the problems parse and name the hostile formats.
func lintProblems(t *testing.T, h hostile, out []byte) {
	var problems []struct{ Path, Message string }
	decode(t, out, &problems)
	if len(problems) < len(h.strings) {
		t.Errorf("%d problems, want one a hostile property at least", len(problems))
	}
}

// fieldMessages checks that each hostile field name decodes as it was.
func fieldMessages(t *testing.T, h hostile, out []byte) {
	var errs map[string]string
	decode(t, out, &errs)
	for _, s := range h.strings {
		if errs[s] == "" {
			t.Errorf("no message for the field %+q", s)
		}
	}
}

// serverList checks that each hostile entry name decodes as it was.
func serverList(t *testing.T, h hostile, out []byte) {
	var list []struct{ Name string }
	decode(t, out, &list)
	var names []string
	for _, s := range list {
		names = append(names, s.Name)
	}
	for _, s := range append([]string{h.joined}, h.strings...) {
		if !slices.Contains(names, s) {
			t.Errorf("no entry named %+q", s)
		}
	}
}

// historyLines checks that each line parses and keeps the raw message.
func historyLines(t *testing.T, h hostile, out []byte) {
	lines := bytes.Split(bytes.TrimSpace(out), []byte("\n"))
	if len(lines) != 2 {
		t.Fatalf("%d lines, want 2", len(lines))
	}
	for _, line := range lines {
		var e struct{ Message string }
		decode(t, line, &e)
		if e.Message != h.joined {
			t.Errorf("message %+q, want %+q", e.Message, h.joined)
		}
	}
}
