package client

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/testkit/hostile"
	"github.com/elicitdesk/elicitdesk/servers/link"
)

// TestServerInfoCut: whatever a server says about itself, in
// server/discover's _meta or in initialize's result, the session keeps
// each word within untrusted.NameBytes, cut visibly. The 7 MiB words are
// issue 32's, sent raw as a server may, in a message under the 8 MiB limit.
func TestServerInfoCut(t *testing.T) {
	strs, err := hostile.Strings()
	if err != nil {
		t.Fatal(err)
	}
	huge := hostile.Flood()
	for _, h := range strs {
		for _, version := range []string{Latest, LatestLegacy} {
			t.Run(h.Name+"/"+version, func(t *testing.T) {
				checkServerInfo(t, version, Implementation{Name: h.Text, Title: h.Text, Version: h.Text}, "")
			})
		}
	}
	// Each huge word once, both handshakes between them: 7 MiB is slow to
	// read under the race detector.
	for _, tt := range []struct {
		name, version string
		info          Implementation
		instructions  string
	}{
		{"name", Latest, Implementation{Name: huge, Title: "t", Version: "1"}, ""},
		{"title", LatestLegacy, Implementation{Name: "n", Title: huge, Version: "1"}, ""},
		{"version", LatestLegacy, Implementation{Name: "n", Title: "t", Version: huge}, ""},
		{"instructions", Latest, Implementation{Name: "n", Title: "t", Version: "1"}, huge},
	} {
		t.Run("7MiB-"+tt.name+"/"+tt.version, func(t *testing.T) {
			checkServerInfo(t, tt.version, tt.info, tt.instructions)
		})
	}
}

// checkServerInfo connects to a server that introduces itself as info,
// with instructions, and checks what the session keeps of it.
func checkServerInfo(t *testing.T, version string, info Implementation, instructions string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := Connect(ctx, introducingServer(t, info, instructions), Options{Info: Implementation{Name: "test", Version: "1"}, Version: version})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := Implementation{
		Name:    string(untrusted.Text(info.Name).Cut(untrusted.NameBytes)),
		Title:   string(untrusted.Text(info.Title).Cut(untrusted.NameBytes)),
		Version: string(untrusted.Text(info.Version).Cut(untrusted.NameBytes)),
	}
	if got := s.Server(); got != want {
		t.Errorf("Server() = %+q, want %+q", got, want)
	}
	if b, _ := json.Marshal(s.Server()); len(b) > 3*untrusted.NameBytes+64 {
		t.Errorf("Server() is %d bytes of JSON", len(b))
	}
}

// introducingServer is a server on pipes that introduces itself as who,
// in server/discover's _meta (2026-07-28) and in initialize's result, with
// instructions. Line separators go raw, as JSON allows, not escaped.
func introducingServer(t *testing.T, who Implementation, instructions string) link.Link {
	info := `{"name":` + hostile.RawJSON(who.Name) + `,"title":` + hostile.RawJSON(who.Title) + `,"version":` + hostile.RawJSON(who.Version) + `}`
	instr := hostile.RawJSON(instructions)
	return pipeServer(t, func(m gjson.Result) string {
		switch m.Get("method").String() {
		case "server/discover":
			return `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{},"instructions":` + instr + `,"_meta":{"io.modelcontextprotocol/serverInfo":` + info + `}}`
		case "initialize":
			return `{"protocolVersion":"2025-11-25","capabilities":{},"instructions":` + instr + `,"serverInfo":` + info + `}`
		}
		return `{}`
	})
}
