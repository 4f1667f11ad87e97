package cmdtext

import (
	"strings"
	"testing"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// chars measures a text as one unit a character, as a fixed-width font.
func chars(s string) float32 { return float32(utf8.RuneCountInString(s)) }

func TestLines(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		width float32
		want  []string
	}{
		{"fits", "npx -y server", 20, []string{"npx -y server"}},
		{"at a space", "npx -y @modelcontextprotocol/server-filesystem", 22,
			[]string{"npx -y", "@modelcontextprotocol/", "server-filesystem"}},
		{"after a slash", "/tmp/t3/ux/elicitdesk bridge -- npx", 12, []string{"/tmp/t3/ux/", "elicitdesk", "bridge --", "npx"}},
		{"a backslash", `C:\Program Files\node\node.exe`, 12, []string{`C:\Program`, `Files\node\`, "node.exe"}},
		{"a word wider than a line is cut", "run abcdefghijklmnop", 6, []string{"run", "abcdef", "ghijkl", "mnop"}},
		{"spaces kept inside a line", "a  b", 10, []string{"a  b"}},
		{"empty", "", 10, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Lines(tt.text, tt.width, chars)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("Lines(%q, %v) = %q, want %q", tt.text, tt.width, got, tt.want)
			}
			for _, l := range got {
				if chars(l) > tt.width {
					t.Errorf("%q is wider than %v", l, tt.width)
				}
			}
		})
	}
}

// TestLabelWraps lays the label out narrow, then wide: it wraps at the
// width it gets, and Text stays the whole line.
func TestLabelWraps(t *testing.T) {
	test.NewTempApp(t)
	const line = "/tmp/t3/ux/elicitdesk bridge -- npx -y @modelcontextprotocol/server-filesystem /home/me/projects"
	l := New(line)
	l.Resize(fyne.NewSize(300, l.MinSize().Height))
	shown := l.Label.Text
	if !strings.Contains(shown, "\n") || strings.Contains(shown, "filesy\nstem") {
		t.Errorf("wrapped at 300 as %q", shown)
	}
	for _, part := range strings.Split(shown, "\n") {
		if !strings.Contains(line, part) {
			t.Errorf("shows %q, not in the line", part)
		}
	}
	narrowHeight := l.MinSize().Height
	l.Resize(fyne.NewSize(2000, narrowHeight))
	if l.Label.Text != line || l.MinSize().Height >= narrowHeight {
		t.Errorf("at 2000 shows %q, %v high", l.Label.Text, l.MinSize().Height)
	}
	if l.Text() != line {
		t.Errorf("Text is %q", l.Text())
	}
}
