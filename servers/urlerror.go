package servers

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
)

// URLElicitations returns the URL elicitations of a -32042 URLElicitationRequiredError,
// checked like any URL-mode request so a bad link is never shown; ok is
// false when err is some other error. Elicitations that fail the check are
// left out and reported in bad.
func URLElicitations(err error) (links []Params, bad []error, ok bool) {
	var ue mcp.URLElicitationRequiredError
	if !errors.As(err, &ue) {
		return nil, nil, false
	}
	for i, e := range ue.Elicitations {
		if e.Mode == "" {
			e.Mode = string(ModeURL) // the error only carries URL elicitations
		}
		raw, merr := json.Marshal(e)
		p, perr := ParseParams(raw)
		switch {
		case merr != nil:
			bad = append(bad, fmt.Errorf("elicitation %d: %w", i+1, merr))
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
