package trust

import (
	"testing"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/servers"
)

func TestIdentityWarnings(t *testing.T) {
	var cases []struct {
		Name    string
		Who     servers.Identity
		Message untrusted.Text
		Others  []servers.Identity
		Want    [][]string // the parts each warning must hold, in order
	}
	readJSON(t, "identity.json", &cases)
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			got := IdentityWarnings(tt.Who, tt.Message, tt.Others)
			if len(got) != len(tt.Want) {
				t.Fatalf("IdentityWarnings = %q, want %d", got, len(tt.Want))
			}
			for i, w := range got {
				if part, ok := missing(w, tt.Want[i]...); ok {
					t.Errorf("warning %d = %q, want it to say %q", i, w, part)
				}
			}
		})
	}
}
