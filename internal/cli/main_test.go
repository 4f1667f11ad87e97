package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cliEnv makes the test binary, re-run as a child, act as the elicitdesk
// command: the tests get a real stdio demo server without building the app.
const cliEnv = "ELICITDESK_TEST_RUN_CLI"

// The tests that set the environment (t.Setenv) run first, one at a time.
// The end-to-end ones then run side by side (t.Parallel; make test allows
// four at once): each has a display, HOME and runtime directory of its
// own, and mostly waits on the app, its windows and the real peers.
func TestMain(m *testing.M) {
	if os.Getenv(hostileEnv) == "1" {
		os.Exit(serveHostile(os.Args[1:]))
	}
	if os.Getenv(askerEnv) == "1" {
		os.Exit(serveAsker())
	}
	if os.Getenv(deafEnv) == "1" {
		os.Exit(serveDeaf())
	}
	if os.Getenv(floodEnv) == "1" {
		os.Exit(serveFlood())
	}
	if code, ok := unixRole(); ok {
		os.Exit(code)
	}
	if brief := os.Getenv(strangerEnv); brief != "" {
		os.Exit(actAsStranger(brief, os.Stdout))
	}
	if os.Getenv(cliEnv) == "1" {
		os.Exit(Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// demoCommand is the command line of the demo server, for "--" targets.
func demoCommand(t *testing.T) []string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(cliEnv, "1")
	return []string{"--", exe, "demo-server"}
}

// corpus names a schema of the forms test corpus.
func corpus(folder, name string) string {
	return filepath.Join("..", "..", "forms", "testdata", "schemas", folder, name)
}

func cli(name string) string { return filepath.Join("testdata", name) }

// TestCLIContract pins the exit codes and output that scripts rely on.
func TestCLIContract(t *testing.T) {
	everything := corpus("ok", "everything-trigger-elicitation-request.json")
	tests := []struct {
		name     string
		args     []string
		stdin    string
		code     int
		stdout   string // a substring of standard output
		noStdout bool
	}{
		{"lint clean", []string{"lint", everything}, "", 0, "", true},
		{"lint warnings only", []string{"lint", corpus("warn", "unknown-format-phone.json")}, "", 0, "warning #/properties/", false},
		{"lint fatal", []string{"lint", corpus("fatal", "nested-object-property.json")}, "", 1, "fatal #/properties/addr/type", false},
		{"lint json output", []string{"lint", "-json", corpus("fatal", "nested-object-property.json")}, "", 1, `"severity": "fatal"`, false},
		{"lint not JSON", []string{"lint", corpus("notjson", "empty.json")}, "", 2, "", true},
		{"lint missing file", []string{"lint", "no-such-file.json"}, "", 2, "", true},
		{"lint no argument", []string{"lint"}, "", 2, "", true},
		{"lint from stdin", []string{"lint", "-json", "-"}, `{"type":"object","properties":{"addr":{"type":"object"}}}`, 1, `"severity": "fatal"`, false},
		{"validate valid", []string{"validate", "-schema", everything, cli("content-valid.json")}, "", 0, "{}", false},
		{"validate invalid", []string{"validate", "-schema", everything, cli("content-invalid.json")}, "", 1, `"integer": "At most 100"`, false},
		{"validate from stdin", []string{"validate", "-schema", everything, "-"}, `{"name":"x"}`, 0, "{}", false},
		{"validate fatal schema", []string{"validate", "-schema", corpus("fatal", "nested-object-property.json"), cli("content-valid.json")}, "", 2, "", true},
		{"validate schema with a number too close to zero", []string{"validate", "-schema", corpus("fatal", "tiny-multipleof.json"), "-"}, `{"x":1}`, 2, "", true},
		{"validate content not JSON", []string{"validate", "-schema", everything, cli("content-truncated.json")}, "", 2, "", true},
		{"validate content not an object", []string{"validate", "-schema", everything, "-"}, `[1]`, 2, "", true},
		{"call with no tool", []string{"call", "-server", "demo"}, "", 2, "", true},
		{"call answering from a file that is not there", []string{"call", "-tool", "x", "-answer", "no-such-file.json", "--", "true"}, "", 2, "", true},
		{"call with no target", []string{"call", "-tool", "x"}, "", 2, "", true},
		{"tools with two targets", []string{"tools", "-server", "demo", "-url", "http://127.0.0.1:9/mcp"}, "", 2, "", true},
		{"tools with a -url that is no URL", []string{"tools", "-url", "notaurl"}, "", 2, "", true},
		{"login with no target", []string{"login"}, "", 2, "", true},
		{"history from a -db that is not there", []string{"history", "-db", "no-such-history.db"}, "", 2, "", true},
		{"unknown command", []string{"frobnicate"}, "", 2, "", true},
		{"help", []string{"help"}, "", 0, "elicitdesk lint", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Run(tt.args, strings.NewReader(tt.stdin), &stdout, &stderr)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout.String(), stderr.String())
			}
			if tt.noStdout && stdout.Len() > 0 {
				t.Errorf("unexpected output: %s", stdout.String())
			}
			if !strings.Contains(stdout.String(), tt.stdout) {
				t.Errorf("stdout %q lacks %q", stdout.String(), tt.stdout)
			}
			if code != 0 && tt.noStdout && stderr.Len() == 0 {
				t.Error("a failure without a word on stderr")
			}
		})
	}
}

// TestValidateOutputIsFieldMap checks the shape scripts parse.
func TestValidateOutputIsFieldMap(t *testing.T) {
	var stdout, stderr bytes.Buffer
	Run([]string{"validate", "-schema", corpus("ok", "everything-trigger-elicitation-request.json"), cli("content-invalid.json")}, nil, &stdout, &stderr)
	var got map[string]string
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{"name", "email", "integer", "unknown"} {
		if got[field] == "" {
			t.Errorf("no message for %s in %v", field, got)
		}
	}
}

func TestServersCommand(t *testing.T) {
	noApp(t)
	config := filepath.Join(t.TempDir(), "elicitdesk", "servers.json")
	var stdout, stderr bytes.Buffer
	if code := Run([]string{"servers", "-json", "-config", config}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var list []struct {
		Name, Transport, Target string
	}
	if err := json.Unmarshal(stdout.Bytes(), &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Name != "demo" || list[0].Transport != "stdio" || !strings.HasSuffix(list[0].Target, "demo-server") {
		t.Fatalf("a missing config should read as the demo server, got %+v", list)
	}
	if _, err := os.Stat(filepath.Dir(config)); !os.IsNotExist(err) {
		t.Errorf("listing the servers created %s", filepath.Dir(config))
	}
}

// TestCallDeskWithoutApp: -answer desk with no app running says how to
// go on, rather than only that none runs.
func TestCallDeskWithoutApp(t *testing.T) {
	noApp(t)
	code, _, stderr := run("call", "-server", "demo", "-tool", "ask_confirm", "-answer", "desk")
	if code != 1 || !strings.Contains(stderr, "no Elicit Desk app is running") || !strings.Contains(stderr, "start it (elicitdesk) for -answer desk, or answer here with -answer defaults|decline|cancel|FILE") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

// TestCallAnswersFromStandardInput: -answer - reads the field values from
// standard input, once, for every request of the call, or a list of
// answers, one for each request in turn.
func TestCallAnswersFromStandardInput(t *testing.T) {
	var stdout, stderr bytes.Buffer
	args := append([]string{"call", "-tool", "ask_every_field", "-answer", "-"}, demoCommand(t)...)
	if code := Run(args, strings.NewReader(`{"guests": 3, "size": "l"}`), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout.String(), stderr.String())
	}
	for _, want := range []string{`\"guests\":3`, `\"size\":\"l\"`} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %s:\n%s", want, stdout.String())
		}
	}
	stdout.Reset()
	stderr.Reset()
	if code := Run(args, strings.NewReader(`true`), &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "standard input holds true or false") {
		t.Errorf("true on standard input: exit %d, stderr %s", code, stderr.String())
	}
	stdout.Reset()
	stderr.Reset()
	twice := append([]string{"call", "-tool", "ask_twice", "-answer", "-"}, demoCommand(t)...)
	if code := Run(twice, strings.NewReader(`[{"name": "Ada"}, {"drink": "water"}]`), &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), `\"drink\":\"water\"`) {
		t.Errorf("a list on standard input: exit %d\nstdout: %s\nstderr: %s", code, stdout.String(), stderr.String())
	}
}

// TestCallAnswers calls the demo server's tools through the CLI with each
// kind of -answer and checks what the server received.
func TestCallAnswers(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr string
	}{
		{"decline", []string{"call", "-tool", "ask_confirm", "-answer", "decline"}, 0, []string{`\"action\":\"decline\"`}, ""},
		{"cancel", []string{"call", "-tool", "ask_confirm", "-answer", "cancel"}, 0, []string{`\"action\":\"cancel\"`}, ""},
		{"defaults", []string{"call", "-tool", "ask_every_field"}, 0, []string{`\"action\":\"accept\"`, `\"guests\":2`}, ""},
		{"file over defaults", []string{"call", "-tool", "ask_every_field", "-answer", write("a.json", `{"guests": 3, "size": "l"}`)}, 0, []string{`\"guests\":3`, `\"size\":\"l\"`}, ""},
		{"invalid file answer is not sent", []string{"call", "-tool", "ask_every_field", "-answer", write("b.json", `{"guests": 99}`)}, 1, []string{`\"action\":\"cancel\"`}, "could not answer 1 request, cancelled instead"},
		{"a file of no object", []string{"call", "-tool", "ask_confirm", "-answer", write("c.json", `"yes"`)}, 1, []string{`\"action\":\"cancel\"`}, "c.json holds a string: want a JSON object of field values, or a list of answers"},
		{"a list answers each request", []string{"call", "-tool", "ask_twice", "-answer", write("list.json", `[{"name": "Ada"}, {"drink": "coffee"}]`)}, 0, []string{`\"name\":\"Ada\"`, `\"drink\":\"coffee\"`}, ""},
		{"a list's modes", []string{"call", "-tool", "ask_twice", "-answer", write("modes.json", `[{"name": "Ada"}, "decline"]`)}, 0, []string{`\"name\":\"Ada\"`, `declined the second`}, ""},
		{"one object for two forms", []string{"call", "-tool", "ask_twice", "-answer", write("one.json", `{"name": "Ada"}`)}, 1, []string{`\"name\":\"Ada\"`, `cancelled the second`}, `one.json: "name" is not a field of this form (a list answers each request in turn: [{…}, {…}])`},
		{"a list too short", []string{"call", "-tool", "ask_twice", "-answer", write("short.json", `[{"name": "Ada"}]`)}, 1, []string{`cancelled the second`}, "short.json answers 1 request; this is request 2"},
		{"a list's unknown mode", []string{"call", "-tool", "ask_confirm", "-answer", write("accept.json", `["accept"]`)}, 1, []string{`\"action\":\"cancel\"`}, `accept.json, answer 1 is "accept": want an object of field values, "defaults", "decline" or "cancel"`},
		{"a list declines a link", []string{"call", "-tool", "open_link", "-answer", write("link.json", `["decline"]`)}, 0, []string{`\"action\":\"decline\"`}, ""},
		{"a file of no JSON accepts a link", []string{"call", "-tool", "open_link", "-answer", write("nojson.json", `nope`)}, 0, []string{`\"action\":\"accept\"`}, ""},
		{"a list's item of no object", []string{"call", "-tool", "ask_confirm", "-answer", write("num.json", `[1]`)}, 1, []string{`\"action\":\"cancel\"`}, `num.json, answer 1 holds a number: want an object of field values`},
		{"an empty file", []string{"call", "-tool", "ask_confirm", "-answer", write("d.json", ``)}, 1, []string{`\"action\":\"cancel\"`}, "d.json is empty"},
		{"a folder", []string{"call", "-tool", "ask_confirm", "-answer", dir}, 2, nil, "is a folder, not a file of field values"},
		{"arguments", []string{"call", "-tool", "ask_confirm", "-args", `{"message":"Really?"}`, "-answer", "decline"}, 0, []string{"decline"}, ""},
		{"unknown tool", []string{"call", "-tool", "no_such_tool"}, 1, nil, `the server has no tool "no_such_tool"; it has: ask_confirm, `},
		{"bad arguments", []string{"call", "-tool", "ask_confirm", "-args", "[1]"}, 2, nil, ""},
		{"tools", []string{"tools"}, 0, []string{`"name": "ask_every_field"`, `"name": "input_required"`}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Run(append(tt.args, demoCommand(t)...), nil, &stdout, &stderr)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout.String(), stderr.String())
			}
			for _, want := range tt.stdout {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("stdout lacks %s:\n%s\nstderr: %s", want, stdout.String(), stderr.String())
				}
			}
			if !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("stderr lacks %s:\n%s", tt.stderr, stderr.String())
			}
		})
	}
}
