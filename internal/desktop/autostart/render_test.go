package autostart

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRender compares every rendering of each entry with its golden file,
// on every OS.
func TestRender(t *testing.T) {
	var entries []namedEntry
	readJSON(t, "entries.json", &entries)
	renders := []struct {
		ext    string
		render func(Entry) string
	}{
		{".desktop", func(e Entry) string { return string(desktopFile(e)) }},
		{".plist", func(e Entry) string { return string(launchAgent(e)) }},
		{".cmd", func(e Entry) string { return commandLine(e.Exec) + "\n" }},
	}
	for _, tt := range entries {
		for _, r := range renders {
			t.Run(tt.Name+r.ext, func(t *testing.T) {
				want, err := os.ReadFile(filepath.Join("testdata", "golden", tt.Name+r.ext))
				if err != nil {
					t.Fatal(err)
				}
				if got := r.render(tt.Entry); got != string(want) {
					t.Errorf("got\n%s\nwant\n%s", got, want)
				}
			})
		}
	}
}

func TestExecValue(t *testing.T) {
	for _, tt := range readArgsCases(t, "exec.txt") {
		t.Run(tt.want, func(t *testing.T) {
			got := execValue(tt.args)
			if got != tt.want {
				t.Errorf("execValue(%q) = %s, want %s", tt.args, got, tt.want)
			}
			if back := parseExec(t, got); !slices.Equal(back, tt.args) {
				t.Errorf("%s reads back as %q", got, back)
			}
		})
	}
}

// parseExec reads an Exec value back as a desktop does: string escapes
// first, then %% field codes, then the quoting rule.
func parseExec(t *testing.T, value string) []string {
	t.Helper()
	var s strings.Builder
	for i := 0; i < len(value); i++ {
		c := value[i]
		if c == '\\' && i+1 < len(value) {
			i++
			c = map[byte]byte{'s': ' ', 'n': '\n', 't': '\t', 'r': '\r', '\\': '\\'}[value[i]]
			if c == 0 {
				t.Fatalf("unknown escape in %s", value)
			}
		}
		s.WriteByte(c)
	}
	line := strings.ReplaceAll(s.String(), "%%", "%")
	var args []string
	var arg strings.Builder
	inArg, quoted := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quoted && c == '\\' && i+1 < len(line) && strings.IndexByte("\"`$\\", line[i+1]) >= 0:
			i++
			arg.WriteByte(line[i])
		case quoted && c == '"':
			quoted = false
		case !quoted && c == '"':
			quoted, inArg = true, true
		case !quoted && c == ' ':
			if inArg {
				args = append(args, arg.String())
				arg.Reset()
				inArg = false
			}
		default:
			arg.WriteByte(c)
			inArg = true
		}
	}
	if quoted {
		t.Fatalf("unclosed quote in %s", value)
	}
	if inArg {
		args = append(args, arg.String())
	}
	return args
}

func TestCommandLine(t *testing.T) {
	for _, tt := range readArgsCases(t, "cmdline.txt") {
		t.Run(tt.want, func(t *testing.T) {
			if got := commandLine(tt.args); got != tt.want {
				t.Errorf("commandLine(%q) = %s, want %s", tt.args, got, tt.want)
			}
		})
	}
}

// TestEnabledState reads entries a desktop may have turned off without
// removing them.
func TestEnabledState(t *testing.T) {
	var cases []struct {
		Name, Kind, Text string
		Enabled          bool
	}
	readJSON(t, "enabled.json", &cases)
	read := map[string]func([]byte) bool{"desktop": desktopEnabled, "plist": launchAgentEnabled}
	for _, tt := range cases {
		t.Run(tt.Kind+" "+tt.Name, func(t *testing.T) {
			if got := read[tt.Kind]([]byte(tt.Text)); got != tt.Enabled {
				t.Errorf("enabled = %v, want %v", got, tt.Enabled)
			}
		})
	}
}
