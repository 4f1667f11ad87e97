//go:build !headless

package cli

import (
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"github.com/go-gl/glfw/v3.4/glfw"
)

// panicApp is an app whose event loop panics with p.
type panicApp struct {
	fyne.App
	p any
}

func (a panicApp) Run() { panic(a.p) }

// TestRunDriverPanics checks that only GLFW's panics are taken for a lost
// display; any other panic goes on, a bug to see with its stack.
func TestRunDriverPanics(t *testing.T) {
	tests := []struct {
		name  string
		p     any
		repan bool
	}{
		{"GLFW error", &glfw.Error{Desc: "X11: connection lost"}, false},
		{"other error", errors.New("nil map"), true},
		{"string", "index out of range", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			repanicked := func() (r bool) {
				defer func() { r = recover() != nil }()
				err = runDriver(panicApp{p: tt.p})
				return false
			}()
			if repanicked != tt.repan {
				t.Fatalf("re-panicked %v, want %v", repanicked, tt.repan)
			}
			if !tt.repan && (err == nil || !strings.Contains(err.Error(), "lost the display")) {
				t.Fatalf("error %v, want one about the display", err)
			}
		})
	}
}
