package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
)

// helpFlags reads testdata/help.json: each command and the flags its help
// must list.
func helpFlags(t *testing.T) map[string][]string {
	t.Helper()
	raw, err := os.ReadFile(cli("help.json"))
	if err != nil {
		t.Fatal(err)
	}
	var flags map[string][]string
	if err := json.Unmarshal(raw, &flags); err != nil {
		t.Fatal(err)
	}
	return flags
}

// run runs a command line in this process.
func run(args ...string) (code int, stdout, stderr string) {
	var out, errs bytes.Buffer
	code = Run(args, strings.NewReader(""), &out, &errs)
	return code, out.String(), errs.String()
}

// TestHelp asks every command for help every way a person might: each
// prints its usage and every flag to stdout and exits 0. A flag it does
// not know prints the usage to stderr and exits 2.
func TestHelp(t *testing.T) {
	noApp(t)
	want := helpFlags(t)
	for _, c := range commands() {
		flags, ok := want[c.name]
		if !ok {
			t.Errorf("testdata/help.json lacks the command %q", c.name)
			continue
		}
		delete(want, c.name)
		prefix := []string{c.name}
		if c.name == appCommand {
			prefix = []string{"-v"} // the app's flags come first
		}
		for _, args := range [][]string{
			append(prefix, "-h"), append(prefix, "-help"), append(prefix, "--help"), {"help", c.name},
		} {
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				code, stdout, stderr := run(args...)
				if code != 0 || stderr != "" {
					t.Fatalf("exit %d, stderr %q", code, stderr)
				}
				if !strings.HasPrefix(stdout, "usage: "+c.usageLines()[0]+"\n") || !strings.Contains(stdout, c.summary) {
					t.Errorf("no usage and summary:\n%s", stdout)
				}
				for _, f := range flags {
					if !regexp.MustCompile(`\n  ` + f + `[ \t\n]`).MatchString(stdout) {
						t.Errorf("the help lacks %s:\n%s", f, stdout)
					}
				}
			})
		}
		t.Run(c.name+" misused", func(t *testing.T) {
			code, stdout, stderr := run(append(prefix, "-no-such-flag")...)
			if code != 2 || stdout != "" || !strings.Contains(stderr, "usage: "+c.usageLines()[0]) {
				t.Errorf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
			}
		})
	}
	for name := range want {
		t.Errorf("testdata/help.json names %q, which is no command", name)
	}
}

// TestUsage checks the whole usage: every way to ask prints it to stdout
// and exits 0, it names every command and every -answer mode, and an
// unknown command prints it to stderr with exit 2.
func TestUsage(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"-help"}, {"--help"}} {
		code, stdout, stderr := run(args...)
		if code != 0 || stderr != "" {
			t.Fatalf("%v: exit %d, stderr %q", args, code, stderr)
		}
		for _, c := range commands() {
			if !strings.Contains(stdout, c.usageLines()[0]) {
				t.Errorf("%v: the usage lacks %s", args, c.name)
			}
		}
		if !strings.Contains(stdout, "-answer defaults|decline|cancel|desk|FILE") {
			t.Errorf("%v: the usage lacks -answer's modes:\n%s", args, stdout)
		}
	}
	if code, stdout, stderr := run("frobnicate"); code != 2 || stdout != "" || !strings.Contains(stderr, "The commands: lint, validate,") || strings.Contains(stderr, "did you mean") {
		t.Errorf("unknown command: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	if code, _, stderr := run("help", "frobnicate"); code != 2 || !strings.Contains(stderr, "no command") {
		t.Errorf("help for an unknown command: exit %d, %s", code, stderr)
	}
	// A wrong flag of the bare command is the app's; its help names the rest.
	if code, stdout, stderr := run("-frobnicate"); code != 2 || stdout != "" || !strings.Contains(stderr, "Run `elicitdesk help` for the other commands") {
		t.Errorf("unknown flag: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
}

func TestVersionCommand(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"-version"}, {"version"}} {
		code, stdout, stderr := run(args...)
		if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "elicitdesk ") {
			t.Errorf("%v: exit %d\nstdout: %s\nstderr: %s", args, code, stdout, stderr)
		}
	}
}

func TestVersionText(t *testing.T) {
	vcs := []debug.BuildSetting{
		{Key: "vcs.revision", Value: "af32942c0ffee0123456789abcdef0123456789a"},
		{Key: "vcs.time", Value: "2026-11-23T16:00:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}
	tests := []struct {
		name    string
		release string
		info    *debug.BuildInfo
		want    string
	}{
		{"no build info", "", nil, "elicitdesk devel"},
		{"go run", "", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}}, "elicitdesk devel (go1.26.0)"},
		{"go install of a tag", "", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v0.2.0"}}, "elicitdesk 0.2.0 (go1.26.0)"},
		{"a checkout", "", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v0.0.0-20261123160000-af32942c0ffe+dirty"}, Settings: vcs},
			"elicitdesk 0.0.0-20261123160000-af32942c0ffe+dirty (commit af32942c0ffe, 2026-11-23T16:00:00Z, with local changes, go1.26.0)"},
		{"a package", "0.1.0", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}, Settings: vcs[:2]},
			"elicitdesk 0.1.0 (commit af32942c0ffe, 2026-11-23T16:00:00Z, go1.26.0)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := versionText(tt.release, tt.info); got != tt.want {
				t.Errorf("versionText = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestMisuseSaysWhy: a command line that does not make sense is refused
// with exit 2 and one line saying why before the command's help; a typed
// command close to one is named.
func TestMisuseSaysWhy(t *testing.T) {
	for _, tt := range []struct {
		args []string
		why  string
	}{
		{[]string{"calll"}, `elicitdesk: unknown command "calll"; did you mean call?`},
		{[]string{"hist"}, `elicitdesk: unknown command "hist"; did you mean history?`},
		{[]string{"hsitory"}, `elicitdesk: unknown command "hsitory"; did you mean history?`},
		{[]string{"gui"}, "elicitdesk: unknown command \"gui\"\nThe commands: lint, validate,"}, // not ui, which the app starts
		{[]string{"history", "extra"}, `elicitdesk history: takes no arguments, not "extra"`},
		{[]string{"history", "-limit", "-1"}, `elicitdesk history: -limit is a number of entries`},
		{[]string{"version", "extra"}, `elicitdesk version: takes no arguments, not "extra"`},
		{[]string{"-v", "extra"}, `elicitdesk: takes no arguments, not "extra"`},
		{[]string{"lint", "a.json", "b.json"}, `elicitdesk lint: takes one schema file (- reads standard input), not 2`},
		{[]string{"lint"}, `elicitdesk lint: takes one schema file (- reads standard input), not 0`},
		{[]string{"validate", "c.json"}, `elicitdesk validate: -schema SCHEMA.json is required`},
		{[]string{"validate", "-schema", "s.json"}, `elicitdesk validate: takes one content file (- reads standard input), not 0`},
		{[]string{"remote"}, `elicitdesk remote: takes one machine, [USER@]HOST, not 0`},
		{[]string{"call", "-server", "demo"}, `elicitdesk call: -tool NAME is required`},
		{[]string{"help", "a", "b"}, `elicitdesk help: takes one command at most, not 2`},
		{[]string{"hosts", "rout", "cursor"}, `elicitdesk hosts: "rout" is neither route nor unroute`},
		{[]string{"hosts", "route"}, `elicitdesk hosts route: name the host: claude-desktop, claude-code,`},
		{[]string{"hosts", "route", "cursor", "-json"}, `flag provided but not defined: -json`},
	} {
		code, stdout, stderr := run(tt.args...)
		if code != 2 || stdout != "" || !strings.HasPrefix(stderr, tt.why) {
			t.Errorf("%q: exit %d, stdout %q, stderr:\n%s\nwant it to start with %s", tt.args, code, stdout, stderr, tt.why)
		}
	}
	// hosts route's help is hosts', with route's own flags.
	code, stdout, _ := run("hosts", "route", "cursor", "-h")
	if code != 0 || !strings.HasPrefix(stdout, "usage: elicitdesk hosts [-json]") || !strings.Contains(stdout, "-project DIR") || !strings.Contains(stdout, "-profile NAME") {
		t.Errorf("hosts route -h: exit %d\n%s", code, stdout)
	}
}

// TestFlagsAfterArguments: the commands that take arguments take their
// flags after them too; after "--" everything is an argument.
func TestFlagsAfterArguments(t *testing.T) {
	schema := corpus("ok", "everything-trigger-elicitation-request.json")
	if code, stdout, stderr := run("lint", schema, "-json"); code != 0 || !strings.HasPrefix(stdout, "[") {
		t.Errorf("lint SCHEMA -json: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	if code, _, stderr := run("lint", "--", "-json"); code != 2 || !strings.Contains(stderr, "-json") {
		t.Errorf("lint -- -json reads a file named -json: exit %d\nstderr: %s", code, stderr)
	}
	if code, stdout, stderr := run("remote", "ada@build", "-name", "buildbox"); code != 0 || !strings.Contains(stdout, "buildbox") {
		t.Errorf("remote HOST -name NAME: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
}
