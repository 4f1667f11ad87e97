//go:build !unix && !windows

package autostart

import (
	"errors"
	"fmt"
	"runtime"
)

// unsupported is what every call returns where there is no login to start
// at, such as in a browser.
func unsupported() error {
	return fmt.Errorf("autostart: not available on %s: %w", runtime.GOOS, errors.ErrUnsupported)
}

// Enable reports that launching at login is not available here.
func (e Entry) Enable() error { return unsupported() }

// Disable reports that launching at login is not available here.
func (e Entry) Disable() error { return unsupported() }

// Enabled reports that launching at login is not available here.
func (e Entry) Enabled() (bool, error) { return false, unsupported() }
