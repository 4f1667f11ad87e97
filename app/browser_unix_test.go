//go:build linux || freebsd || openbsd || netbsd

package app

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestXDGOpen runs a stand-in xdg-open: its failure is reported in words,
// its success and a browser still running in its foreground are not.
func TestXDGOpen(t *testing.T) {
	tests := []struct {
		name   string
		script string // the stand-in's body; "" for none installed
		err    string // "" for success
	}{
		{"opened", "exit 0", ""},
		{"no browser", "exit 3", "found no browser"},
		{"browser failed", "exit 4", "browser xdg-open started failed"},
		{"other failure", "exit 1", "xdg-open failed (exit status 1)"},
		// A browser run in the foreground, still running past the wait.
		{"still running", "exec /bin/sleep 1", ""},
		{"not installed", "", "not installed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Setenv("PATH", dir)
			if tt.script != "" {
				exe := filepath.Join(dir, "xdg-open")
				if err := os.WriteFile(exe, []byte("#!/bin/sh\n"+tt.script+"\n"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			u, _ := url.Parse("https://shop.example/login")
			wait := 10 * time.Second
			if strings.Contains(tt.script, "sleep") {
				wait = 50 * time.Millisecond // shorter than the stand-in runs
			}
			err := xdgOpen(u, wait)
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("error %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Errorf("error %v, want one saying %q", err, tt.err)
			}
		})
	}
}
