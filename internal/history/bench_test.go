package history

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/servers"
)

// vocabulary makes messages that read like real requests and give the
// full-text index a spread of common and rare words.
var vocabulary = strings.Fields(`please confirm deploy production staging database migration
	delete files folder repository branch merge release version calendar meeting invite
	budget invoice payment approve reject review pull request issue ticket customer order
	shipping address phone email account password reset token project owner team choose
	option size colour flight hotel booking date time zone weather forecast city country
	language translate document upload download backup restore server cluster node region`)

// fakeEntries returns n entries spread over a dozen servers, every outcome and
// both modes, received a minute apart ending at end; seed makes it repeatable.
func fakeEntries(n int, seed uint64, end time.Time) []Entry {
	r := rand.New(rand.NewPCG(seed, seed))
	outcomes := Outcomes()
	entries := make([]Entry, n)
	for i := range entries {
		server := fmt.Sprintf("server-%02d", r.IntN(12))
		words := make([]string, 6+r.IntN(14))
		for j := range words {
			words[j] = vocabulary[r.IntN(len(vocabulary))]
		}
		received := end.Add(time.Duration(i-n) * time.Minute)
		e := Entry{
			Server:   servers.Identity{Name: server, Target: "npx -y @example/" + server, Reported: servers.ServerInfo{Name: untrusted.Text(server + "-mcp"), Title: untrusted.Text("Example " + server), Version: "1.0.0"}},
			Message:  untrusted.Text(strings.Join(words, " ") + fmt.Sprintf(" (request %d)", i)),
			Outcome:  outcomes[r.IntN(len(outcomes))],
			Received: received,
			Answered: received.Add(time.Duration(r.IntN(600)) * time.Second),
		}
		if r.IntN(10) == 0 {
			e.Mode, e.URL = servers.ModeURL, untrusted.Text("https://auth.example.com/"+words[0])
		} else {
			e.Mode = servers.ModeForm
			e.Schema = json.RawMessage(`{"type":"object","properties":{"choice":{"type":"string","title":"Your choice"},"apiKey":{"type":"string"}}}`)
			if e.Outcome == Accepted {
				e.Content = json.RawMessage(fmt.Sprintf(`{"choice":%q,"apiKey":"sk-%d"}`, words[1], i))
			}
		}
		entries[i] = e
	}
	return entries
}

// BenchmarkSearch100k searches a history of 100,000 entries the way the
// History window does: newest 200 matches of a word, with and without the
// filters. The goal is at most 50 ms a search.
func BenchmarkSearch100k(b *testing.B) {
	ctx := context.Background()
	s, err := Open(filepath.Join(b.TempDir(), "history.db"), quiet(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if _, err := s.addAll(ctx, fakeEntries(100_000, 1, time.Now())); err != nil {
		b.Fatal(err)
	}
	for _, bb := range []struct {
		name string
		q    Query
	}{
		{"word", Query{Text: "deploy", Limit: 200}},
		{"prefix", Query{Text: "repo", Limit: 200}},
		{"two words", Query{Text: "merge release", Limit: 200}},
		{"word+server+outcome", Query{Text: "invoice", Server: "server-07", Outcome: Declined, Limit: 200}},
		{"server+outcome", Query{Server: "server-03", Outcome: Stale, Limit: 200}},
		{"rare", Query{Text: "request 99999", Limit: 200}},
		{"none", Query{Text: "zzzz", Limit: 200}},
		{"worst", Query{Text: "request", Server: "nobody", Limit: 200}},
		{"all", Query{Limit: 200}},
	} {
		b.Run(bb.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Search(ctx, bb.q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
