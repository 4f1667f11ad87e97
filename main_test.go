package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// corpus names a schema of the forms test corpus.
func corpus(folder, name string) string {
	return filepath.Join("forms", "testdata", "schemas", folder, name)
}

func cli(name string) string { return filepath.Join("testdata", "cli", name) }

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
		{"validate valid", []string{"validate", "-schema", everything, cli("content-valid.json")}, "", 0, "{}", false},
		{"validate invalid", []string{"validate", "-schema", everything, cli("content-invalid.json")}, "", 1, `"integer": "At most 100"`, false},
		{"validate from stdin", []string{"validate", "-schema", everything, "-"}, `{"name":"x"}`, 0, "{}", false},
		{"validate fatal schema", []string{"validate", "-schema", corpus("fatal", "nested-object-property.json"), cli("content-valid.json")}, "", 2, "", true},
		{"validate content not JSON", []string{"validate", "-schema", everything, cli("content-truncated.json")}, "", 2, "", true},
		{"validate content not an object", []string{"validate", "-schema", everything, "-"}, `[1]`, 2, "", true},
		{"unknown command", []string{"frobnicate"}, "", 2, "", true},
		{"help", []string{"help"}, "", 0, "elicitdesk lint", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tt.args, strings.NewReader(tt.stdin), &stdout, &stderr)
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
	run([]string{"validate", "-schema", corpus("ok", "everything-trigger-elicitation-request.json"), cli("content-invalid.json")}, nil, &stdout, &stderr)
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
	config := filepath.Join(t.TempDir(), "elicitdesk", "servers.json")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"servers", "-json", "-config", config}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var list []struct {
		Name, Transport, Target string
	}
	if err := json.Unmarshal(stdout.Bytes(), &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Name != "demo" || list[0].Transport != "stdio" || !strings.HasSuffix(list[0].Target, "demo-server") {
		t.Fatalf("a new config should hold the demo server, got %+v", list)
	}
}
