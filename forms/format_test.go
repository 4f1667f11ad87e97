package forms

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// TestFormatsAgreeWithTheSDK holds the form's format checks against the
// TypeScript SDK's own (a real peer, through Node): a value the form
// passes, the SDK's servers must take, or the person's answer fails the
// tool call. The form may refuse more (its JSON Schema library is
// stricter elsewhere), but never less. Each value of testdata/sdk is
// tried, and each with the characters a URI or an address may not hold
// put in at its start, middle and end.
func TestFormatsAgreeWithTheSDK(t *testing.T) {
	peers := os.Getenv("ELICITDESK_PEERS")
	if peers == "" {
		t.Skip("ELICITDESK_PEERS is not set: make test installs the peers (the MCP TypeScript SDK) and sets it")
	}
	var corpus map[string][]string
	if err := json.Unmarshal(readFile(t, "testdata/sdk/values.json"), &corpus); err != nil {
		t.Fatal(err)
	}
	if len(corpus) != len(formatHints) {
		t.Fatalf("testdata/sdk/values.json has %d formats, the form checks %d", len(corpus), len(formatHints))
	}
	for format, values := range corpus {
		values = slices.Clone(values)
		for _, v := range corpus[format] {
			for _, c := range []string{" ", "\"", "<", "\\", "^", "`", "{", "é", "\u212a", "\u00a0", "\x00", "\n", "%", "@", ":", "#", "[", "."} {
				r := []rune(v) // split at a letter, not inside one
				values = append(values, c+v, string(r[:len(r)/2])+c+string(r[len(r)/2:]), v+c)
			}
		}
		sdk := sdkVerdicts(t, peers, format, values)
		taken, refused := 0, 0
		for i, v := range values {
			mine := validFormat(format, v)
			if mine && !sdk[i] {
				t.Errorf("%s %q: the form passes it, the SDK's servers refuse it", format, v)
			}
			if mine {
				taken++
			} else if sdk[i] {
				refused++
			}
		}
		t.Logf("%s: %d values, %d taken by both, %d taken by the SDK only", format, len(values), taken, refused)
	}
}

// sdkVerdicts checks values against format as the SDK's servers do.
func sdkVerdicts(t *testing.T, peers, format string, values []string) []bool {
	t.Helper()
	in, err := json.Marshal(map[string]any{"format": format, "values": values})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(peers, ".bin", "node"), "testdata/sdk/check.mjs")
	cmd.Env = append(os.Environ(), "ELICITDESK_PEERS="+peers)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the SDK's check: %v\n%s", err, stderr.Bytes())
	}
	var verdicts []bool
	if err := json.Unmarshal(out, &verdicts); err != nil || len(verdicts) != len(values) {
		t.Fatalf("the SDK's check printed %q (%v), want %d verdicts", out, err, len(values))
	}
	return verdicts
}

// TestNearFormat: a slip for one of the spec's formats is named; another
// format is not taken for one.
func TestNearFormat(t *testing.T) {
	for s, want := range map[string]string{
		"emial": FormatEmail, "E-mail": FormatEmail, "date_time": FormatDateTime, "DateTime": FormatDateTime,
		"datetime": FormatDateTime, "url": "", "hostname": "", "time": "", "uuid": "", "dates": FormatDate,
	} {
		if got := nearFormat(s); got != want {
			t.Errorf("nearFormat(%q) = %q, want %q", s, got, want)
		}
	}
}
