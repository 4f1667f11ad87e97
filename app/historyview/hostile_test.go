package historyview

import (
	"context"
	"encoding/json"
	"testing"
	"time"
	"unicode/utf8"

	"fyne.io/fyne/v2"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/internal/testkit/uitest"
	"github.com/elicitdesk/elicitdesk/servers"
)

// TestHostileHistory records a form and a URL request written entirely in
// each hostile string, and walks the list, each entry's detail (with the
// raw request and response) and the Replay window: none may show a hidden
// character raw.
func TestHostileHistory(t *testing.T) {
	for _, hs := range uitest.HostileStrings(t) {
		t.Run(hs.Name, func(t *testing.T) {
			s := hs.Text
			h := open(t, Options{})
			info := untrusted.Text(s)
			who := servers.Identity{Name: s, Target: s, Reported: servers.ServerInfo{Name: info, Title: info, Version: info}, Host: servers.HostInfo{Name: info, Title: info, Version: info}}
			content, _ := json.Marshal(map[string]string{s: s})
			for _, e := range []history.Entry{
				{Server: who, Message: info, Mode: servers.ModeForm, Schema: uitest.HostileSchema(s), Outcome: history.Accepted, Content: content},
				{Server: who, Message: info, Mode: servers.ModeURL, URL: untrusted.Text("https://x.example/" + s), Outcome: history.Stale, Reason: s},
			} {
				e.Received = time.Now()
				if _, err := h.store.Add(context.Background(), e); err != nil {
					t.Fatal(err)
				}
			}
			h.w.Refresh()
			h.w.server.SetSelected(untrusted.Text(s).Line())
			if len(h.w.entries) != 2 {
				t.Fatalf("filtering by the server shows %d entries, want 2", len(h.w.entries))
			}
			uitest.Check(t, "History", uitest.WindowTexts(h.w.win))
			for i, e := range h.w.entries {
				h.w.list.Select(i)
				uitest.Check(t, "History detail", uitest.WindowTexts(h.w.win))
				if e.Mode == servers.ModeForm {
					before := len(h.app.Driver().AllWindows())
					h.button("Replay").OnTapped()
					all := h.app.Driver().AllWindows()
					if len(all) != before+1 {
						t.Fatal("Replay opened no window")
					}
					replay := all[len(all)-1]
					replay.Resize(fyne.NewSize(800, 600))
					uitest.Check(t, "Replay", uitest.WindowTexts(replay))
					uitest.Check(t, "Replay's title", []uitest.Seen{{Widget: "title", Text: replay.Title()}})
					if n := utf8.RuneCountInString(replay.Title()); n > 100 {
						t.Errorf("the Replay window's title is %d characters long", n)
					}
					uitest.CheckWidth(t, "Replay", replay.Content(), 900)
				}
			}
		})
	}
}
