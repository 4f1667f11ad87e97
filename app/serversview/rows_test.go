package serversview

import (
	"errors"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/config"
)

func TestMergeRows(t *testing.T) {
	bad := errors.New("bad entry")
	cfg := &config.File{Servers: []config.Server{
		{Name: "b", Command: "b"},
		{Name: "a", Command: "a", Disabled: true},
		{Name: "new", Command: "n"},
		{Name: "broken", Err: bad},
		{Name: "b", Command: "again", Err: bad},
	}}
	statuses := []servers.Status{
		{Name: "a", State: servers.StateDisabled},
		{Name: "b", State: servers.StateReady, Protocol: "2025-11-25"},
		{Name: "gone", State: servers.StateStopped},
	}
	rows := mergeRows(cfg, statuses)
	var got []string
	for _, r := range rows {
		got = append(got, r.Name+":"+string(r.state()))
	}
	want := []string{"b:ready", "a:disabled", "new:connecting", "broken:failed"}
	if len(got) != len(want) {
		t.Fatalf("rows %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("rows %q, want %q", got, want)
			break
		}
	}
	if rows[3].problem() != bad {
		t.Errorf("the broken entry's problem is %v", rows[3].problem())
	}

	// An unreadable file shows what the manager runs, which cannot be edited.
	rows = mergeRows(nil, statuses)
	if len(rows) != 3 || rows[2].Name != "gone" || rows[2].InFile {
		t.Errorf("rows without a file = %+v", rows)
	}
}

func TestLightColor(t *testing.T) {
	for state, want := range map[servers.State]fyne.ThemeColorName{
		servers.StateReady:      theme.ColorNameSuccess,
		servers.StateConnecting: theme.ColorNameWarning,
		servers.StateFailed:     theme.ColorNameError,
		servers.StateStopped:    theme.ColorNameDisabled,
		servers.StateDisabled:   theme.ColorNameDisabled,
	} {
		if got := lightColor(state); got != want {
			t.Errorf("lightColor(%s) = %s, want %s", state, got, want)
		}
	}
}

func TestSinceText(t *testing.T) {
	now := time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)
	for _, tc := range []struct {
		t    time.Time
		want string
	}{
		{now.Add(-time.Minute), "15:08:26"},
		{time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), "2 Jan 03:04"},
		{time.Date(2025, 12, 31, 23, 0, 0, 0, time.UTC), "31 Dec 2025 23:00"},
		{time.Date(2025, 3, 14, 15, 0, 0, 0, time.UTC), "14 Mar 2025 15:00"}, // same day of another year
		{time.Date(2026, 3, 14, 16, 0, 0, 0, time.FixedZone("CET", 3600)), "15:00:00"},
	} {
		if got := sinceText(tc.t, now); got != tc.want {
			t.Errorf("sinceText(%v) = %q, want %q", tc.t, got, tc.want)
		}
	}
}

func TestRowTexts(t *testing.T) {
	since := time.Now().Add(-time.Second)
	ready := row{Name: "demo", InFile: true, Entry: config.Server{ProtocolVersion: "2025-11-25"},
		Status: servers.Status{State: servers.StateReady, Since: since, Protocol: "2025-11-25"}}
	failed := ready
	failed.Status.State = servers.StateFailed // keeps the last protocol
	negotiated := ready
	negotiated.Entry.ProtocolVersion = ""
	for _, tc := range []struct{ got, want string }{
		{ready.protocolText(), "2025-11-25 (pinned)"},
		{negotiated.protocolText(), "2025-11-25 (negotiated)"},
		{failed.protocolText(), "Pinned to 2025-11-25; not connected"},
		{row{}.protocolText(), "Not connected"},
		{ready.stateText(time.Now()), "Ready since " + since.Format("15:04:05")},
		{row{Entry: config.Server{Disabled: true}}.stateText(time.Now()), "Disabled"},
		{servers.ServerInfo{Name: "elicitdesk-demo", Title: "Elicit Desk demo server", Version: "0.1.0"}.String(), "Elicit Desk demo server (elicitdesk-demo) 0.1.0"},
		{servers.ServerInfo{Name: "bare"}.String(), "bare"},
		{servers.ServerInfo{Name: "same", Title: "same", Version: "2"}.String(), "same 2"},
		{servers.ServerInfo{}.String(), ""},
		{row{Name: "x", Status: servers.Status{Identity: servers.Identity{Target: "x --y"}}}.target(), "x --y"},
		{row{InFile: true, Entry: config.Server{URL: "https://e.example.com"}}.target(), "https://e.example.com"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
