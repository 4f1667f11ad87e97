package servers

import (
	"encoding/json"
	"fmt"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
)

// URLElicitations returns the URL elicitations of a -32042 URLElicitationRequiredError,
// checked like any URL-mode request so a bad link is never shown; ok is
// false when err is some other error. Elicitations that fail the check are
// left out and reported in bad.
func URLElicitations(err error) (links []Params, bad []error, ok bool) {
	e := jsonrpc.As(err)
	if e == nil || e.Code != jsonrpc.CodeURLRequired {
		return nil, nil, false
	}
	var data struct {
		Elicitations []json.RawMessage `json:"elicitations"`
	}
	if uerr := json.Unmarshal(e.Data, &data); uerr != nil && len(e.Data) > 0 {
		return nil, []error{fmt.Errorf("the error's data: %w", uerr)}, true
	}
	for i, raw := range data.Elicitations {
		var mode struct {
			Mode *string `json:"mode"`
		}
		json.Unmarshal(raw, &mode)
		if mode.Mode == nil { // the error only carries URL elicitations
			var obj map[string]json.RawMessage
			if json.Unmarshal(raw, &obj) == nil {
				obj["mode"] = json.RawMessage(`"url"`)
				raw, _ = json.Marshal(obj)
			}
		}
		p, perr := ParseParams(raw)
		switch {
		case perr != nil:
			bad = append(bad, fmt.Errorf("elicitation %d: %w", i+1, perr))
		case p.Mode != ModeURL:
			bad = append(bad, fmt.Errorf("elicitation %d is in %s mode, not url", i+1, p.Mode))
		default:
			links = append(links, p)
		}
	}
	return links, bad, true
}
