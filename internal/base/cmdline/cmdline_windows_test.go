package cmdline

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/windows"
)

// TestWindowsAgrees has Windows itself check both quotings' test data:
// syscall.EscapeArg quotes each argument as WindowsArg does, and
// CommandLineToArgvW reads each line as SplitWindows does.
func TestWindowsAgrees(t *testing.T) {
	for _, tc := range readJSONL[joinCase](t, "windows_join.jsonl") {
		for _, a := range tc.Args[1:] {
			if got, want := WindowsArg(a), syscall.EscapeArg(a); got != want {
				t.Errorf("WindowsArg(%q) = %s, syscall.EscapeArg %s", a, got, want)
			}
		}
		windowsReads(t, tc.Line, tc.Args)
	}
	for _, tc := range readJSONL[splitCase](t, "windows_split.jsonl") {
		if tc.Line != "" && strings.TrimLeft(tc.Line, " \t") == tc.Line { // Windows reads leading blanks as an empty program
			windowsReads(t, tc.Line, tc.Words)
		}
	}
}

// windowsReads fails t unless CommandLineToArgvW reads line as want.
func windowsReads(t *testing.T, line string, want []string) {
	t.Helper()
	got, err := windows.DecomposeCommandLine(line)
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("Windows reads %s as %q (%v), want %q", line, got, err, want)
	}
}

// TestLook looks names up in testdata, with the real exec.LookPath.
func TestLook(t *testing.T) {
	bin, err := filepath.Abs(filepath.Join("testdata", "bin"))
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "PATH="+bin)
	for _, tc := range []struct{ name, want string }{
		{"tool", filepath.Join(bin, "tool.cmd")},                  // PATHEXT, on the PATH before the folder
		{"both", filepath.Join(bin, "both.exe")},                  // PATHEXT's order
		{"local", filepath.Join("testdata", "work", "local.exe")}, // then the folder
	} {
		want, err := filepath.Abs(tc.want)
		if err != nil {
			t.Fatal(err)
		}
		if got := Look(tc.name, filepath.Join("testdata", "work"), env); !strings.EqualFold(got, want) {
			t.Errorf("Look(%q) = %q, want %q", tc.name, got, want)
		}
	}
	if got := Look("missing", "testdata", env); got != "missing" {
		t.Errorf(`Look("missing") = %q, want it back as it is, for exec`, got)
	}
}
