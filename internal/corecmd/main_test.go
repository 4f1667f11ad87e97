package corecmd

import (
	"strings"
	"testing"
)

// TestMainRefuses: elicitdesk-core run by hand, without the app's binary
// that hands the app over, or with a command line the app's binary would
// not have passed, says so and exits 2 before it starts anything.
func TestMainRefuses(t *testing.T) {
	for _, tt := range []struct {
		name, app string
		args      []string
		want      string
	}{
		{"run by hand", "", nil, "run elicitdesk"},
		{"a flag it does not know", "/usr/bin/elicitdesk", []string{"-bogus"}, "checks the app's command line"},
		{"an argument", "/usr/bin/elicitdesk", []string{"servers"}, "checks the app's command line"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(AppEnv, tt.app)
			var stdout, stderr strings.Builder
			if code := Main(tt.args, &stdout, &stderr); code != 2 {
				t.Errorf("Main(%q) = %d, want 2", tt.args, code)
			}
			if !strings.Contains(stderr.String(), tt.want) || stdout.Len() != 0 {
				t.Errorf("Main(%q) printed %q and %q on stderr, want %q there alone", tt.args, stdout.String(), stderr.String(), tt.want)
			}
		})
	}
}
