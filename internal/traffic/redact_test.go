package traffic

import (
	"encoding/json"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// redactCase is one of testdata/redact.json: a message, the form it
// answers if any, and the person's patterns; what must not survive
// redaction, and what must.
type redactCase struct {
	Name     string
	Answer   bool // an elicitation's answer: its form, when given, was seen
	Message  json.RawMessage
	Form     json.RawMessage
	Patterns []string
	Secrets  []string
	Keep     []string
}

func readRedactCases(t testing.TB) []redactCase {
	raw, err := os.ReadFile("testdata/redact.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []redactCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

func TestRedact(t *testing.T) {
	for _, c := range readRedactCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			r, err := NewRedactor(c.Patterns)
			if err != nil {
				t.Fatal(err)
			}
			out := r.Redact(c.Message)
			if c.Answer {
				out = r.RedactAnswer(c.Message, c.Form, c.Form != nil)
			}
			if !json.Valid(out) {
				t.Fatalf("not JSON: %s", out)
			}
			for _, s := range c.Secrets {
				if strings.Contains(string(out), s) {
					t.Errorf("%q survived: %s", s, out)
				}
			}
			for _, s := range c.Keep {
				if !strings.Contains(string(out), s) {
					t.Errorf("%q is gone: %s", s, out)
				}
			}
		})
	}
}

func TestRedactKeepsWhatIsNotSecret(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1,"result":{"html":"<b>a & b</b>","n":1e400,"list":[true,null,{}],"ok":false}}`
	r, _ := NewRedactor(nil)
	if out := string(r.Redact([]byte(in))); out != in {
		t.Errorf("got  %s\nwant %s", out, in)
	}
}

func TestRedactNotJSON(t *testing.T) {
	r, _ := NewRedactor(nil)
	for _, in := range []string{`{"a":`, `{"a":1} {"b":2}`, `password=hunter2`, ``} {
		out := string(r.Redact([]byte(in)))
		if strings.Contains(out, "hunter2") || !strings.HasPrefix(out, `"[not JSON:`) {
			t.Errorf("%q: %s", in, out)
		}
	}
}

func TestRedactorPatterns(t *testing.T) {
	if _, err := NewRedactor([]string{"("}); err == nil || !strings.Contains(err.Error(), `"("`) {
		t.Errorf("a bad pattern: %v", err)
	}
}

// FuzzRedact: whatever a server sends, redaction gives valid JSON, and a
// password member's value never survives.
func FuzzRedact(f *testing.F) {
	for _, c := range readRedactCases(f) {
		f.Add([]byte(c.Message))
	}
	r, _ := NewRedactor(nil)
	f.Fuzz(func(t *testing.T, message []byte) {
		out := r.Redact(message)
		if !json.Valid(out) {
			t.Fatalf("not JSON: %q → %q", message, out)
		}
		var v struct {
			Password json.RawMessage `json:"password"`
		}
		if json.Unmarshal(out, &v) == nil && v.Password != nil && string(v.Password) != `"[redacted]"` {
			t.Fatalf("a password survived: %q → %q", message, out)
		}
	})
}

// BenchmarkRedact is what the capture's writer spends on a message: a
// tool call of about 1 KiB, and a result of 64 KiB.
func BenchmarkRedact(b *testing.B) {
	r, _ := NewRedactor([]string{"ACME-[0-9]+"})
	for _, size := range []int{900, 64 << 10} {
		msg := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"` + strings.Repeat("x", size) + `","token":"abc","n":12}}}`)
		b.Run(strconv.Itoa(size), func(b *testing.B) {
			b.SetBytes(int64(len(msg)))
			b.ReportAllocs()
			for b.Loop() {
				r.Redact(msg)
			}
		})
	}
}

// TestRedactHeader: a response's headers keep what a developer reads
// (content type, session, protocol version, a challenge's metadata) and
// lose what signs in: cookies, credentials, keys.
func TestRedactHeader(t *testing.T) {
	r, _ := NewRedactor([]string{"ACME-[0-9]+"})
	h := http.Header{
		"Authorization":        {"Bearer abc.def.ghi"},
		"Proxy-Authorization":  {"Basic dXNlcjpwYXNz"},
		"Cookie":               {"sid=1"},
		"Set-Cookie":           {"sid=2; HttpOnly", "theme=dark"},
		"X-Api-Key":            {"k-123456"},
		"Mcp-Session-Id":       {"5f1c2a9e-0b7d-4c1e-9a52-3b8f6d2e7c10"},
		"Content-Type":         {"text/event-stream"},
		"Mcp-Protocol-Version": {"2025-11-25"},
		"Location":             {"https://example.com/cb?code=0a0b0c&state=s1"},
		"X-Request-Id":         {"ACME-42"},
		"Www-Authenticate":     {`Bearer resource_metadata="https://example.com/.well-known/oauth-protected-resource"`},
	}
	got := r.RedactHeader(h)
	for name, want := range map[string][]string{
		"Authorization":        {Redacted},
		"Proxy-Authorization":  {Redacted},
		"Cookie":               {Redacted},
		"Set-Cookie":           {Redacted, Redacted},
		"X-Api-Key":            {Redacted},
		"Mcp-Session-Id":       {Redacted},
		"Content-Type":         {"text/event-stream"},
		"Mcp-Protocol-Version": {"2025-11-25"},
		"Location":             {"https://example.com/cb?code=" + Redacted + "&state=s1"},
		"X-Request-Id":         {Redacted},
		"Www-Authenticate":     h["Www-Authenticate"],
	} {
		if !slices.Equal(got[name], want) {
			t.Errorf("%s: %q, want %q", name, got[name], want)
		}
	}
	if !slices.Equal(h["Set-Cookie"], []string{"sid=2; HttpOnly", "theme=dark"}) {
		t.Error("the response's own headers changed")
	}

	many := http.Header{"Long": {strings.Repeat("é", maxHeaderValue)}}
	for i := range 2 * maxHeaderValues {
		many.Add("X-Many", strconv.Itoa(i))
	}
	got = r.RedactHeader(many)
	if n := len(got["Long"]) + len(got["X-Many"]); n != maxHeaderValues || len(got["Long"][0]) > maxHeaderValue+len("…") || !utf8.ValidString(got["Long"][0]) {
		t.Errorf("bounds: %d values, the long one %d bytes", n, len(got["Long"][0]))
	}
	if r.RedactHeader(nil) != nil {
		t.Error("no headers became some")
	}
}
