package history

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestRequestResponse(t *testing.T) {
	f := fixtures()
	tests := []struct {
		name          string
		e             Entry
		request, resp string
	}{
		{"accepted form", f[0],
			`{"message":"Deploy to production?","mode":"form","requestedSchema":{"type":"object","properties":{"confirm":{"type":"boolean"}}}}`,
			`{"action":"accept","content":{"confirm":true}}`},
		{"declined", f[1], `{"message":"Delete the folder café?","mode":"form","requestedSchema":{"type":"object","properties":{}}}`,
			`{"action":"decline"}`},
		{"stale url", f[2], `{"message":"Sign in to continue","mode":"url","url":"https://auth.example.com/login?state=xyz"}`,
			`{"sent":false,"reason":"the server cancelled the request"}`},
		{"cancelled", f[3], "", `{"action":"cancel"}`},
		{"rate limited is an error", f[5], "", `{"error":{"code":-32000,"message":"more than 30 requests a minute"}}`},
		{"error", f[6], "", `{"error":{"code":-32602,"message":"nested objects are not allowed"}}`},
		{"app quit is a cancel", Entry{Outcome: AppQuit}, "", `{"action":"cancel"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(tt.e.Request()); tt.request != "" && got != tt.request {
				t.Errorf("Request() = %s\nwant %s", got, tt.request)
			}
			if got := string(tt.e.Response()); got != tt.resp {
				t.Errorf("Response() = %s\nwant %s", got, tt.resp)
			}
		})
	}
}

// TestEntryJSON pins the keys of an exported entry, which scripts read.
func TestEntryJSON(t *testing.T) {
	e := fixtures()[0]
	e.ID = 42
	raw, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":42,"server":{"name":"deployer","target":"npx deployer","reported":{"name":"deploy-bot","title":"Deploy Bot","version":"2.1"}},` +
		`"message":"Deploy to production?","mode":"form","requestedSchema":{"type":"object","properties":{"confirm":{"type":"boolean"}}},` +
		`"outcome":"accepted","content":{"confirm":true},"received":"2026-03-01T09:00:00Z","answered":"2026-03-01T09:01:00Z"}`
	if string(raw) != want {
		t.Errorf("got  %s\nwant %s", raw, want)
	}
	e.Answered = time.Time{}
	if raw, _ := json.Marshal(e); strings.Contains(string(raw), "answered") {
		t.Errorf("an unknown answer time is written: %s", raw)
	}
	e.Server.Machine = "devbox"
	if raw, _ := json.Marshal(e); !strings.Contains(string(raw), `"reported":{"name":"deploy-bot","title":"Deploy Bot","version":"2.1"},"machine":"devbox"}`) {
		t.Errorf("the machine is not written: %s", raw)
	}
}
