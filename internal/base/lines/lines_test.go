package lines

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
)

// TestRead reads each kind of line a peer may send, with a limit of 16.
func TestRead(t *testing.T) {
	long := strings.Repeat("a", 17)
	tests := []struct {
		name, in string
		want     []string // each line read, "too long: SIZE HEAD", or "cut: LINE" for one ending in io.ErrUnexpectedEOF
	}{
		{"one per line", "one\ntwo\n", []string{"one", "two"}},
		{"CRLF, blank lines and white space", "\r\n one \r\n\n\t\n", []string{"one"}},
		{"at the limit", strings.Repeat("b", 16) + "\n", []string{strings.Repeat("b", 16)}},
		{"over the limit, then on", long + "\nnext\n", []string{"too long: 17 " + long, "next"}},
		{"over the limit by its CR", strings.Repeat("c", 16) + "\r\nnext\n", []string{"too long: 17 " + strings.Repeat("c", 16), "next"}},
		{"last line without a newline", "one\ntwo", []string{"one", "cut: two"}},
		{"last line over the limit without a newline", long, []string{"too long: 17 " + long}},
		{"blank last line without a newline", "one\n  ", []string{"one"}},
		{"nothing", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tt.in), 16)
			var got []string
			for {
				line, err := r.Read()
				var long *TooLong
				switch {
				case errors.Is(err, io.EOF):
					if strings.Join(got, "|") != strings.Join(tt.want, "|") {
						t.Errorf("read %q, want %q", got, tt.want)
					}
					return
				case errors.As(err, &long):
					got = append(got, "too long: "+strconv.Itoa(long.Size)+" "+string(long.Head))
				case errors.Is(err, io.ErrUnexpectedEOF):
					got = append(got, "cut: "+string(line))
				case err != nil:
					t.Fatal(err)
				default:
					got = append(got, string(line))
				}
			}
		})
	}
}

// TestReadHoldsNoMoreThanTheLimit keeps only the head of a line far over
// the limit, and goes on after it.
func TestReadHoldsNoMoreThanTheLimit(t *testing.T) {
	const max = 1 << 20
	big := `{"id":5,"params":"` + strings.Repeat("a", 10*max) + `"}`
	r := NewReader(strings.NewReader(big+"\n{}\n"), max)
	_, err := r.Read()
	var long *TooLong
	if !errors.As(err, &long) || long.Size != len(big) || len(long.Head) != HeadSize || !strings.HasPrefix(string(long.Head), `{"id":5,`) {
		t.Fatalf("got %v, want the head of a %d-byte line", err, len(big))
	}
	if line, err := r.Read(); err != nil || string(line) != "{}" {
		t.Fatalf("after it: %q, %v", line, err)
	}
}

func TestWrite(t *testing.T) {
	tests := []struct {
		name, msg, want string
		bad             bool
	}{
		{"a message", `{"id":1}`, "{\"id\":1}\n", false},
		{"at the limit", strings.Repeat("x", 8), strings.Repeat("x", 8) + "\n", false},
		{"over the limit", strings.Repeat("x", 9), "", true},
		{"holding a newline", "{\n}", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			_, err := NewWriter(&out, 8).Write([]byte(tt.msg))
			if (err != nil) != tt.bad || out.String() != tt.want {
				t.Errorf("wrote %q, %v; want %q, an error: %v", out.String(), err, tt.want, tt.bad)
			}
		})
	}
}

// TestReadOver: Over sees every byte of a line over the limit, and
// nothing of the lines shorter than the limit.
func TestReadOver(t *testing.T) {
	long := strings.Repeat("a", 20) + "ID"
	r := NewReader(strings.NewReader("short\n"+long+"\nnext\n"), 16)
	var seen []byte
	r.Over = func(p []byte) { seen = append(seen, p...) }
	for {
		_, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
	}
	if string(seen) != long+"\n" {
		t.Errorf("Over saw %q, want %q", seen, long+"\n")
	}
}
