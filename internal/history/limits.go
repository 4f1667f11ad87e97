package history

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// Limits are how long and how much the history keeps: the person's choice
// in the Settings window, which the core, the history's one writer,
// applies.
type Limits struct {
	Retention time.Duration // whole days, MinRetentionDays to MaxRetentionDays
	MaxBytes  int64         // one of SizeChoices
}

// The bounds of the retention, in days: so neither a typo nor a stray call
// keeps nothing, or keeps everything for ever.
const (
	MinRetentionDays = 1
	MaxRetentionDays = 3650
)

// Day is the retention's unit.
const Day = 24 * time.Hour

// SizeChoices are the sizes the history can be capped at, smallest first.
// None is unlimited: the cap keeps a flood of requests from filling the
// disk.
func SizeChoices() []int64 { return []int64{64 << 20, 256 << 20, 1 << 30} }

// Why Check refuses limits, in words the Settings window shows.
var (
	ErrRetention = fmt.Errorf("keep the history between %d and %d days, in whole days", MinRetentionDays, MaxRetentionDays)
	ErrSize      = errors.New("keep the history at 64 MB, 256 MB or 1 GB")
)

// Check returns ErrRetention or ErrSize when l is outside the bounds, nil
// when the history may be kept by it. The Settings window and the core
// both check with it, so what the window refuses the core refuses too.
func (l Limits) Check() error {
	switch {
	case l.Retention < MinRetentionDays*Day || l.Retention > MaxRetentionDays*Day || l.Retention%Day != 0:
		return ErrRetention
	case !slices.Contains(SizeChoices(), l.MaxBytes):
		return ErrSize
	}
	return nil
}
