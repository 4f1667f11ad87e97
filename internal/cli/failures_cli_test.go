//go:build unix

package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicitdesk/elicitdesk/servers/signin"
)

// TestFailuresInPlainWords runs tools and call against servers that can't
// be reached or give up (testdata/failures.json; $ADDR is a loopback
// address nobody listens on): each says why in plain words, exits 1, and
// prints the error chain behind the words only under -v.
func TestFailuresInPlainWords(t *testing.T) {
	noApp(t)
	t.Setenv(signin.TokenFileEnv, filepath.Join(t.TempDir(), "signins.json")) // never the keyring
	raw, err := os.ReadFile(cli("failures.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name           string
		Args           []string
		Stderr, Absent []string
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			args := make([]string, len(c.Args))
			for i, a := range c.Args {
				args[i] = strings.ReplaceAll(a, "$ADDR", addr)
			}
			code, stdout, stderr := run(args...)
			if code != 1 || stdout != "" {
				t.Errorf("exit %d, stdout %q; want 1 and nothing", code, stdout)
			}
			for _, want := range c.Stderr {
				if want = strings.ReplaceAll(want, "$ADDR", addr); !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}
			for _, not := range c.Absent {
				if strings.Contains(stderr, not) {
					t.Errorf("stderr says %q:\n%s", not, stderr)
				}
			}
		})
	}
}
