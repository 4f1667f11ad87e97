package app

import (
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/elicitdesk/elicitdesk/internal/hosts"
)

// needs is the least content size of w, padding included.
func needs(w fyne.Window) fyne.Size {
	m := w.Content().MinSize()
	if w.Padded() {
		m = m.AddWidthHeight(2*theme.Padding(), 2*theme.Padding())
	}
	return m
}

// must is the question quitQuestion gives, which it must give.
func must(q question, ok bool) question {
	if !ok {
		panic("no question")
	}
	return q
}

// windowTitled is the app's window called title.
func windowTitled(title string) fyne.Window {
	for _, w := range fyne.CurrentApp().Driver().AllWindows() {
		if w.Title() == title {
			return w
		}
	}
	return nil
}

// cursorHost is Cursor with the Hosts window's sample config, many servers
// with long commands, at a long path.
func cursorHost(t *testing.T) hosts.Host {
	data, err := os.ReadFile(filepath.Join("hostsview", "testdata", "mcp.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "a folder with a rather long name", ".cursor")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return hosts.Host{ID: "cursor", Name: "Cursor", Config: path, Key: "mcpServers", Format: hosts.JSON}
}
