package traffic

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// capturedConversation is testdata/conversation.json as a capture keeps
// it: entries and bodies.
func capturedConversation(t *testing.T) []CaptureLine {
	r, f, l := tapped(0)
	path, capture := captured(t, r, DefaultCaptureLimits)
	var c struct{ Steps []step }
	readJSON(t, "conversation.json", &c)
	for _, s := range c.Steps {
		pass(t, f, l, s.Dir, s.Raw)
	}
	flushed(t, capture)
	lines, err := ReadCapture(path, 0, time.Now())
	if err != nil || len(lines) != len(c.Steps) {
		t.Fatalf("%d lines, %v", len(lines), err)
	}
	return lines
}

// TestHAR: each request is an entry with its answer, its latency as the
// entry's time, the HTTP status and headers it came with; a notification
// has no answer; an answer whose request was not recorded stands alone. The file passes har-validator, the HAR
// 1.2 schema's checker.
func TestHAR(t *testing.T) {
	lines := capturedConversation(t)
	lines = append(lines, CaptureLine{Entry: Entry{Seq: 99, Time: lines[0].Time, Server: "demo", Dir: FromServer, Kind: Result,
		Method: "tools/list", ID: "404", Latency: 3 * time.Millisecond, Size: 40, Status: 200},
		Header: http.Header{"Content-Type": {"application/json"}, "Mcp-Session-Id": {"s-1"}}})
	har, err := HAR(lines, "Elicit Desk", "test")
	if err != nil {
		t.Fatal(err)
	}
	entries := gjson.GetBytes(har, "log.entries").Array()
	requests := 0
	for _, l := range lines {
		if l.Kind == Request || l.Kind == Notification {
			requests++
		}
	}
	// Two answers stand alone: the conversation's second to id 1, and the
	// one added.
	if len(entries) != requests+2 {
		t.Fatalf("%d entries for %d requests and notifications, and two lone answers", len(entries), requests)
	}
	for _, e := range entries {
		url := e.Get("request.url").String()
		if !strings.HasPrefix(url, "mcp://elicitdesk/demo/") {
			t.Errorf("url %q", url)
		}
		answered := e.Get("response.status").Int() != 0 || e.Get("response.statusText").String() == "cancelled"
		if answered && !e.Get("comment").Exists() && e.Get("time").Float() <= 0 {
			t.Errorf("an answered request without its time: %s", e.Raw)
		}
		if e.Get("_dir").String() == "" || e.Get("request.postData.text").Exists() && !json.Valid([]byte(e.Get("request.postData.text").String())) {
			t.Errorf("entry %s", e.Raw)
		}
	}
	if last := entries[len(entries)-1]; last.Get("request.url").String() != "mcp://elicitdesk/demo/tools/list" || last.Get("_dir").String() != "out" ||
		last.Get("comment").String() == "" || last.Get("time").Float() != 3 || last.Get("response.status").Int() != 200 ||
		last.Get("response.headers.#").Int() != 2 || last.Get("response.headers.1.name").String() != "Mcp-Session-Id" {
		t.Errorf("the lone answer's entry: %s", last.Raw)
	}
	validHAR(t, har)
}

// validHAR checks har with har-validator.
func validHAR(t *testing.T, har []byte) {
	t.Helper()
	peers := os.Getenv("ELICITDESK_PEERS")
	if peers == "" {
		t.Skip("ELICITDESK_PEERS is not set: make test installs the peers (har-validator) and sets it")
	}
	cmd := exec.Command(filepath.Join(peers, ".bin", "node"), "testdata/har-check.mjs")
	cmd.Env = append(os.Environ(), "ELICITDESK_PEERS="+peers)
	cmd.Stdin = bytes.NewReader(har)
	if out, err := cmd.CombinedOutput(); err != nil || strings.TrimSpace(string(out)) != "valid" {
		t.Errorf("har-validator: %v\n%s", err, out)
	}
}

func TestLatencies(t *testing.T) {
	var entries []Entry
	for i := range 100 {
		kind := Result
		if i%10 == 0 {
			kind = Error
		}
		failed := i%25 == 1 // a result that says the tool failed
		entries = append(entries, Entry{Kind: kind, Method: "tools/call", Tool: "slow", ToolFailed: failed, Latency: time.Duration(i+1) * time.Millisecond})
	}
	entries = append(entries,
		Entry{Kind: Result, Method: "ping", Latency: time.Millisecond},
		Entry{Kind: Cancel, Method: "ping", Latency: 2 * time.Millisecond},
		Entry{Kind: Result, Method: "ping"},              // its request was not seen
		Entry{Kind: Request, Method: "ping", Latency: 5}, // not an answer
	)
	got := Latencies(entries)
	want := []Latency{
		{Method: "tools/call", Tool: "slow", Count: 100, Errors: 10, ToolFailed: 4, P50: 50 * time.Millisecond, P95: 95 * time.Millisecond, P99: 99 * time.Millisecond, Slowest: 100 * time.Millisecond},
		{Method: "ping", Count: 2, Errors: 1, P50: time.Millisecond, P95: 2 * time.Millisecond, P99: 2 * time.Millisecond, Slowest: 2 * time.Millisecond},
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	if cells := strings.Split(got[0].Row(), "\t"); cells[3] != "14" {
		t.Errorf("FAILED of %q: %s, want the errors and the tools' failures, 14", got[0].Row(), cells[3])
	}
}
