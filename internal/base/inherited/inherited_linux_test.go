package inherited

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// TestSeal: a descriptor inherited without close-on-exec, as a host's
// leaked pipe, has it once sealed; stdin, stdout and stderr keep theirs.
func TestSeal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if _, err := unix.FcntlInt(w.Fd(), unix.F_SETFD, 0); err != nil { // as a host leaves it
		t.Fatal(err)
	}
	Seal()
	flags, err := unix.FcntlInt(w.Fd(), unix.F_GETFD, 0)
	if err != nil || flags&unix.FD_CLOEXEC == 0 {
		t.Errorf("the inherited pipe's flags are %#x (%v), want close-on-exec", flags, err)
	}
	for fd := range 3 {
		if flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err == nil && flags&unix.FD_CLOEXEC != 0 {
			t.Errorf("descriptor %d became close-on-exec", fd)
		}
	}
}
