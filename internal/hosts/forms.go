package hosts

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// FormSupport is what one MCP host does with an elicitation's form, as
// forms.json records it: of which version, when, and from where.
type FormSupport struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Version string `json:"version"`
	Date    string `json:"date"`
	Source  string `json:"source"`
	// Form is renders, drops or undeclared; URL is opens, undeclared or
	// unknown.
	Form string `json:"form"`
	URL  string `json:"url"`
	// Fields says, by forms.Kind's name, input or approval (the kind
	// turns the whole form into an approve-or-decline prompt).
	Fields map[string]string `json:"fields,omitempty"`
	Note   string            `json:"note,omitempty"`
}

//go:embed forms.json
var formsJSON []byte

// FormSupports are the hosts forms.json records, in its order.
func FormSupports() []FormSupport {
	var f struct{ Hosts []FormSupport }
	if err := json.Unmarshal(formsJSON, &f); err != nil {
		panic("hosts/forms.json: " + err.Error()) // embedded and tested: cannot happen
	}
	return f.Hosts
}

// FormVerdict is what one host will do with one form.
type FormVerdict struct {
	Host FormSupport `json:"host"`
	// Shows is what the person gets, in words: "the form", "an
	// approve-or-decline prompt", "nothing", or "unknown".
	Shows string `json:"shows"`
	// Because are the fields that turn the form into an approve-or-decline
	// prompt, each quoted through untrusted with its kind: with them, every
	// field's value is lost.
	Because []string `json:"because,omitempty"`
	// Unknown are the fields of a kind the record does not name.
	Unknown []string `json:"unknown,omitempty"`
}

// Judge says what host s does with the form of schema.
func Judge(s *forms.Schema, h FormSupport) FormVerdict {
	v := FormVerdict{Host: h}
	switch h.Form {
	case "drops":
		v.Shows = "nothing: it drops the request, so the server gets no person's answer"
		return v
	case "undeclared":
		v.Shows = "nothing: it declares no elicitation, so a server that follows the spec must not ask it"
		return v
	case "renders":
	default:
		v.Shows = "unknown"
		return v
	}
	approval := false
	for _, f := range s.Fields {
		kind := f.Kind.String()
		switch h.Fields[kind] {
		case "input":
		case "approval":
			approval = true
			v.Because = append(v.Because, fmt.Sprintf("%s (%s)", untrusted.Text(f.Name).Quote(), kind))
		default:
			v.Unknown = append(v.Unknown, fmt.Sprintf("%s (%s)", untrusted.Text(f.Name).Quote(), kind))
		}
	}
	switch {
	case approval:
		v.Shows = "an approve-or-decline prompt: no field can be filled in, every value is lost, because of " + strings.Join(v.Because, ", ")
	case len(v.Unknown) > 0:
		v.Shows = "the form, but for fields of kinds not recorded: " + strings.Join(v.Unknown, ", ")
	default:
		v.Shows = "the form"
	}
	return v
}

// Lost says in a sentence what the host people know as name would have
// done with the form of s, had its server asked it directly rather than
// through Elicit Desk's bridge, where the person's answer would have been
// lost; "" where it shows the form, or forms.json has no record of it.
func Lost(name string, s *forms.Schema) string {
	for _, h := range FormSupports() {
		if h.Name != name {
			continue
		}
		v := Judge(s, h)
		switch {
		case h.Form == "drops":
			return "Without Elicit Desk, " + name + " drops this request."
		case h.Form == "undeclared":
			return "Without Elicit Desk, " + name + " takes no forms: its servers could not ask you."
		case len(v.Because) > 0:
			return "Without Elicit Desk, " + name + " would show only approve or decline: every value lost."
		}
		return ""
	}
	return ""
}
