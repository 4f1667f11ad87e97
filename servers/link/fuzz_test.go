package link

import (
	"bytes"
	"io"
	"testing"
)

// FuzzLines reads whatever a peer may send: every line is a Message whose
// Raw parses to the same envelope, or a *BadMessage; nothing panics.
func FuzzLines(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"a","result":{}}` + "\n" + `{"method":"n"}`,
		`{"id":null,"error":{"code":1}}`, "\n\n[1,2]\n", `{"id":1}`, "{\n}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l := NewLines(bytes.NewReader(data), nopWriter{})
		for {
			m, err := l.Read()
			if err == io.EOF {
				return
			}
			if err != nil {
				if _, ok := err.(*BadMessage); !ok {
					t.Fatalf("Read: %v", err)
				}
				continue
			}
			again, err := Parse(m.Raw)
			if err != nil || again.Method != m.Method || again.Key() != m.Key() {
				t.Fatalf("%q reads back as %+v, %v", m.Raw, again, err)
			}
		}
	})
}

type nopWriter struct{}

func (nopWriter) Write(p []byte) (int, error) { return len(p), nil }
func (nopWriter) Close() error                { return nil }
