package history

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestLimitsCheck runs the cases of testdata/limits.json: limits in, the
// bound they break (or none) out.
func TestLimitsCheck(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "limits.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name           string
		RetentionHours int64
		MaxBytes       int64
		Want           string // "", "retention" or "size"
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	wants := map[string]error{"": nil, "retention": ErrRetention, "size": ErrSize}
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			want, ok := wants[tt.Want]
			if !ok {
				t.Fatalf("want %q: not a bound", tt.Want)
			}
			l := Limits{Retention: time.Duration(tt.RetentionHours) * time.Hour, MaxBytes: tt.MaxBytes}
			if err := l.Check(); !errors.Is(err, want) {
				t.Errorf("%+v: Check() = %v, want %v", l, err, want)
			}
		})
	}
}

// TestDefaultsWithinLimits: the history's defaults pass its own check.
func TestDefaultsWithinLimits(t *testing.T) {
	if err := (Limits{Retention: DefaultRetention, MaxBytes: DefaultMaxBytes}).Check(); err != nil {
		t.Error(err)
	}
}
