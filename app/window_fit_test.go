package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/elicitdesk/elicitdesk/app/hostsview"
	"github.com/elicitdesk/elicitdesk/internal/desktop/screen"
	"github.com/elicitdesk/elicitdesk/internal/hosts"
)

// smallRoom is the content size of a window as big as the smallest screen
// the windows are made for allows: 1440×900 at scale 2 with no panel, less
// the window manager's frame (screen.Size), 716×430 Fyne units.
func smallRoom() fyne.Size {
	return screen.Screen{Work: screen.Area{Width: 1440, Height: 900}, Scale: 2}.Size()
}

// needs is the least content size of w, padding included.
func needs(w fyne.Window) fyne.Size {
	m := w.Content().MinSize()
	if w.Padded() {
		m = m.AddWidthHeight(2*theme.Padding(), 2*theme.Padding())
	}
	return m
}

// TestWindowsFitSmallScreen opens every window of the app, with content
// in each (a connected server, recorded requests, a host with many
// servers): each one's content can shrink to the work area of a small
// screen, so Fyne never grows a window past it.
func TestWindowsFitSmallScreen(t *testing.T) {
	h := start(t, "") // a first start: the Welcome window too
	cursor := cursorHost(t)
	h.eventually("the demo server", func() bool {
		s := h.core.Statuses()
		return len(s) == 1 && s[0].Identity.Reported.Name != ""
	})
	h.askForm(context.Background(), "shop", "Your name?")
	h.request(0)
	h.ui(func() {
		h.d.opts.Hosts = []hosts.Host{cursor}
		h.d.hostsWin = hostsview.New(h.d.fyne, hostsview.Deps{Hosts: h.d.opts.Hosts, Bridge: hosts.Binaries{Exe: "/opt/elicitdesk"}, ConfigPath: h.d.opts.ConfigPath, Log: h.d.log})
	})
	room := smallRoom()
	for _, c := range []struct {
		title string
		open  func()
	}{
		{"Servers — Elicit Desk", h.d.serversWin.Show},
		{"Welcome — Elicit Desk", h.d.showWelcome},
		{"Hosts — Elicit Desk", h.d.hostsWin.Show},
		{"History — Elicit Desk", h.d.showHistory},
		{"Settings — Elicit Desk", h.d.showSettings},
		{"Help — Elicit Desk", h.d.showHelp},
		{"Something went wrong — Elicit Desk", func() { h.d.showError("Something went wrong", "The file cannot be read.") }},
	} {
		t.Run(c.title, func(t *testing.T) {
			h.ui(func() {
				c.open()
				w := windowTitled(c.title)
				if w == nil {
					t.Fatal("no window")
				}
				if m := needs(w); m.Width > room.Width || m.Height > room.Height {
					t.Errorf("needs %v, more than %v", m, room)
				}
			})
		})
	}
	for _, q := range []struct {
		name string
		ask  func()
	}{
		{"the quit question", func() { h.d.ask(must(quitQuestion(12)), true, nil, func() {}) }},
		{"the background question", func() { h.d.ask(backgroundQuestion, false, nil, func() {}) }},
	} {
		t.Run(q.name, func(t *testing.T) {
			h.ui(func() {
				q.ask()
				w := h.question()
				if w == nil {
					t.Fatal("no question")
				}
				if m := needs(w); m.Width > room.Width || m.Height > room.Height {
					t.Errorf("needs %v, more than %v", m, room)
				}
				pressKey(w.Canvas(), fyne.KeyEscape)
			})
		})
	}
}

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
