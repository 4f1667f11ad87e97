//go:build headless && core

package cli

import (
	"errors"
	"os"
)

// coreOnly: the core's own executable runs the app command alone, which
// the app's binary handed over; it leaves the others out.
const coreOnly = true

// handOver was done by the app's binary, which named itself in appEnv:
// the core returns it, and takes it out of the environment its children
// inherit.
func handOver([]string, terminal) (string, error) {
	exe := os.Getenv(appEnv)
	os.Unsetenv(appEnv)
	if exe == "" {
		return "", errors.New(coreName + " runs when elicitdesk hands the app over to it: run elicitdesk")
	}
	return exe, nil
}
