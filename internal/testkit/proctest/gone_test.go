package proctest

import (
	"os"
	"os/exec"
	"testing"
)

// TestGone: this process is not gone; a child that ended and was waited
// for is.
func TestGone(t *testing.T) {
	if Gone(os.Getpid()) {
		t.Error("this very process is taken for gone")
	}
	child := exec.Command(os.Args[0], "-test.run=^$")
	if err := child.Run(); err != nil {
		t.Fatal(err)
	}
	if !Gone(child.Process.Pid) {
		t.Errorf("process %d ended and was waited for, but is not taken for gone", child.Process.Pid)
	}
}
