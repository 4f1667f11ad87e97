package cli

import (
	"context"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// authScenario is a line of the suite's list naming an auth client
// scenario and the revisions it applies to: "  - auth/NAME [V1,V2]".
var authScenario = regexp.MustCompile(`(?m)^\s*- (auth/\S+) \[([0-9,-]+)\]$`)

// TestConformanceAuth runs every non-extension auth/* client scenario of
// the conformance suite, at every revision it applies to, against the
// CLI's sign-in and, through the bridge, the bridge's, which signs in for
// its host (testdata/conformance/client.sh maps them; curl is the
// browser). The scenarios come from the suite's own list, so one it adds
// is run, and fails here until it is mapped and passes.
func TestConformanceAuth(t *testing.T) {
	t.Parallel() // mostly waiting on the suite's servers
	dir := peers(t)
	if _, err := exec.LookPath("curl"); err != nil {
		t.Fatalf("the scenarios' browser is curl (make test-deps installs it): %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	list, err := conformance(ctx, dir, "list").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, list)
	}
	found := authScenario.FindAllStringSubmatch(string(list), -1)
	if len(found) == 0 {
		t.Fatalf("the suite lists no auth scenarios:\n%s", list)
	}
	for _, mode := range clientModes {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			start, runs := time.Now(), 0
			for _, m := range found {
				for _, spec := range strings.Split(m[2], ",") {
					runs++
					t.Run(m[1]+"@"+spec, func(t *testing.T) {
						t.Parallel() // each run has its own suite servers, ports and home
						out, err := runClient(t, dir, mode, "--scenario", m[1], "--spec-version", spec)
						if err != nil || !strings.Contains(out, "OVERALL: PASSED") {
							t.Fatalf("%v\n%s", err, out)
						}
						t.Logf("%s", lastLines(out, 3))
					})
				}
			}
			t.Cleanup(func() { // once every run ended
				t.Logf("%d scenarios, %d runs at their revisions, in %v", len(found), runs, time.Since(start).Round(time.Millisecond))
			})
		})
	}
}
