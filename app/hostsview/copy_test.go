package hostsview

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/elicitdesk/elicitdesk/servers/config"
)

func TestCopyServers(t *testing.T) {
	f := sample(t)
	path := filepath.Join(t.TempDir(), "servers.json")
	if err := os.WriteFile(path, []byte(`{"mcpServers": {
		"github": {"command": "gh-mcp"},
		"github (Cursor)": {"command": "gh-mcp-2"},
		"notion": {"url": "https://mcp.notion.com/mcp"}
	}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	res := copyServers(cfg, "Cursor", f.Config.Servers)
	if want := []string{"github (Cursor 2)", "files", "mine", "old", "hidden\u202egnp.exe"}; !slices.Equal(res.Added, want) {
		t.Errorf("added %q, want %q", res.Added, want)
	}
	if !slices.Equal(res.Already, []string{"notion"}) || !slices.Equal(res.Broken, []string{"broken"}) {
		t.Errorf("already %q, broken %q", res.Already, res.Broken)
	}
	if err := cfg.Save(); err != nil {
		t.Fatal(err)
	}
	cfg, err = config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	// A routed entry brings the server it routes, not the bridge.
	if s, _ := cfg.Server("mine"); s.Command != "uvx" || !slices.Equal(s.Args, []string{"mcp-server-time"}) || s.Err != nil {
		t.Errorf("mine = %+v", s)
	}
	msg := copied("Cursor", res)
	for _, want := range []string{"“github (Cursor 2)”", "“hidden⟨U+202E⟩gnp.exe”", "Already in Elicit Desk: “notion”", "how to run them: “broken”"} {
		if !strings.Contains(msg, want) {
			t.Errorf("copied says %q, lacking %q", msg, want)
		}
	}

	// Copying again copies nothing.
	res = copyServers(cfg, "Cursor", f.Config.Servers)
	if len(res.Added) != 0 || !strings.HasPrefix(copied("Cursor", res), "Nothing was copied: Elicit Desk has every server of Cursor already.") {
		t.Errorf("second copy %+v: %q", res, copied("Cursor", res))
	}
}
