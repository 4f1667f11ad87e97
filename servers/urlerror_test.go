package servers

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

func TestURLElicitations(t *testing.T) {
	good := mcp.ElicitationParams{Mode: "url", Message: "Sign in", URL: "https://example.com/login?s=1", ElicitationID: "e1"}
	noMode := mcp.ElicitationParams{Message: "Pay", URL: "https://example.com/pay", ElicitationID: "e2"}
	relative := mcp.ElicitationParams{Mode: "url", Message: "Bad", URL: "/relative", ElicitationID: "e3"}
	form := mcp.ElicitationParams{Mode: "form", Message: "Form", RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{}}}

	wrapped := fmt.Errorf("calling: %w", mcp.URLElicitationRequiredError{Elicitations: []mcp.ElicitationParams{good, noMode, relative, form}})
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

	for _, err := range []error{nil, errors.New("boom"), mcp.UnsupportedProtocolVersionError{Version: "x"}} {
		if _, _, ok := URLElicitations(err); ok {
			t.Errorf("URLElicitations(%v) took it for -32042", err)
		}
	}
}
