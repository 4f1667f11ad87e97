package serversview

import (
	"maps"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/elicitdesk/elicitdesk/internal/testkit/demotest"
	"github.com/elicitdesk/elicitdesk/internal/testkit/uitest"
	"github.com/elicitdesk/elicitdesk/servers/config"
)

func TestLooksSecret(t *testing.T) {
	for _, tc := range []struct {
		name, value string
		want        bool
	}{
		{"Authorization", "Bearer abc", true},
		{"Proxy-Authorization", "x", true},
		{"X-Api-Key", "abc", true},
		{"OPENAI_API_KEY", "sk-abc", true},
		{"GITHUB_TOKEN", "ghp_abc", true},
		{"AWS_SECRET_ACCESS_KEY", "abc", true},
		{"DB_PASSWORD", "hunter2", true},
		{"X-Custom", " bearer abc", true},
		{"X-Custom", "Basic YWJj", true},
		{"X-Team", "blue", false},
		{"LOG_LEVEL", "debug", false},
		{"MONKEY", "banana", false},
		{"X-Bearer-Count", "3", true},
	} {
		if got := looksSecret(tc.name, tc.value); got != tc.want {
			t.Errorf("looksSecret(%q, %q) = %v", tc.name, tc.value, got)
		}
	}
}

func TestHideAndShowValues(t *testing.T) {
	hidden := map[string]string{}
	text := "X-Team: blue\nAuthorization: Bearer abc\n\nno separator\n"
	masked := hideValues(text, ':', hidden, looksSecret)
	if want := "X-Team: blue\nAuthorization: " + mask + "\n\nno separator\n"; masked != want {
		t.Fatalf("masked %q, want %q", masked, want)
	}
	if got := showValues(masked, ':', hidden, func(string) bool { return true }); got != text {
		t.Errorf("shown %q, want %q", got, text)
	}
	if got := secretLines(masked, ':', hidden); len(got) != 1 || got[0] != (secretLine{"Authorization", true}) {
		t.Errorf("secret lines %+v", got)
	}
	// A renamed line keeps its mask, not the value: the parser says so.
	renamed := strings.Replace(masked, "Authorization", "X-Auth", 1)
	if got := showValues(renamed, ':', hidden, func(string) bool { return true }); got != renamed {
		t.Errorf("a renamed masked line was filled: %q", got)
	}
}

// The Edit dialog masks a bearer token and an API key, shows each with its
// eye button, and saves the real values whether shown or not.
func TestEditorMasksCredentials(t *testing.T) {
	remote := config.Server{Name: "remote", URL: "http://127.0.0.1:9/mcp", Transport: config.TransportHTTP,
		Headers: map[string]string{"Authorization": "Bearer s3cr3t-t0ken", "X-Team": "blue"}}
	local := demotest.Server(t, "local")
	local.Env["OPENAI_API_KEY"] = "sk-pr1vate"
	h := newDemoHarness(t, remote, local)
	for _, tc := range []struct {
		server, secret string
		input          func(e *editor) *secretInput
		eye            string
	}{
		{"remote", "s3cr3t-t0ken", func(e *editor) *secretInput { return e.headers }, "Authorization"},
		{"local", "sk-pr1vate", func(e *editor) *secretInput { return e.env }, "OPENAI_API_KEY"},
	} {
		h.waitFor(tc.server+" listed", func() bool { return h.row(tc.server) != nil })
		h.selectServer(tc.server)
		test.Tap(h.w.detail.edit)
		e := h.w.editor
		in := tc.input(e)
		for _, s := range uitest.WindowTexts(h.w.win) {
			if strings.Contains(s.Text, tc.secret) {
				t.Errorf("%s: %s shows the secret: %q", tc.server, s.Widget, s.Text)
			}
		}
		if !strings.Contains(in.entry.Text, mask) {
			t.Errorf("%s: no mask in %q", tc.server, in.entry.Text)
		}
		test.Tap(button(t, in.eyes, "Show "+tc.eye))
		if !strings.Contains(in.entry.Text, tc.secret) {
			t.Errorf("%s: Show did not reveal: %q", tc.server, in.entry.Text)
		}
		test.Tap(button(t, in.eyes, "Hide "+tc.eye))
		if strings.Contains(in.entry.Text, tc.secret) {
			t.Errorf("%s: Hide did not mask: %q", tc.server, in.entry.Text)
		}
		if e.form() != e.initial {
			t.Errorf("%s: showing and hiding counts as a change", tc.server)
		}
		test.Tap(e.save)
		if h.w.editor != nil {
			t.Fatalf("%s: not saved: %s", tc.server, e.saveErr.Text)
		}
	}
	cfg := h.configured()
	if s, _ := cfg.Server("remote"); !maps.Equal(s.Headers, remote.Headers) {
		t.Errorf("headers saved as %q", s.Headers)
	}
	if s, _ := cfg.Server("local"); s.Env["OPENAI_API_KEY"] != "sk-pr1vate" {
		t.Errorf("env saved as %q", s.Env)
	}
}

// A masked value edited in place is refused with a message, and nothing
// typed is lost.
func TestEditedMaskIsRefused(t *testing.T) {
	h := newDemoHarness(t, config.Server{Name: "remote", URL: "http://127.0.0.1:9/mcp", Transport: config.TransportHTTP,
		Headers: map[string]string{"Authorization": "Bearer s3cr3t"}})
	h.waitFor("remote listed", func() bool { return h.row("remote") != nil })
	h.selectServer("remote")
	test.Tap(h.w.detail.edit)
	e := h.w.editor
	typed := strings.Replace(e.headers.entry.Text, mask, mask+"x", 1) + "X-Team=blue\n"
	e.headers.entry.SetText(typed)
	test.Tap(e.save)
	if l := e.errs[fieldHeaders]; !l.Visible() || !strings.Contains(l.Text, "Line 1: the value of Authorization is still hidden") {
		t.Errorf("error %q", l.Text)
	}
	if h.w.editor != e || e.headers.entry.Text != typed {
		t.Errorf("the dialog closed or lost %q", typed)
	}
	// The old habit is named on its line once the first is fixed.
	e.headers.entry.SetText("Authorization: Bearer new\nX-Team=blue\n")
	test.Tap(e.save)
	if l := e.errs[fieldHeaders]; l.Text != "Line 2: write Name: value, with a colon as HTTP does, not Name=value." {
		t.Errorf("error %q", l.Text)
	}
}
