package link

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/elicitdesk/elicitdesk/internal/testkit/leaktest"
)

// TestConformance runs the official conformance suite's server scenarios
// against server-everything, directly and through Listener, forwarder and
// StreamableClient, and fails where the bridge loses a check the server
// passes. It needs the peers (ELICITDESK_PEERS, which make test sets);
// ELICITDESK_CONFORMANCE_ARGS adds arguments, such as "--spec-version
// 2026-07-28".
func TestConformance(t *testing.T) {
	url := startEverything(t)
	defer leaktest.Check(t)()
	fw := startForwarder(t, url)
	defer fw.close()
	// The suite keeps the streams of some sessions open until it exits,
	// more than a bridge serves at once (TestListenerSessionLimit checks
	// that limit): here it is a host of many.
	fw.l.mu.Lock()
	fw.l.maxSessions = 100
	fw.l.mu.Unlock()

	direct := runConformance(t, url)
	bridged := runConformance(t, strings.Replace(fw.url(), "127.0.0.1", "localhost", 1))
	var keys []string
	for k := range direct {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	pass := map[string]int{}
	for _, k := range keys {
		d, b := direct[k], bridged[k]
		if d == "SUCCESS" {
			pass["direct"]++
		}
		if b == "SUCCESS" {
			pass["bridged"]++
		}
		switch {
		case d == b:
		case b == "SUCCESS":
			// The listener checks Origin, Host and session ids itself.
			t.Logf("%s: %s directly, %s through the bridge", k, d, b)
		default:
			t.Errorf("%s: %s directly, %s through the bridge", k, d, b)
		}
	}
	t.Logf("checks passed: %d of %d directly, %d through the bridge", pass["direct"], len(direct), pass["bridged"])
}

// resultStamp is the time the suite appends to a result directory's name.
var resultStamp = regexp.MustCompile(`-\d{4}-\d{2}-\d{2}T[\d-]+Z$`)

// runConformance runs the server scenarios against url and returns each
// check's status by scenario/check id.
func runConformance(t *testing.T, url string) map[string]string {
	t.Helper()
	peers := os.Getenv("ELICITDESK_PEERS")
	out := t.TempDir()
	args := []string{filepath.Join(peers, "@modelcontextprotocol/conformance/dist/index.js"), "server", "--url", url, "-o", out}
	args = append(args, strings.Fields(os.Getenv("ELICITDESK_CONFORMANCE_ARGS"))...)
	cmd := exec.Command(filepath.Join(peers, ".bin", "node"), args...)
	cmd.Env = append(os.Environ(), "PATH="+filepath.Join(peers, ".bin")+string(os.PathListSeparator)+os.Getenv("PATH"))
	log, _ := cmd.CombinedOutput() // it exits non-zero when any check fails
	files, _ := filepath.Glob(filepath.Join(out, "*", "checks.json"))
	if len(files) == 0 {
		t.Fatalf("no results from the conformance suite:\n%s", log)
	}
	res := make(map[string]string)
	for _, f := range files {
		scenario := strings.TrimPrefix(resultStamp.ReplaceAllString(filepath.Base(filepath.Dir(f)), ""), "server-")
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var checks []struct{ ID, Status, ErrorMessage string }
		if err := json.Unmarshal(b, &checks); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, c := range checks {
			res[scenario+"/"+c.ID] = c.Status
			if c.Status == "FAILURE" {
				t.Logf("%s: %s/%s: %s", url, scenario, c.ID, c.ErrorMessage)
			}
		}
	}
	return res
}
