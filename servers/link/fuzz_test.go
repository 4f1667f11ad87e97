package link

import (
	"bytes"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
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

// FuzzEvents reads an event stream as a server may send it, whole and a
// byte at a time: both read the same events, each within its bounds, and
// end the same way; nothing panics.
func FuzzEvents(f *testing.F) {
	for _, s := range []string{
		"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n",
		"id: 7\nevent: message\ndata: a\ndata: b\n\n: keep-alive\n\n",
		"retry: 1500\nid\n\n", "data\r\n\r\n", "id: a\x00b\ndata: x\n\n", "data: cut off",
	} {
		f.Add([]byte(s))
	}
	read := func(r io.Reader) ([]event, error) {
		er := newEventReader(r)
		var evs []event
		for {
			ev, err := er.next()
			if err != nil {
				return evs, err
			}
			ev.env = nil // how it keeps a large event's head; compared by Data and Size
			evs = append(evs, ev)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		whole, err := read(bytes.NewReader(data))
		bytewise, err2 := read(iotest.OneByteReader(bytes.NewReader(data)))
		if !reflect.DeepEqual(whole, bytewise) || err != err2 {
			t.Fatalf("read whole: %+v, %v; a byte at a time: %+v, %v", whole, err, bytewise, err2)
		}
		if err != io.EOF && err != io.ErrUnexpectedEOF {
			t.Fatalf("the stream ended with %v", err)
		}
		for _, ev := range whole {
			if len(ev.Data) > MaxMessage || ev.Size < len(ev.Data) || strings.ContainsRune(ev.ID, 0) {
				t.Fatalf("event %q: %d bytes of data, size %d", ev.ID, len(ev.Data), ev.Size)
			}
		}
	})
}

// FuzzBody reads an HTTP body as a server or a host may send it: each
// message it gives parses back to the same envelope, each error is a
// *BadMessage, and nothing panics.
func FuzzBody(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b"},3]`,
		` [] `, `[`, `{"id":[1]}`, "",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ms, errs := parseBody(data)
		for _, m := range ms {
			again, err := Parse(m.Raw)
			if err != nil || again.Method != m.Method || again.Key() != m.Key() {
				t.Fatalf("%q reads back as %+v, %v", m.Raw, again, err)
			}
		}
		for _, err := range errs {
			if _, ok := err.(*BadMessage); !ok {
				t.Fatalf("parseBody: %v is no *BadMessage", err)
			}
		}
	})
}
