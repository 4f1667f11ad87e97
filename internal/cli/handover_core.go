//go:build headless && core

package cli

import (
	"errors"
	"os"
)

// coreOnly: the core's own executable runs the app command alone, which
// the app's binary handed over; it leaves the others out.
const coreOnly = true

// handOver is done: this is the core's own executable, and the app's
// binary that handed over to it is in appEnv, which its children do not
// inherit.
func handOver([]string) (string, error) {
	exe := os.Getenv(appEnv)
	os.Unsetenv(appEnv)
	if exe == "" {
		return "", errors.New(coreName + " is started by elicitdesk, which it starts for the windows: run elicitdesk")
	}
	return exe, nil
}
