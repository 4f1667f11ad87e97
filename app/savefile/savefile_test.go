package savefile

import (
	"errors"
	"fmt"
	"testing"

	"github.com/elicitdesk/elicitdesk/internal/desktop/portal"
)

func TestAfter(t *testing.T) {
	tests := []struct {
		name string
		path string
		err  error
		want Step
	}{
		{"chosen", "/home/ada/h.jsonl", nil, WriteFile},
		{"cancelled", "", nil, Cancelled},
		{"no portal", "", fmt.Errorf("%w: ServiceUnknown", portal.ErrNoPortal), OwnDialog},
		{"the portal failed", "", errors.New("access denied"), Failed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := After(tt.path, tt.err); got != tt.want {
				t.Errorf("After(%q, %v) = %v, want %v", tt.path, tt.err, got, tt.want)
			}
		})
	}
}
