package trust

import (
	"testing"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

func TestInspectLink(t *testing.T) {
	var cases []struct {
		Raw                   string
		Before, Domain, After string
		Host                  string
		Openable              bool
		Err                   string   // part of the error; "" for none
		Warnings              []string // part of each warning, in order
	}
	readJSON(t, "links.json", &cases)
	for _, tt := range cases {
		t.Run(tt.Raw, func(t *testing.T) {
			l := InspectLink(untrusted.Text(tt.Raw))
			if l.Before != tt.Before || l.Domain != tt.Domain || l.After != tt.After {
				t.Errorf("split = %q | %q | %q, want %q | %q | %q", l.Before, l.Domain, l.After, tt.Before, tt.Domain, tt.After)
			}
			if l.Display != l.Before+l.Domain+l.After {
				t.Errorf("Display %q is not Before+Domain+After", l.Display)
			}
			if l.Host != tt.Host {
				t.Errorf("Host = %q, want %q", l.Host, tt.Host)
			}
			if l.Openable != tt.Openable {
				t.Errorf("Openable = %v, want %v", l.Openable, tt.Openable)
			}
			switch {
			case tt.Err == "" && l.Err != nil:
				t.Errorf("Err = %v, want none", l.Err)
			case tt.Err != "" && l.Err == nil:
				t.Errorf("Err = nil, want one with %q", tt.Err)
			case tt.Err != "":
				if part, ok := missing(l.Err.Error(), tt.Err); ok {
					t.Errorf("Err = %v, want it to say %q", l.Err, part)
				}
			}
			if len(l.Warnings) != len(tt.Warnings) {
				t.Fatalf("Warnings = %q, want %d", l.Warnings, len(tt.Warnings))
			}
			for i, w := range l.Warnings {
				if part, ok := missing(w, tt.Warnings[i]); ok {
					t.Errorf("warning %d = %q, want it to say %q", i, w, part)
				}
			}
		})
	}
}
