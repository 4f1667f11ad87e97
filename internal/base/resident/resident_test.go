package resident

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestDropStartupPages: the test binary's read-only pages leave its
// resident set, and the process runs on (its code comes back as used).
func TestDropStartupPages(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only Linux lets a process drop its pages from its resident set; elsewhere this does nothing")
	}
	before := fileRSS(t)
	if err := DropStartupPages(); err != nil {
		t.Fatal(err)
	}
	after := fileRSS(t)
	if after >= before {
		t.Errorf("file-backed RSS %d kB before, %d kB after: nothing dropped", before, after)
	}
	t.Logf("file-backed RSS %d kB → %d kB", before, after)
}

// fileRSS reads RssFile from /proc/self/status, in kB.
func fileRSS(t *testing.T) int {
	t.Helper()
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(raw)) {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "RssFile:" {
			n, err := strconv.Atoi(f[1])
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatal("no RssFile in /proc/self/status")
	return 0
}
