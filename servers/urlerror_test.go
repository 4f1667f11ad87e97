package servers

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/tidwall/gjson"
)

func TestURLRequired(t *testing.T) {
	data := `{"elicitations":[
		{"mode":"url","message":"Sign in","url":"https://example.com/login?s=1","elicitationId":"e1"},
		{"message":"Pay","url":"https://example.com/pay","elicitationId":"e2"},
		{"mode":"url","message":"Bad","url":"/relative","elicitationId":"e3"},
		{"mode":"form","message":"Form","requestedSchema":{"type":"object","properties":{}}}
	]}`
	wrapped := fmt.Errorf("calling: %w", &jsonrpc.Error{Code: jsonrpc.CodeURLRequired, Message: "Open these first", Data: json.RawMessage(data)})
	ue, ok := AsURLRequired(wrapped)
	if !ok {
		t.Fatal("a wrapped -32042 error was not recognised")
	}
	if ue.Message != "Open these first" || len(ue.Elicitations) != 4 {
		t.Fatalf("read %+v", ue)
	}
	links, bad := ue.Links()
	want := []Params{
		{Mode: ModeURL, Message: "Sign in", URL: "https://example.com/login?s=1", ElicitationID: "e1"},
		{Mode: ModeURL, Message: "Pay", URL: "https://example.com/pay", ElicitationID: "e2"},
	}
	for i := range links { // each link's params as the windows get them: url mode named
		if mode := gjson.GetBytes(links[i].Raw, "mode").String(); mode != "url" {
			t.Errorf("link %d's params %s, want mode url", i, links[i].Raw)
		}
		links[i].Raw = nil
	}
	if !reflect.DeepEqual(links, want) {
		t.Errorf("links = %+v\nwant %+v", links, want)
	}
	if len(bad) != 2 {
		t.Errorf("bad = %v, want the relative URL and the form refused", bad)
	}

	for _, err := range []error{
		nil,
		errors.New("boom"),
		&jsonrpc.Error{Code: jsonrpc.CodeUnsupportedVersion, Message: "x"},
	} {
		if _, ok := AsURLRequired(err); ok {
			t.Errorf("AsURLRequired(%v) took it for -32042", err)
		}
	}

	for _, data := range []string{``, `null`, `[1]`, `{"elicitations":"no"}`} {
		ue, ok := AsURLRequired(&jsonrpc.Error{Code: jsonrpc.CodeURLRequired, Message: "m", Data: json.RawMessage(data)})
		if !ok || len(ue.Elicitations) != 0 {
			t.Errorf("data %q: %+v %v, want the error with no elicitations", data, ue, ok)
		}
	}
}
