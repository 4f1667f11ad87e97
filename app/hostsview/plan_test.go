package hostsview

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicitdesk/elicitdesk/internal/hosts"
)

func TestDescribePlan(t *testing.T) {
	f := sample(t)
	p, err := f.Config.Route("files", "mine")
	if err != nil {
		t.Fatal(err)
	}
	v := describePlan(p, true)
	if v.Title != "Route “files” through Elicit Desk?" || v.Verb != "Change Cursor's config" {
		t.Errorf("title %q, verb %q", v.Title, v.Verb)
	}
	want := changeView{"files",
		`'C:\Program Files\nodejs\npx.cmd' -y @modelcontextprotocol/server-filesystem 'C:\Users\Zoë\Desktop'`,
		`/opt/elicitdesk bridge -name=files -- 'C:\Program Files\nodejs\npx.cmd' -y @modelcontextprotocol/server-filesystem 'C:\Users\Zoë\Desktop'`}
	if len(v.Changes) != 1 || v.Changes[0] != want {
		t.Errorf("changes %+v, want %+v", v.Changes, want)
	}
	skipped := fmt.Sprint(v.Skipped)
	if len(v.Skipped) != 1 || !strings.Contains(skipped, "mine "+hosts.ReasonRouted) || strings.Contains(v.Intro, "sign in") {
		t.Errorf("skipped %s, intro %q", skipped, v.Intro)
	}

	// A remote server: Now its URL, After the bridge that signs in for the host.
	p, err = f.Config.Route("notion")
	if err != nil {
		t.Fatal(err)
	}
	v = describePlan(p, true)
	want = changeView{"notion", "https://mcp.notion.com/mcp", "/opt/elicitdesk bridge -name=notion -url https://mcp.notion.com/mcp"}
	if len(v.Changes) != 1 || v.Changes[0] != want || !strings.Contains(v.Intro, "Elicit Desk signs in for it, in your browser") {
		t.Errorf("remote plan %+v, want %+v", v, want)
	}

	// Unrouting names what goes back; a plan that changes nothing offers no button.
	p, err = f.Config.Unroute("mine")
	if err != nil {
		t.Fatal(err)
	}
	if v := describePlan(p, false); v.Title != "Stop routing “mine” through Elicit Desk?" || len(v.Changes) != 1 || v.Changes[0].To != "uvx mcp-server-time" {
		t.Errorf("unroute %+v", v)
	}
	p, err = f.Config.Route("mine")
	if err != nil {
		t.Fatal(err)
	}
	if v := describePlan(p, true); v.Verb != "" || v.Title != "Route Cursor's servers through Elicit Desk?" || !strings.HasPrefix(v.Intro, "Nothing to change") {
		t.Errorf("empty plan %+v", v)
	}

	// Names from the file are shown through untrusted's views.
	p, err = f.Config.Route("hidden\u202egnp.exe")
	if err != nil {
		t.Fatal(err)
	}
	if v := describePlan(p, true); v.Changes[0].Name != "hidden⟨U+202E⟩gnp.exe" || strings.ContainsRune(v.Changes[0].To, '\u200b') {
		t.Errorf("hostile plan %+v", v)
	}
}

func TestApplyMessages(t *testing.T) {
	f := sample(t)
	p, err := f.Config.Route("github")
	if err != nil {
		t.Fatal(err)
	}
	// The host writes its config after it was read.
	if err := os.WriteFile(f.Config.Path, []byte(`{"mcpServers": {}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = p.Apply()
	if !errors.Is(err, hosts.ErrChanged) {
		t.Fatalf("Apply = %v, want ErrChanged", err)
	}
	if msg := applyError("Cursor", err); !strings.HasPrefix(msg, "Cursor's config changed while you were looking, so nothing was written") {
		t.Errorf("ErrChanged says %q", msg)
	}
	if msg := applyError("Cursor", errors.New("/x/mcp.json cannot be written: permission denied; nothing was changed")); msg !=
		"The config of Cursor was not changed:\n/x/mcp.json cannot be written: permission denied; nothing was changed" {
		t.Errorf("read-only says %q", msg)
	}
	if msg := applied("Cursor", "/x/mcp.json"+hosts.BackupSuffix); msg !=
		"Restart Cursor so it picks up the change.\n\nThe config as it was is kept in /x/mcp.json.elicitdesk-backup" {
		t.Errorf("applied says %q", msg)
	}
}

// TestDescribeLimitPlan: routing a Codex entry says that Codex will wait
// longer for a call, and unrouting that the wait goes back.
func TestDescribeLimitPlan(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte("[mcp_servers.a]\ncommand = \"npx\"\ntool_timeout_sec = 60\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h := hosts.Host{ID: "codex", Name: "Codex", Config: path, Key: "mcp_servers", Format: hosts.TOML}
	f := hosts.Find([]hosts.Host{h}, bin)[0]
	p, err := f.Config.Route()
	if err != nil {
		t.Fatal(err)
	}
	if v := describePlan(p, true); !strings.Contains(v.Intro, "the time Codex waits for a call, which becomes 30 minutes so that you have time to answer") {
		t.Errorf("route intro %q", v.Intro)
	}
	if _, err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	f = hosts.Find([]hosts.Host{h}, bin)[0]
	if p, err = f.Config.Unroute(); err != nil {
		t.Fatal(err)
	}
	if v := describePlan(p, false); !strings.Contains(v.Intro, "The time it waits for a call goes back to what it was.") {
		t.Errorf("unroute intro %q", v.Intro)
	}
}
