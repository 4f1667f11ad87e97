package history

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/servers"
)

// fixtures are a small history covering every outcome, both modes and each
// searched column, received an hour apart, oldest first.
func fixtures() []Entry {
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	form := func(s string) json.RawMessage { return json.RawMessage(s) }
	deployer := servers.Identity{Name: "deployer", Target: "npx deployer", Reported: servers.ServerInfo{Name: "deploy-bot", Title: "Deploy Bot", Version: "2.1"}}
	files := servers.Identity{Name: "files", Target: "/usr/bin/files-mcp", Reported: servers.ServerInfo{Name: "files"}}
	auth := servers.Identity{Name: "auth", Target: "https://auth.example.com/mcp", Reported: servers.ServerInfo{Name: "Auth", Title: "Sign-in Service"}}
	list := []Entry{
		{Server: deployer, Message: "Deploy to production?", Mode: servers.ModeForm,
			Schema: form(`{"type":"object","properties":{"confirm":{"type":"boolean"}}}`), Outcome: Accepted, Content: form(`{"confirm":true}`)},
		{Server: files, Message: "Delete the folder café?", Mode: servers.ModeForm,
			Schema: form(`{"type":"object","properties":{}}`), Outcome: Declined},
		{Server: auth, Message: "Sign in to continue", Mode: servers.ModeURL,
			URL: "https://auth.example.com/login?state=xyz", Outcome: Stale, Reason: "the server cancelled the request"},
		{Server: deployer, Message: "Choose the staging region", Mode: servers.ModeForm,
			Schema: form(`{"type":"object","properties":{"region":{"type":"string"}}}`), Outcome: Cancelled},
		{Server: files, Message: "Enter the password for the archive", Mode: servers.ModeForm,
			Schema:  form(`{"type":"object","properties":{"archivePassword":{"type":"string"},"note":{"type":"string"}}}`),
			Outcome: Accepted, Content: form(`{"archivePassword":"hunter2","note":"for backups"}`)},
		{Server: deployer, Message: "Deploy again", Mode: servers.ModeForm,
			Schema: form(`{"type":"object","properties":{}}`), Outcome: RateLimited, Reason: "more than 30 requests a minute"},
		{Server: files, Message: "Bad schema request", Mode: servers.ModeForm,
			Schema: form(`{"type":"object","properties":{"a":{"type":"object"}}}`), Outcome: Error, Reason: "nested objects are not allowed"},
	}
	for i := range list {
		list[i].Received = at.Add(time.Duration(i) * time.Hour)
		list[i].Answered = list[i].Received.Add(time.Minute)
	}
	return list
}

// fixtureIndexes says which fixtures entries are, by their messages.
func fixtureIndexes(entries []Entry) []int {
	var found []int
	for _, e := range entries {
		found = append(found, slices.IndexFunc(fixtures(), func(f Entry) bool { return f.Message == e.Message }))
	}
	return found
}

// withFixtures is a new store holding fixtures.
func withFixtures(t testing.TB) *Store {
	t.Helper()
	s := newStore(t)
	for _, e := range fixtures() {
		if _, err := s.Add(context.Background(), e); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func TestSearch(t *testing.T) {
	s := withFixtures(t)
	tests := []struct {
		name string
		q    Query
		want []int // fixture indexes, newest first
	}{
		{"everything", Query{}, []int{6, 5, 4, 3, 2, 1, 0}},
		{"a word, also as server name", Query{Text: "deploy"}, []int{5, 3, 0}},
		{"case does not matter", Query{Text: "DEPLOY to"}, []int{0}},
		{"a prefix", Query{Text: "prod"}, []int{0}},
		{"accents do not matter", Query{Text: "cafe"}, []int{1}},
		{"the reported title", Query{Text: "Sign-in service"}, []int{2}},
		{"the target and URL", Query{Text: "example.com"}, []int{2}},
		{"the URL query", Query{Text: "state=xyz"}, []int{2}},
		{"the content", Query{Text: "backups"}, []int{4}},
		{"why it failed", Query{Text: "nested objects"}, []int{6}},
		{"why it was refused", Query{Text: "30 requests"}, []int{5}},
		{"a redacted secret is not found", Query{Text: "hunter2"}, nil},
		{"punctuation only matches all", Query{Text: `"()*:-`}, []int{6, 5, 4, 3, 2, 1, 0}},
		{"FTS operators are words", Query{Text: `deploy OR production`}, nil},
		{"quotes and stars are plain", Query{Text: `"deploy*" (production)`}, []int{0}},
		{"a column filter is plain words", Query{Text: `message:staging`}, nil},
		{"server filter", Query{Server: "files"}, []int{6, 4, 1}},
		{"outcome filter", Query{Outcome: Accepted}, []int{4, 0}},
		{"words and server", Query{Text: "the", Server: "files"}, []int{4, 1}},
		{"words, server and outcome", Query{Text: "the", Server: "files", Outcome: Declined}, []int{1}},
		{"words and an unknown server", Query{Text: "deploy", Server: "nobody"}, nil},
		{"a server name is not a tag", Query{Text: "s6465706c6f796572"}, nil},
		{"limit", Query{Limit: 2}, []int{6, 5}},
		{"limit with words", Query{Text: "deploy", Limit: 2}, []int{5, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Search(context.Background(), tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if found := fixtureIndexes(got); !slices.Equal(found, tt.want) {
				t.Errorf("found %v, want %v", found, tt.want)
			}
		})
	}
}

func TestServers(t *testing.T) {
	s := withFixtures(t)
	got, err := s.Servers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := []Source{{Server: "auth"}, {Server: "deployer"}, {Server: "files"}}; !slices.Equal(got, want) {
		t.Errorf("Servers() = %v, want %v", got, want)
	}
}

// TestMachines: another machine's server of the same name is a server of
// its own, in Servers and in a filter, with words to find or without.
func TestMachines(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	here := servers.Identity{Name: "demo", Target: "elicitdesk demo-server"}
	there := here
	there.Machine = "devbox"
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	var messages []string
	for i, who := range []servers.Identity{here, there, here} {
		e := Entry{Server: who, Message: untrusted.Text(fmt.Sprintf("Deploy %d?", i)), Mode: servers.ModeForm,
			Schema: json.RawMessage(`{"type":"object","properties":{}}`), Outcome: Declined,
			Received: at.Add(time.Duration(i) * time.Minute), Answered: at.Add(time.Duration(i)*time.Minute + time.Second)}
		if _, err := s.Add(ctx, e); err != nil {
			t.Fatal(err)
		}
		messages = append(messages, string(e.Message))
	}
	got, err := s.Servers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := []Source{{Server: "demo"}, {Server: "demo", Machine: "devbox"}}; !slices.Equal(got, want) {
		t.Errorf("Servers() = %v, want %v", got, want)
	}
	for _, tt := range []struct {
		q    Query
		want []int // entries added, newest first
	}{
		{Query{Server: "demo"}, []int{2, 0}},
		{Query{Server: "demo", Machine: "devbox"}, []int{1}},
		{Query{Text: "deploy", Server: "demo"}, []int{2, 0}},
		{Query{Text: "deploy", Server: "demo", Machine: "devbox"}, []int{1}},
		{Query{Text: "deploy"}, []int{2, 1, 0}},
		{Query{Text: "devbox"}, []int{1}}, // the machine is searched too
	} {
		list, err := s.Search(ctx, tt.q)
		if err != nil {
			t.Fatal(err)
		}
		var found []int
		for _, e := range list {
			found = append(found, slices.Index(messages, string(e.Message)))
		}
		if !slices.Equal(found, tt.want) {
			t.Errorf("%+v found %v, want %v", tt.q, found, tt.want)
		}
	}
}

// TestAsked: a server asked before if it has an entry, whatever it was;
// a name is matched whole, not as a pattern.
func TestAsked(t *testing.T) {
	s := withFixtures(t)
	for _, tt := range []struct {
		server string
		want   bool
	}{{"auth", true}, {"files", true}, {"file", false}, {"fil%", false}, {"", false}, {"Files", false}} {
		got, err := s.Asked(context.Background(), tt.server)
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("Asked(%q) = %v, want %v", tt.server, got, tt.want)
		}
	}
}

// FuzzSearch checks that no typed text, and no server or outcome filter, is
// a syntax error for the full-text index.
func FuzzSearch(f *testing.F) {
	for _, seed := range []string{"", "deploy", `"`, `""`, `"*`, "*", "AND", "OR NOT", "NEAR(a b, 2)",
		"a:b", "{message}: x", "^start", "-x", "+y", "(", ")", "é́", "\x00", "😀 deploy", "\u200b", "'; DROP TABLE entries; --"} {
		f.Add(seed)
	}
	s := withFixtures(f)
	f.Fuzz(func(t *testing.T, text string) {
		for _, q := range []Query{{Text: text}, {Text: text, Server: text, Outcome: Outcome(text), Limit: 3}} {
			if _, err := s.Search(context.Background(), q); err != nil {
				t.Fatalf("Search(%+v): %v", q, err)
			}
		}
	})
}
