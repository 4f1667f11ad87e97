package historyview

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/servers"
)

func TestQuery(t *testing.T) {
	tests := []struct {
		text, server, outcome string
		want                  history.Query
	}{
		{"", allServers, allOutcomes, history.Query{Limit: listLimit}},
		{"deploy now", allServers, allOutcomes, history.Query{Text: "deploy now", Limit: listLimit}},
		{"", "files", allOutcomes, history.Query{Server: "files", Limit: listLimit}},
		{"x", "files", "Gone stale", history.Query{Text: "x", Server: "files", Outcome: history.Stale, Limit: listLimit}},
		{"", allServers, "No window could be shown", history.Query{Outcome: history.NoWindow, Limit: listLimit}},
	}
	sources := []history.Source{{Server: "demo"}, {Server: "demo", Machine: "devbox"}}
	tests = append(tests,
		struct {
			text, server, outcome string
			want                  history.Query
		}{"", "demo", allOutcomes, history.Query{Server: "demo", Limit: listLimit}},
		struct {
			text, server, outcome string
			want                  history.Query
		}{"", "demo on devbox", allOutcomes, history.Query{Server: "demo", Machine: "devbox", Limit: listLimit}})
	for _, tt := range tests {
		if got := query(tt.text, tt.server, tt.outcome, sources); got != tt.want {
			t.Errorf("query(%q, %q, %q) = %+v, want %+v", tt.text, tt.server, tt.outcome, got, tt.want)
		}
	}
}

func TestChoices(t *testing.T) {
	if got := serverChoices([]history.Source{{Server: "a"}, {Server: "a", Machine: "devbox"}, {Server: "b"}}); strings.Join(got, ",") != allServers+",a,a on devbox,b" {
		t.Errorf("serverChoices = %v", got)
	}
	got := outcomeChoices()
	if got[0] != allOutcomes || len(got) != len(history.Outcomes())+1 {
		t.Errorf("outcomeChoices = %v", got)
	}
}

func TestIdentityText(t *testing.T) {
	tests := []struct {
		id   servers.Identity
		want string
	}{
		{servers.Identity{Name: "files"}, "files"},
		{servers.Identity{Name: "files", Target: "npx files"}, "files — npx files"},
		{servers.Identity{Name: "a", Reported: servers.ServerInfo{Name: "srv"}}, "a\nReported by the server: srv"},
		{servers.Identity{Name: "a", Reported: servers.ServerInfo{Name: "srv", Title: "Nice Server", Version: "1.2"}}, "a\nReported by the server: Nice Server (srv) 1.2"},
		{servers.Identity{Name: "a", Reported: servers.ServerInfo{Name: "srv"}, Host: servers.HostInfo{Name: "claude-ai", Title: "Claude\u202e Desktop"}},
			"a\nReported by the server: srv\nAsked through the bridge for the host: Claude⟨U+202E⟩ Desktop (claude-ai)"},
		{servers.Identity{Name: "a", Host: servers.HostInfo{Name: "gemini-cli-mcp-client", Version: "0.1.0"}},
			"a\nAsked through the bridge for the host: Gemini CLI (gemini-cli-mcp-client) 0.1.0"},
		{servers.Identity{Name: "a", Host: servers.HostInfo{Name: "claude-code"}, Machine: "devbox"},
			"a\nAsked through the bridge for the host: Claude Code (claude-code)\nOn the machine devbox, through its forward"},
	}
	for _, tt := range tests {
		if got := identityText(tt.id); got != tt.want {
			t.Errorf("identityText(%+v) = %q, want %q", tt.id, got, tt.want)
		}
	}
}

func TestEntryTexts(t *testing.T) {
	received := time.Date(2026, 5, 4, 10, 0, 0, 0, time.Local)
	e := history.Entry{
		Server: servers.Identity{Name: "files"}, Message: "\nDelete it?\nReally.", Outcome: history.Stale,
		Reason: "the server cancelled", Received: received, Answered: received.Add(90 * time.Second),
	}
	if got, want := rowOf(e), (row{"2026-05-04 10:00", "files", "Gone stale", "Delete it?"}); got != want {
		t.Errorf("rowOf = %+v, want %+v", got, want)
	}
	if got, want := outcomeText(e), "Gone stale: the server stopped waiting; nothing was sent: the server cancelled"; got != want {
		t.Errorf("outcomeText = %q, want %q", got, want)
	}
	if got, want := timesText(e), "Received 2026-05-04 10:00:00, ended 2026-05-04 10:01:30 (after 1m30s)"; got != want {
		t.Errorf("timesText = %q, want %q", got, want)
	}
	e.Answered = time.Time{}
	if got, want := timesText(e), "Received 2026-05-04 10:00:00"; got != want {
		t.Errorf("timesText without an end = %q, want %q", got, want)
	}
}

// TestNoWindowReadsApart checks that a request no window could show is
// not listed or detailed as the person's own cancel or decline.
func TestNoWindowReadsApart(t *testing.T) {
	e := history.Entry{Server: servers.Identity{Name: "files"}, Outcome: history.NoWindow, Reason: "Elicit Desk is not running"}
	labels := map[string]history.Outcome{}
	for _, o := range history.Outcomes() {
		x := e
		x.Outcome = o
		label := rowOf(x).outcome
		if other, dup := labels[label]; dup {
			t.Errorf("%s and %s both read %q", o, other, label)
		}
		labels[label] = o
	}
	if got := rowOf(e).outcome; got != "No window could be shown" {
		t.Errorf("listed as %q", got)
	}
	if got, want := outcomeText(e), "No window could be shown: answered cancel without asking, as no window could be shown: Elicit Desk is not running"; got != want {
		t.Errorf("outcomeText = %q, want %q", got, want)
	}
	quit := history.Entry{Outcome: history.AppQuit}
	if got := rowOf(quit).outcome; got != "Quit while waiting" {
		t.Errorf("app-quit listed as %q", got)
	}
}

// TestOutcomeLabels checks that every outcome the history stores has a
// label in a person's words, one of its own, that the filter maps back to
// the stored word; an outcome added to the history needs its line in
// outcomeWords.
func TestOutcomeLabels(t *testing.T) {
	want := map[history.Outcome]string{
		history.Accepted:    "Accepted",
		history.Declined:    "Declined",
		history.Cancelled:   "Cancelled",
		history.Stale:       "Gone stale",
		history.RateLimited: "Too many requests",
		history.Error:       "Error",
		history.NoWindow:    "No window could be shown",
	}
	seen := map[string]history.Outcome{}
	for _, o := range history.Outcomes() {
		t.Run(string(o), func(t *testing.T) {
			w, ok := outcomeWords()[o]
			if !ok || w.label == "" || w.means == "" {
				t.Fatalf("%q has no label in outcomeWords", o)
			}
			if label, known := want[o]; known && w.label != label {
				t.Errorf("labelled %q, want %q", w.label, label)
			}
			if other, dup := seen[w.label]; dup {
				t.Errorf("%q and %q both read %q", o, other, w.label)
			}
			seen[w.label] = o
			if got := outcomeNamed(w.label); got != o {
				t.Errorf("the filter %q selects %q", w.label, got)
			}
			if strings.ContainsAny(w.label, "-_") {
				t.Errorf("%q reads as a stored word", w.label)
			}
		})
	}
	if got := outcomeLabel("later"); got != "later" {
		t.Errorf("an outcome the window does not know reads %q", got)
	}
}

func TestEntryJSONIsOneObject(t *testing.T) {
	e := history.Entry{ID: 9, Server: servers.Identity{Name: "x"}, Message: "m", Mode: servers.ModeForm,
		Schema: json.RawMessage(`{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"string"}}}`), Outcome: history.Declined}
	text := entryJSON(e)
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		t.Fatalf("%v in %s", err, text)
	}
	if m["id"] != 9.0 || m["message"] != "m" {
		t.Errorf("copied %s", text)
	}
	if strings.Index(text, `"b"`) > strings.Index(text, `"a"`) {
		t.Error("the schema's properties lost their order")
	}
}

func TestReplaySchema(t *testing.T) {
	tests := []struct {
		name string
		e    history.Entry
		ok   bool
	}{
		{"a form", history.Entry{Mode: servers.ModeForm, Schema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}}}`)}, true},
		{"a URL", history.Entry{Mode: servers.ModeURL, URL: "https://example.com"}, false},
		{"a schema with fatal problems", history.Entry{Mode: servers.ModeForm, Schema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"object"}}}`)}, false},
		{"no schema", history.Entry{Mode: servers.ModeForm}, false},
	}
	for _, tt := range tests {
		if got := replaySchema(tt.e) != nil; got != tt.ok {
			t.Errorf("%s: replayable %v, want %v", tt.name, got, tt.ok)
		}
	}
}

// TestBounded: the detail lays out at most detailAtMost characters of a
// text and says it cut; a short text is shown whole.
func TestBounded(t *testing.T) {
	if got := bounded("short"); got != "short" {
		t.Errorf("bounded(short) = %q", got)
	}
	long := strings.Repeat("word ", 10_000)
	got := bounded(long)
	head, _, _ := strings.Cut(got, "\n\n[Cut here")
	if n := utf8.RuneCountInString(head); n > detailAtMost || !strings.Contains(got, "Copy as JSON copies all") {
		t.Errorf("bounded(50,000 characters) shows %d characters: %.60q…", n, got)
	}
}

func TestSizeText(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{0, "0 bytes"},
		{1000, "1000 bytes"},
		{1024, "1 KB"},
		{1536, "1.5 KB"},
		{64 << 20, "64 MB"},
		{256 << 20, "256 MB"},
		{1 << 30, "1 GB"},
		{3<<30 + 1<<29, "3.5 GB"},
		{5<<20 + 100, "5 MB"},
	}
	for _, tt := range tests {
		if got := SizeText(tt.n); got != tt.want {
			t.Errorf("SizeText(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

// TestSizeChoices checks that the default cap is offered and that each
// choice has its own words.
func TestSizeChoices(t *testing.T) {
	seen := map[string]bool{}
	for _, n := range history.SizeChoices() {
		if seen[SizeText(n)] {
			t.Errorf("two choices read %q", SizeText(n))
		}
		seen[SizeText(n)] = true
	}
	if !seen[SizeText(history.DefaultMaxBytes)] {
		t.Errorf("the default, %s, is not a choice", SizeText(history.DefaultMaxBytes))
	}
}
