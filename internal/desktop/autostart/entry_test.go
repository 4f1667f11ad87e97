//go:build unix || windows

package autostart

import "testing"

// TestEnableDisable goes through the whole life of each entry where the
// OS keeps it: Enable, Enabled, its content, Disable, Enabled again.
func TestEnableDisable(t *testing.T) {
	eachEntry(t, "entries.json", func(t *testing.T, e Entry, _ bool) {
		wantEnabled(t, e, false)
		if err := e.Disable(); err != nil {
			t.Errorf("Disable of a missing entry: %v", err)
		}
		for range 2 { // the second Enable replaces the first
			if err := e.Enable(); err != nil {
				t.Fatal(err)
			}
		}
		wantEnabled(t, e, true)
		if got, want := stored(t, e); got != want {
			t.Errorf("stored\n%s\nwant\n%s", got, want)
		}
		if err := e.Disable(); err != nil {
			t.Fatal(err)
		}
		wantEnabled(t, e, false)
	})
}

func TestInvalidEntry(t *testing.T) {
	eachEntry(t, "invalid.json", func(t *testing.T, e Entry, execOnly bool) {
		if err := e.Enable(); err == nil {
			t.Error("Enable accepted it")
		}
		if execOnly {
			return
		}
		if err := e.Disable(); err == nil {
			t.Error("Disable accepted it")
		}
		if _, err := e.Enabled(); err == nil {
			t.Error("Enabled accepted it")
		}
	})
}

// eachEntry runs test on every entry of testdata/name, each in a place of
// its own.
func eachEntry(t *testing.T, name string, test func(t *testing.T, e Entry, execOnly bool)) {
	var entries []namedEntry
	readJSON(t, name, &entries)
	for _, tt := range entries {
		t.Run(tt.Name, func(t *testing.T) {
			e := tt.Entry
			e.Dir = testLocation(t)
			test(t, e, tt.ExecOnly)
		})
	}
}

// wantEnabled fails t unless e.Enabled reports want.
func wantEnabled(t *testing.T, e Entry, want bool) {
	t.Helper()
	got, err := e.Enabled()
	if err != nil || got != want {
		t.Fatalf("Enabled() = %v, %v; want %v", got, err, want)
	}
}
