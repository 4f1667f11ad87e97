package serversview

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/testkit/uitest"
	"github.com/elicitdesk/elicitdesk/servers"
)

// claude is a bridged session of the files server for Claude Desktop.
func claude(id string, since time.Time, asked int) servers.Bridged {
	return servers.Bridged{ID: id, Since: since, Asked: asked, Server: servers.Identity{
		Name: "files", Target: "npx files-mcp",
		Reported: servers.ServerInfo{Name: "files-mcp", Version: "1.2"},
		Host:     servers.HostInfo{Name: "claude-ai", Title: "Claude Desktop", Version: "0.9"},
	}}
}

func TestBridgedViewOf(t *testing.T) {
	now := time.Date(2026, 11, 23, 11, 0, 0, 0, time.Local)
	morning := time.Date(2026, 11, 23, 10, 42, 7, 0, time.Local)
	untitled := claude("2", morning, 1)
	untitled.Server.Host.Title = ""
	unknown := claude("6", morning, 1)
	unknown.Server.Host = servers.HostInfo{Name: "my-agent"}
	nameless := claude("3", morning, 0)
	nameless.Server.Host = servers.HostInfo{}
	waiting := claude("5", morning, 3)
	waiting.Open = 1
	onDevbox := claude("7", morning, 1)
	onDevbox.Server.Machine = "devbox"
	tests := []struct {
		name     string
		sessions []servers.Bridged
		want     bridgedView
	}{
		{"none", nil, bridgedView{Hidden: true, Title: "Bridged sessions (0)"}},
		{"host by title", []servers.Bridged{claude("1", morning, 2)}, bridgedView{Title: "Bridged sessions (1)", Rows: []bridgedRow{
			{Session: "1", Server: "files", Host: "for Claude Desktop", Detail: "since 10:42:07 · 2 requests asked"},
		}}},
		{"waiting", []servers.Bridged{waiting}, bridgedView{Title: "Bridged sessions (1)", Rows: []bridgedRow{
			{Session: "5", Server: "files", Host: "for Claude Desktop", Detail: "since 10:42:07 · 1 waiting of 3 requests asked"},
		}}},
		{"host by the name people know, by its own, and none", []servers.Bridged{untitled, unknown, nameless}, bridgedView{Title: "Bridged sessions (3)", Rows: []bridgedRow{
			{Session: "2", Server: "files", Host: "for Claude Desktop", Detail: "since 10:42:07 · 1 request asked"},
			{Session: "6", Server: "files", Host: "for my-agent", Detail: "since 10:42:07 · 1 request asked"},
			{Session: "3", Server: "files", Host: "for a host that gave no name", Detail: "since 10:42:07 · nothing asked yet"},
		}}},
		{"on another machine", []servers.Bridged{onDevbox}, bridgedView{Title: "Bridged sessions (1)", Rows: []bridgedRow{
			{Session: "7", Machine: "devbox", Server: "files", Host: "on devbox, for Claude Desktop", Detail: "since 10:42:07 · 1 request asked"},
		}}},
		{"hidden characters", []servers.Bridged{{ID: "4", Since: morning, Server: servers.Identity{Name: "fi\u202eles", Host: servers.HostInfo{Name: untrusted.Text("Cl\u200baude\nDesktop")}}}},
			bridgedView{Title: "Bridged sessions (1)", Rows: []bridgedRow{
				{Session: "4", Server: "fi⟨U+202E⟩les", Host: "for Cl⟨U+200B⟩aude⟨U+000A⟩Desktop", Detail: "since 10:42:07 · nothing asked yet"},
			}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := bridgedViewOf(tt.sessions, now)
			if got.Hidden != tt.want.Hidden || got.Title != tt.want.Title || len(got.Rows) != len(tt.want.Rows) {
				t.Fatalf("got %+v\nwant %+v", got, tt.want)
			}
			for i := range got.Rows {
				if got.Rows[i] != tt.want.Rows[i] {
					t.Errorf("row %d: got %+v\nwant %+v", i, got.Rows[i], tt.want.Rows[i])
				}
			}
		})
	}
}

// TestBridgedSessionsLive checks that the window lists sessions as they
// come, counts their requests and drops them as they go, from whichever
// goroutine the change comes.
func TestBridgedSessionsLive(t *testing.T) {
	h := newHarness(t, []byte(`{"mcpServers":{}}`))
	section := h.w.list.bridged
	markup := func() string { return test.RenderObjectToMarkup(h.w.win.Content()) }
	if section.content.Visible() {
		t.Error("the section shows with no session")
	}
	remove := make(chan func(), 1)
	go func() { remove <- h.bridges.Add(claude("s1", time.Now(), 0)) }()
	h.waitFor("the session listed", func() bool { return section.content.Visible() && strings.Contains(markup(), "for Claude Desktop") })
	answered := make(chan func(), 1)
	go func() { answered <- h.bridges.Asking("s1") }()
	h.waitFor("the request counted", func() bool { return strings.Contains(markup(), "1 waiting of 1 request asked") })
	go (<-answered)()
	h.waitFor("the request answered", func() bool { return strings.Contains(markup(), "· 1 request asked") })
	if m := markup(); !strings.Contains(m, "Bridged sessions (1)") || !strings.Contains(m, "files") {
		t.Errorf("the section lacks its title or the server:\n%s", m)
	}
	go (<-remove)()
	h.waitFor("the session gone", func() bool { return !section.content.Visible() })
}

// TestHostileBridgedSessions lists a session whose server and host are
// written in each hostile string: no hidden character may show raw, and
// the list must not widen the window.
func TestHostileBridgedSessions(t *testing.T) {
	for _, hs := range uitest.HostileStrings(t) {
		t.Run(hs.Name, func(t *testing.T) {
			s := hs.Text
			info := servers.ServerInfo{Name: untrusted.Text(s), Title: untrusted.Text(s), Version: untrusted.Text(s)}
			h := newHarness(t, []byte(`{"mcpServers":{}}`))
			h.bridges.Add(servers.Bridged{ID: s, Since: time.Now(), Server: servers.Identity{Name: s, Target: s, Reported: info, Host: servers.HostInfo(info)}})
			h.waitFor("the session listed", func() bool { return h.w.list.bridged.content.Visible() })
			uitest.Check(t, "bridged sessions", uitest.WindowTexts(h.w.win))
			uitest.CheckWidth(t, "bridged sessions", h.w.win.Content(), 1000)
		})
	}
}

// TestBlockAMachine: a session from another machine has a Block button,
// which asks first; Keep answering does nothing, Block has the core block
// the machine, and what the core says of it shows.
func TestBlockAMachine(t *testing.T) {
	h := newHarness(t, []byte(`{"mcpServers":{}}`))
	s := claude("s1", time.Now(), 0)
	s.Server.Machine = "devbox"
	go h.bridges.Add(s)
	markup := func() string { return test.RenderObjectToMarkup(h.w.win.Content()) }
	h.waitFor("the machine's session", func() bool { return h.w.list.bridged.content.Visible() })
	found := false
	for _, o := range test.LaidOutObjects(h.w.list.bridged.rows) {
		if l, ok := o.(*widget.Label); ok && l.Text == "on devbox, for Claude Desktop" {
			found = true
		}
	}
	if !found {
		t.Fatalf("the row does not say where the host runs:\n%s", markup())
	}
	test.Tap(button(t, h.w.list.bridged.rows, "Block devbox…"))
	test.Tap(button(t, h.w.win.Canvas().Overlays().Top(), "Keep answering"))
	if top := h.w.win.Canvas().Overlays().Top(); top != nil {
		t.Fatal("Keep answering left the question up")
	}
	test.Tap(button(t, h.w.list.bridged.rows, "Block devbox…"))
	test.Tap(button(t, h.w.win.Canvas().Overlays().Top(), "Block"))
	h.waitFor("the core's word", func() bool {
		top := h.w.win.Canvas().Overlays().Top()
		if top == nil {
			return false
		}
		for _, o := range test.LaidOutObjects(top) {
			if l, ok := o.(*widget.Label); ok && strings.Contains(l.Text, "no other machine in these tests") {
				return true
			}
		}
		return false
	})
}
