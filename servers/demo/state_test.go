package demo

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestRequestState(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	s := newStateSealer()
	good := s.seal(requestState{Tool: ToolInputRequired, Input: colorInput, Expires: now.Add(time.Minute).Unix()})

	st, err := s.open(good, ToolInputRequired, now)
	if err != nil || st.Input != colorInput {
		t.Fatalf("open(seal) = %+v, %v", st, err)
	}

	body, sig, _ := strings.Cut(good, ".")
	forged := newStateSealer().seal(requestState{Tool: ToolInputRequired, Input: colorInput, Expires: now.Add(time.Hour).Unix()})
	forgedBody, _, _ := strings.Cut(forged, ".")
	for name, tc := range map[string]struct {
		token, tool string
		at          time.Time
		want        string
	}{
		"other tool":        {good, ToolNeedsLink, now, "issued by tool"},
		"expired":           {good, ToolInputRequired, now.Add(2 * time.Minute), "expired"},
		"other key":         {forged, ToolInputRequired, now, "signature"},
		"body swapped":      {forgedBody + "." + sig, ToolInputRequired, now, "signature"},
		"signature dropped": {body, ToolInputRequired, now, "not a state"},
		"not base64":        {"!!!." + sig, ToolInputRequired, now, "signature"},
		"empty":             {"", ToolInputRequired, now, "not a state"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := s.open(tc.token, tc.tool, tc.at)
			if !errors.Is(err, errBadState) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("open = %v, want %v about %q", err, errBadState, tc.want)
			}
		})
	}
}
