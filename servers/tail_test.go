package servers

import (
	"io"
	"strings"
	"testing"
)

// TestTail: the tail keeps the last bytes written, however they come:
// written at once, in pieces, or read from the server's stderr as os/exec
// copies it (io.Copy takes ReadFrom).
func TestTail(t *testing.T) {
	text := strings.Repeat("0123456789", 1000) // 10,000 bytes
	for _, tt := range []struct {
		name  string
		write func(*tail)
	}{
		{"at once", func(t *tail) { t.Write([]byte(text)) }},
		{"in pieces", func(t *tail) {
			for rest := text; rest != ""; rest = rest[min(7, len(rest)):] {
				t.Write([]byte(rest[:min(7, len(rest))]))
			}
		}},
		{"copied", func(t *tail) { io.Copy(t, onlyReader{strings.NewReader(text)}) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tl := newTail(4096)
			tt.write(tl)
			if got, want := tl.String(), text[len(text)-4096:]; got != want {
				t.Errorf("kept %d bytes ending %q, want the last %d", len(got), got[max(0, len(got)-20):], len(want))
			}
		})
	}
	if _, ok := io.Writer(newTail(1)).(io.ReaderFrom); !ok {
		t.Error("the tail reads by itself: io.Copy would hold 32 kB for it")
	}
}

// onlyReader hides every method of its reader but Read, as os/exec's copy
// sees a pipe.
type onlyReader struct{ io.Reader }
