package signin

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
)

// sessionBus reports, on Linux and the BSDs, whether a session bus is
// known, without connecting: with none, the D-Bus library go-keyring uses
// would start one with dbus-launch, and leave it running, only to find no
// Secret Service on it.
func sessionBus() error { return sessionBusOn(runtime.GOOS) }

// sessionBusOn is sessionBus on the system goos names.
func sessionBusOn(goos string) error {
	switch goos {
	case "darwin", "windows":
		return nil
	}
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") != "" {
		return nil
	}
	if dir := os.Getenv("XDG_RUNTIME_DIR"); dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "bus")); err == nil {
			return nil
		}
	}
	return errors.New("no OS keyring here: there is no session bus for a Secret Service")
}
