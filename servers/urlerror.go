package servers

import (
	"encoding/json"
	"fmt"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
)

// URLRequiredError is a -32042 URLElicitationRequiredError (revision
// 2025-11-25): the server runs the call only once the person has opened
// the links its elicitations carry. Everything in it is the server's words.
type URLRequiredError struct {
	Message      string            // the error's message
	Elicitations []json.RawMessage // data.elicitations, each params as sent
}

// AsURLRequired reads the -32042 JSON-RPC error in err's chain; ok is
// false when err has none. Data that is not the error's shape reads as no
// elicitations, so the error is still shown.
func AsURLRequired(err error) (e *URLRequiredError, ok bool) {
	rpc := jsonrpc.As(err)
	if rpc == nil || rpc.Code != jsonrpc.CodeURLRequired {
		return nil, false
	}
	var data struct {
		Elicitations []json.RawMessage `json:"elicitations"`
	}
	_ = json.Unmarshal(rpc.Data, &data)
	return &URLRequiredError{Message: rpc.Message, Elicitations: data.Elicitations}, true
}

// Links checks each elicitation like any URL-mode request, so a bad link
// is never shown: those that fail the check are left out of links and
// reported in bad. An elicitation without a mode is a URL one, as the
// error carries only those.
func (e *URLRequiredError) Links() (links []Params, bad []error) {
	for i, raw := range e.Elicitations {
		p, err := ParseParams(urlModeByDefault(raw))
		switch {
		case err != nil:
			bad = append(bad, fmt.Errorf("elicitation %d: %w", i+1, err))
		case p.Mode != ModeURL:
			bad = append(bad, fmt.Errorf("elicitation %d is in %s mode, not url", i+1, p.Mode))
		default:
			links = append(links, p)
		}
	}
	return links, bad
}

// urlModeByDefault is raw with "mode": "url" when it names no mode; raw
// itself when it does, or is not an object (ParseParams then says why).
func urlModeByDefault(raw json.RawMessage) json.RawMessage {
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil || fields == nil {
		return raw
	}
	if _, ok := fields["mode"]; ok {
		return raw
	}
	fields["mode"] = json.RawMessage(`"url"`)
	out, err := json.Marshal(fields)
	if err != nil {
		return raw
	}
	return out
}
