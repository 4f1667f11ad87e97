package demo

import (
	"bytes"
	"strings"
	"testing"
)

func TestWireRecordsTaggedRequests(t *testing.T) {
	var out bytes.Buffer
	w := newWire(&out)
	tagged := `{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"_meta":{"` + askMetaKey + `":"T1"},"message":"m"}}` + "\n"
	writes := []string{
		`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n",
		// A write that splits a line must still be seen whole.
		tagged[:20], tagged[20:],
		// The tag in anything but an elicitation/create is not a request to remember.
		`{"jsonrpc":"2.0","id":8,"result":{"text":"` + askMetaKey + `"}}` + "\n",
		`{"jsonrpc":"2.0","id":"s-9","method":"elicitation/create","params":{"_meta":{"` + askMetaKey + `":"T2"}}}` + "\n",
	}
	for _, s := range writes {
		if n, err := w.Write([]byte(s)); err != nil || n != len(s) {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	if got := out.String(); got != strings.Join(writes, "") {
		t.Errorf("the wire changed what passed through it:\n%s", got)
	}
	for tag, want := range map[string]string{"T1": "7", "T2": `"s-9"`} {
		if id, ok := w.requestID(tag); !ok || string(id) != want {
			t.Errorf("requestID(%s) = %s, %v; want %s", tag, id, ok, want)
		}
	}
	w.forget("T1")
	if _, ok := w.requestID("T1"); ok {
		t.Error("forget kept T1")
	}

	out.Reset()
	if err := w.notify("notifications/cancelled", map[string]any{"requestId": 7}); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`+"\n"; got != want {
		t.Errorf("notify wrote %q, want %q", got, want)
	}
}
