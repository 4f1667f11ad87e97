package resident

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// TestDropKeepsWrittenPages: a read-only mapping whose page was written
// before it was made read-only (as the dynamic linker writes the GOT,
// then protects it) keeps what was written.
func TestDropKeepsWrittenPages(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "page")
	if err != nil {
		t.Fatal(err)
	}
	page := os.Getpagesize()
	if err := f.Truncate(int64(page)); err != nil {
		t.Fatal(err)
	}
	m, err := unix.Mmap(int(f.Fd()), 0, page, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(m)
	m[0] = 42 // a private copy, like a relocation
	if err := unix.Mprotect(m, unix.PROT_READ); err != nil {
		t.Fatal(err)
	}
	if err := DropStartupPages(); err != nil {
		t.Fatal(err)
	}
	if m[0] != 42 {
		t.Errorf("the written byte is %d after the drop, want 42", m[0])
	}
}
