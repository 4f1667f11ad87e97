package instance

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrg/xdg"
)

// TestDefaultPath checks where the socket goes with and without a usable
// runtime directory, with the environment in temporary directories.
func TestDefaultPath(t *testing.T) {
	var cases []struct {
		Name, Runtime, Want string
	}
	readJSON(t, "defaultpath.json", &cases)
	t.Cleanup(xdg.Reload) // registered first, so it runs once the variables are back
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			base, tmp := t.TempDir(), t.TempDir()
			for _, v := range []string{"TMPDIR", "TMP", "TEMP"} {
				t.Setenv(v, tmp)
			}
			runtime := map[string]string{
				"exists":  base,
				"missing": filepath.Join(base, "missing"),
				"long":    filepath.Join(base, strings.Repeat("d", maxPathLen)),
			}[tt.Runtime]
			if tt.Runtime != "missing" {
				if err := os.MkdirAll(runtime, 0o700); err != nil {
					t.Fatal(err)
				}
			}
			t.Setenv("XDG_RUNTIME_DIR", runtime)
			xdg.Reload()

			got := DefaultPath()
			want := filepath.Join(runtime, "elicitdesk.sock")
			if tt.Want == "temp" {
				want = filepath.Join(tmp, "elicitdesk.sock")
				if uid := os.Getuid(); uid >= 0 {
					want = filepath.Join(tmp, fmt.Sprintf("elicitdesk-%d.sock", uid))
				}
			}
			if got != want {
				t.Errorf("DefaultPath() = %s, want %s", got, want)
			}
			if err := checkPath(got); err != nil {
				t.Error(err)
			}
		})
	}
}
