package serversview

import (
	"slices"
	"testing"

	"github.com/elicitdesk/elicitdesk/servers/config"
)

func TestSplitCommandLine(t *testing.T) {
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
		got, err := splitCommandLine(tc.line)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("splitCommandLine(%q) error = %v, want %q", tc.line, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("splitCommandLine(%q) = %q, %v; want %q", tc.line, got, err, tc.want)
		}
	}
}

// What config.Server.Identity renders must read back as the same
// words, since the Edit dialog starts from it.
func TestSplitCommandLineReadsIdentity(t *testing.T) {
	for _, words := range [][]string{
		{"/usr/local/bin/elicitdesk", "demo-server"},
		{"/tmp/go-build 1/serversview.test", "-test.run=^$"},
		{"sh", "-c", `echo "it's $HOME" | tr a-z A-Z; exit 1`},
		{"x", "", "tab\there", "new\nline", `back\slash`},
	} {
		line := config.Server{Command: words[0], Args: words[1:]}.Target()
		got, err := splitCommandLine(line)
		if err != nil || !slices.Equal(got, words) {
			t.Errorf("splitCommandLine(%q) = %q, %v; want %q", line, got, err, words)
		}
	}
}
