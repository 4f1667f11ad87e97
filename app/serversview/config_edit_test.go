package serversview

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/elicitdesk/elicitdesk/servers/config"
)

// copyConfig copies testdata/config/name to a temporary servers.json.
func copyConfig(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "config", name))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "servers.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// names lists the entries of the file at path, in order.
func names(t *testing.T, path string) []string {
	t.Helper()
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range cfg.Servers {
		out = append(out, s.Name)
	}
	return out
}

// rawFile decodes the file at path loosely, to look at other clients' keys.
func rawFile(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func entryOf(t *testing.T, path, name string) map[string]any {
	t.Helper()
	e, _ := rawFile(t, path)["mcpServers"].(map[string]any)[name].(map[string]any)
	return e
}

func TestSaveEntryEditsInPlace(t *testing.T) {
	path := copyConfig(t, "others.json")
	f := formFromEntry(config.Server{Name: "middle", Command: "middle-server", Args: []string{"--port", "2"}, Env: map[string]string{"TOKEN": "x"}})
	f.Name = "renamed"
	if errs, err := saveEntry(path, "middle", f); errs != nil || err != nil {
		t.Fatal(errs, err)
	}
	if got, want := names(t, path), []string{"first", "renamed", "remote", "broken", "last"}; !slices.Equal(got, want) {
		t.Errorf("entries %q, want %q", got, want)
	}
	e := entryOf(t, path, "renamed")
	if e["alwaysAllow"] != true || !reflect.DeepEqual(e["args"], []any{"--port", "2"}) {
		t.Errorf("renamed entry = %v; want its other keys kept and the new args", e)
	}
	top := rawFile(t, path)
	if top["globalShortcut"] != "Ctrl+Space" || top["theme"] != "dark" {
		t.Errorf("other clients' settings lost: %v", top)
	}
}

func TestSaveEntryAdds(t *testing.T) {
	path := copyConfig(t, "others.json")
	f := entryForm{Name: "new", Transport: config.TransportSSE, URL: "https://new.example.com/sse", Protocol: "2025-06-18"}
	if errs, err := saveEntry(path, "", f); errs != nil || err != nil {
		t.Fatal(errs, err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	last := cfg.Servers[len(cfg.Servers)-1]
	if last.Name != "new" || last.Transport != config.TransportSSE || last.ProtocolVersion != "2025-06-18" || last.Err != nil {
		t.Errorf("added entry = %+v", last)
	}
}

func TestSaveEntryRefusesWithoutWriting(t *testing.T) {
	path := copyConfig(t, "others.json")
	before, _ := os.ReadFile(path)
	f := entryForm{Name: "remote", Transport: config.TransportStdio, CommandLine: "x", Protocol: negotiate}
	errs, err := saveEntry(path, "first", f)
	if err != nil || errs[fieldName] != `Another server is already called "remote".` {
		t.Errorf("renaming onto another entry: %v, %v", errs, err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Errorf("a refused save wrote the file:\n%s", after)
	}
	// Keeping one's own name is fine.
	f.Transport, f.URL = config.TransportHTTP, "http://localhost:1/mcp"
	if errs, err := saveEntry(path, "remote", f); errs != nil || err != nil {
		t.Errorf("saving an entry under its own name: %v, %v", errs, err)
	}
}

func TestSaveEntryCreatesMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "elicitdesk", "servers.json")
	f := entryForm{Name: "one", Transport: config.TransportStdio, CommandLine: "one-server", Protocol: negotiate}
	if errs, err := saveEntry(path, "", f); errs != nil || err != nil {
		t.Fatal(errs, err)
	}
	if got := names(t, path); !slices.Equal(got, []string{"one"}) {
		t.Errorf("entries %q", got)
	}
}

// Fixing a broken entry keeps what the form does not show.
func TestSaveEntryFixesBrokenEntry(t *testing.T) {
	path := copyConfig(t, "others.json")
	cfg, _ := config.Load(path)
	broken, _ := cfg.Server("broken")
	if broken.Err == nil {
		t.Fatal("testdata: the broken entry reads fine")
	}
	f := formFromEntry(broken)
	f.CommandLine = "fixed-server --flag"
	if errs, err := saveEntry(path, "broken", f); errs != nil || err != nil {
		t.Fatal(errs, err)
	}
	cfg, _ = config.Load(path)
	fixed, _ := cfg.Server("broken")
	if fixed.Err != nil || fixed.Command != "fixed-server" {
		t.Errorf("fixed entry = %+v", fixed)
	}
	if entryOf(t, path, "broken")["note"] != "kept" {
		t.Error("the entry's unknown key was lost")
	}
}

func TestSetDisabledAndRemove(t *testing.T) {
	path := copyConfig(t, "others.json")
	if err := setDisabled(path, "first", true); err != nil {
		t.Fatal(err)
	}
	if err := setDisabled(path, "last", false); err != nil {
		t.Fatal(err)
	}
	if e := entryOf(t, path, "first"); e["disabled"] != true || e["autoApprove"] == nil {
		t.Errorf("first = %v, want disabled with its keys", e)
	}
	if _, ok := entryOf(t, path, "last")["disabled"]; ok {
		t.Error(`enabling left "disabled" in the entry`)
	}
	if err := removeEntry(path, "remote"); err != nil {
		t.Fatal(err)
	}
	if got, want := names(t, path), []string{"first", "middle", "broken", "last"}; !slices.Equal(got, want) {
		t.Errorf("entries %q, want %q", got, want)
	}
	if err := removeEntry(path, "remote"); err == nil {
		t.Error("removing a server that is gone succeeded")
	}
}
