package cmdline

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// joinCase is a line of testdata/windows_join.jsonl: args as JoinWindows
// renders them.
type joinCase struct {
	Args []string `json:"args"`
	Line string   `json:"line"`
}

// splitCase is a line of testdata/windows_split.jsonl: a line as typed,
// and the words Windows reads in it.
type splitCase struct {
	Line  string   `json:"line"`
	Words []string `json:"words"`
}

// readJSONL decodes each line of testdata/name into a T.
func readJSONL[T any](t *testing.T, name string) []T {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s: %v: %s", name, err, sc.Text())
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestJoinWindows(t *testing.T) {
	for _, tc := range readJSONL[joinCase](t, "windows_join.jsonl") {
		if got := JoinWindows(tc.Args); got != tc.Line {
			t.Errorf("JoinWindows(%q) = %s, want %s", tc.Args, got, tc.Line)
		}
		if got, err := SplitWindows(tc.Line); err != nil || !slices.Equal(got, tc.Args) {
			t.Errorf("SplitWindows(%s) = %q, %v; want %q", tc.Line, got, err, tc.Args)
		}
	}
}

func TestSplitWindows(t *testing.T) {
	for _, tc := range readJSONL[splitCase](t, "windows_split.jsonl") {
		if got, err := SplitWindows(tc.Line); err != nil || !slices.Equal(got, tc.Words) {
			t.Errorf("SplitWindows(%s) = %q, %v; want %q", tc.Line, got, err, tc.Words)
		}
	}
}

func TestJoinPOSIX(t *testing.T) {
	tests := []struct {
		name string
		argv []string
		want string
	}{
		{"plain", []string{"npx", "-y", "@scope/server@1.2", "--port=8080"}, "npx -y @scope/server@1.2 --port=8080"},
		{"spaces", []string{"/opt/My App/server", "a b"}, "'/opt/My App/server' 'a b'"},
		{"quote", []string{"echo", "it's"}, `echo 'it'\''s'`},
		{"empty arg", []string{"run", ""}, "run ''"},
		{"shell chars", []string{"sh", "-c", "echo $HOME; ls *"}, "sh -c 'echo $HOME; ls *'"},
		{"nothing", nil, ""},
	}
	for _, tt := range tests {
		if got := JoinPOSIX(tt.argv); got != tt.want {
			t.Errorf("%s: JoinPOSIX(%q) = %s, want %s", tt.name, tt.argv, got, tt.want)
		}
	}
}

func TestSplitPOSIX(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
		err  string
	}{
		{line: "", want: nil},
		{line: "   \t ", want: nil},
		{line: "npx -y some-mcp-server", want: []string{"npx", "-y", "some-mcp-server"}},
		{line: "  a   b  ", want: []string{"a", "b"}},
		{line: `'/opt/my server/bin' --name 'it'\''s'`, want: []string{"/opt/my server/bin", "--name", "it's"}},
		{line: `run "a \"quoted\" \\ word" "$HOME"`, want: []string{"run", `a "quoted" \ word`, "$HOME"}},
		{line: `"keep \n as is"`, want: []string{`keep \n as is`}},
		{line: `a\ b c`, want: []string{"a b", "c"}},
		{line: "a \\\nb", want: []string{"a", "b"}},
		{line: `x '' ""`, want: []string{"x", "", ""}},
		{line: `pre'mid'"post"`, want: []string{"premidpost"}},
		{line: "~/bin/server *.json", want: []string{"~/bin/server", "*.json"}},
		{line: "naïve 'ünï'", want: []string{"naïve", "ünï"}},
		{line: "a 'b", err: "a ' quote is not closed"},
		{line: `a "b`, err: `a " quote is not closed`},
		{line: `a b\`, err: `the line ends with a lone \`},
	} {
		got, err := SplitPOSIX(tc.line)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("SplitPOSIX(%q) error = %v, want %q", tc.line, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("SplitPOSIX(%q) = %q, %v; want %q", tc.line, got, err, tc.want)
		}
	}
}

// TestRoundTrip: what Join renders, Split reads back as the same words,
// in both quotings; the Servers window's Edit dialog starts from it.
func TestRoundTrip(t *testing.T) {
	for _, words := range [][]string{
		{"/usr/local/bin/elicitdesk", "demo-server"},
		{"/tmp/go-build 1/serversview.test", "-test.run=^$"},
		{"sh", "-c", `echo "it's $HOME" | tr a-z A-Z; exit 1`},
		{"x", "", "tab\there", "new\nline", `back\slash`, `\\`, `"`, `\"`, `a b\`},
		{`C:\Program Files\nodejs\npx.cmd`, "-y", `C:\Users\ada\My Documents\`},
	} {
		for _, q := range []struct {
			name  string
			join  func([]string) string
			split func(string) ([]string, error)
		}{{"POSIX", JoinPOSIX, SplitPOSIX}, {"Windows", JoinWindows, SplitWindows}, {"native", Join, Split}} {
			line := q.join(words)
			if got, err := q.split(line); err != nil || !slices.Equal(got, words) {
				t.Errorf("%s: %q reads back as %q, %v; want %q", q.name, line, got, err, words)
			}
		}
	}
}

// files is a fake file system for lookWindows: find resolves a path as
// exec.LookPath does on Windows, trying each extension of PATHEXT.
func files(paths ...string) func(string) (string, error) {
	return func(p string) (string, error) {
		for _, ext := range []string{"", ".com", ".exe", ".bat", ".cmd"} {
			if slices.Contains(paths, p+ext) {
				return p + ext, nil
			}
		}
		return "", os.ErrNotExist
	}
}

func TestLookWindows(t *testing.T) {
	find := files(`C:\nodejs\npx.cmd`, `C:\bin\tool.exe`, `C:\bin\both.exe`, `C:\nodejs\both.cmd`,
		`C:\work\local.exe`, `C:\work\tool.exe`, `C:\quoted dir\q.exe`)
	env := []string{"HOME=x", `PATH=C:\ignored`, `Path=C:\nodejs;;C:\bin\;"C:\quoted dir"`}
	for _, tc := range []struct{ name, want string }{
		{"npx", `C:\nodejs\npx.cmd`},   // PATHEXT
		{"both", `C:\nodejs\both.cmd`}, // the PATH in order
		{"tool", `C:\bin\tool.exe`},    // the PATH before the folder
		{"local", `C:\work\local.exe`}, // then the folder
		{"q", `C:\quoted dir\q.exe`},   // a quoted folder on the PATH
		{"missing", "missing"},         // left to exec
		{`.\local`, `.\local`},         // a path is the caller's
		{`C:\bin\tool`, `C:\bin\tool`}, // so is an absolute one
		{"sub/tool", "sub/tool"},       // and one with a slash
		{"", ""},
	} {
		if got := lookWindows(tc.name, `C:\work\`, env, find); got != tc.want {
			t.Errorf("lookWindows(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}
