package cli

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicitdesk/elicitdesk/internal/hosts"
)

// TestLintHosts runs lint -hosts over the forms corpus: the exit code is
// lint's own, every schema a window can show gets each recorded host's
// verdict, a fatal one none, and the words name every host.
func TestLintHosts(t *testing.T) {
	files, err := filepath.Glob("../../forms/testdata/schemas/*/*.json")
	if err != nil || len(files) < 100 {
		t.Fatalf("the corpus: %d files, %v", len(files), err)
	}
	known := hosts.FormSupports()
	for _, file := range files {
		var plain, out, stderr bytes.Buffer
		code := Run([]string{"lint", file}, nil, &plain, &stderr)
		if got := Run([]string{"lint", "-hosts", "-json", file}, nil, &out, &stderr); got != code {
			t.Errorf("%s: exit %d with -hosts, %d without", file, got, code)
			continue
		}
		if code == 2 {
			continue // not JSON: nothing to judge
		}
		var v struct {
			Hosts []hosts.FormVerdict
		}
		if err := json.Unmarshal(out.Bytes(), &v); err != nil {
			t.Fatalf("%s: %v: %s", file, err, out.Bytes())
		}
		switch {
		case code == 1 && len(v.Hosts) != 0:
			t.Errorf("%s: a fatal schema judged for %d hosts", file, len(v.Hosts))
		case code == 0 && len(v.Hosts) != len(known):
			t.Errorf("%s: %d verdicts for %d hosts", file, len(v.Hosts), len(known))
		}
		for _, h := range v.Hosts {
			if h.Shows == "" || h.Shows == "unknown" {
				t.Errorf("%s: %s: %q", file, h.Host.Name, h.Shows)
			}
		}
	}
	var out, stderr bytes.Buffer
	Run([]string{"lint", "-hosts", "../../forms/testdata/schemas/ok/hand-all-features.json"}, nil, &out, &stderr)
	for _, h := range known {
		if !strings.Contains(out.String(), h.Name) || !strings.Contains(out.String(), h.Date) {
			t.Errorf("%s or its date is not said: %s", h.Name, out.String())
		}
	}
}
