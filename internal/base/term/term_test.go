package term

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestJSON prints values as a script reads them and a person sees them:
// indented, "<", ">" and "&" as written, a server's raw JSON the same.
func TestJSON(t *testing.T) {
	for _, tt := range []struct {
		v    any
		want string
	}{
		{map[string]string{"message": "expected number to be <= 5 & > 1"}, "{\n  \"message\": \"expected number to be <= 5 & > 1\"\n}\n"},
		{json.RawMessage(`{"a":["<b>"]}`), "{\n  \"a\": [\n    \"<b>\"\n  ]\n}\n"},
	} {
		var out bytes.Buffer
		if err := To(&out).JSON(tt.v); err != nil {
			t.Fatal(err)
		}
		if out.String() != tt.want {
			t.Errorf("printed %q, want %q", out.String(), tt.want)
		}
	}
}

// TestLines prints another program's lines through the Line view, cut at
// the bound, however its writes split them.
func TestLines(t *testing.T) {
	tests := []struct {
		name   string
		writes []string
		want   string
	}{
		{"lines", []string{"one\ntwo\n"}, "one\ntwo\n"},
		{"split across writes", []string{"on", "e\nt", "wo\n"}, "one\ntwo\n"},
		{"escape sequences", []string{"\x1b[2J\x07ok\n"}, "⟨U+001B⟩[2J⟨U+0007⟩ok\n"},
		{"a CRLF end", []string{"windows\r\n"}, "windows\n"},
		{"a carriage return inside", []string{"safe\rEVIL\n"}, "safe⟨U+000D⟩EVIL\n"},
		{"bidi", []string{"a\u202eb\n"}, "a⟨U+202E⟩b\n"},
		{"cut, the rest dropped", []string{"0123456789abc", "def\nnext\n"}, "0123456789…\nnext\n"},
		{"cut at a rune's start", []string{"012345678é\n"}, "012345678…\n"},
		{"at the bound", []string{"0123456789\n"}, "0123456789\n"},
		{"no newline at the end", []string{"last words"}, "last words\n"},
		{"nothing", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			l := To(&out).Lines(10)
			for _, w := range tt.writes {
				if n, err := l.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v", w, n, err)
				}
			}
			l.Flush()
			if out.String() != tt.want {
				t.Errorf("printed %q, want %q", out.String(), tt.want)
			}
		})
	}
}

// TestColumnsAcrossBatches: rows printed a batch at a time keep the
// columns of the batches before, widening where a later cell is wider;
// a cell's escape is shown, and counted, as the Line view shows it.
func TestColumnsAcrossBatches(t *testing.T) {
	var out bytes.Buffer
	c := To(&out).Columns()
	c.Rows([][]any{{"12:00:01", "demo", "tools/call"}, {"12:00:02", "a", "ping"}})
	c.Rows([][]any{{"12:00:03", "b", "ping"}})
	c.Rows([][]any{{"12:00:04", "demo\x1b", "x"}})
	want := "12:00:01  demo  tools/call\n" +
		"12:00:02  a     ping\n" +
		"12:00:03  b     ping\n" +
		"12:00:04  demo⟨U+001B⟩  x\n"
	if out.String() != want {
		t.Errorf("printed\n%s\nwant\n%s", out.String(), want)
	}
}
