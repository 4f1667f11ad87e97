package servers

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
)

func TestURLElicitations(t *testing.T) {
	data := json.RawMessage(`{"elicitations":[` +
		`{"mode":"url","message":"Sign in","url":"https://example.com/login?s=1","elicitationId":"e1"},` +
		`{"message":"Pay","url":"https://example.com/pay","elicitationId":"e2"},` +
		`{"mode":"url","message":"Bad","url":"/relative","elicitationId":"e3"},` +
		`{"mode":"form","message":"Form","requestedSchema":{"type":"object","properties":{}}}]}`)
	wrapped := fmt.Errorf("calling: %w", &jsonrpc.Error{Code: jsonrpc.CodeURLRequired, Message: "sign in first", Data: data})
	links, bad, ok := URLElicitations(wrapped)
	if !ok {
		t.Fatal("a wrapped URLElicitationRequiredError was not recognised")
	}
	want := []Params{
		{Mode: ModeURL, Message: "Sign in", URL: "https://example.com/login?s=1", ElicitationID: "e1"},
		{Mode: ModeURL, Message: "Pay", URL: "https://example.com/pay", ElicitationID: "e2"},
	}
	if !reflect.DeepEqual(links, want) {
		t.Errorf("links = %+v\nwant %+v", links, want)
	}
	if len(bad) != 2 {
		t.Errorf("bad = %v, want the relative URL and the form refused", bad)
	}

	for _, err := range []error{nil, errors.New("boom"), &jsonrpc.Error{Code: jsonrpc.CodeUnsupportedVersion, Message: "x"}} {
		if _, _, ok := URLElicitations(err); ok {
			t.Errorf("URLElicitations(%v) took it for -32042", err)
		}
	}
}
