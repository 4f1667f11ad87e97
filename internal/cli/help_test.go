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
	if code, stdout, stderr := run("frobnicate"); code != 2 || stdout != "" || !strings.Contains(stderr, "Usage:") {
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
