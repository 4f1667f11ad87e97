package bridge

import (
	"encoding/json"
	"testing"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/internal/testkit/hostile"
)

// TestPeersCut: what a host says of itself in clientInfo and a server in
// serverInfo reaches the desk cut to untrusted.NameBytes, while both
// messages go on byte for byte (the host declares every elicitation mode,
// so the bridge adds nothing). The 7 MiB words are issue 32's, raw as JSON allows, one to
// a message so that each is under the 8 MiB limit.
func TestPeersCut(t *testing.T) {
	strs, err := hostile.Strings()
	if err != nil {
		t.Fatal(err)
	}
	strs = append(strs, hostile.String{Name: "7MiB", Text: hostile.Flood()})
	for _, h := range strs {
		t.Run(h.Name, func(t *testing.T) {
			words := hostile.RawJSON(h.Text)
			s := start(t, newDesk(), Options{})
			initialize := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{"form":{},"url":{}}},"clientInfo":{"name":` + words + `,"version":"1"}}}`
			s.host.send(initialize)
			if got := s.server.next(); got != initialize {
				t.Errorf("the server got initialize changed: %d bytes, sent %d", len(got), len(initialize))
			}
			result := `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{},"instructions":"i","serverInfo":{"name":"n","title":` + words + `,"version":"2"}}}`
			s.server.send(result)
			if got := s.host.next(); got != result {
				t.Errorf("the host got the result changed: %d bytes, sent %d", len(got), len(result))
			}
			s.desk.mu.Lock()
			listed := s.desk.listed
			s.desk.mu.Unlock()
			if len(listed) == 0 {
				t.Fatal("the desk was not told of the session")
			}
			want := untrusted.Text(h.Text).Cut(untrusted.NameBytes)
			b := listed[len(listed)-1]
			if b.Host.Name != want || b.Reported.Title != want {
				t.Errorf("the desk was told the host is %q and the server %q, want each %q", string(b.Host.Name), string(b.Reported.Title), string(want))
			}
			if n := jsonSize(t, b); n > 4<<10 {
				t.Errorf("the session the desk was told of is %d bytes of JSON", n)
			}
		})
	}
}

// TestPeerReadCut: a Peer read from JSON, as the core reads what a bridge
// sends, is cut whoever sent it.
func TestPeerReadCut(t *testing.T) {
	huge := hostile.Flood()
	var b endpoint.Bridged
	if err := json.Unmarshal([]byte(`{"id":"s","reported":{"name":`+hostile.RawJSON(huge)+`},"host":{"title":`+hostile.RawJSON(huge)+`}}`), &b); err != nil {
		t.Fatal(err)
	}
	want := untrusted.Text(huge).Cut(untrusted.NameBytes)
	if b.Reported.Name != want || b.Host.Title != want {
		t.Errorf("read %d and %d bytes, want each cut to %d", len(b.Reported.Name), len(b.Host.Title), len(want))
	}
}

// jsonSize is the length of v as JSON.
func jsonSize(t *testing.T, v any) int {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return len(b)
}
