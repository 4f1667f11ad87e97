package autostart

import "path/filepath"

// defaultFile is where launchd looks for e with HOME=home.
func defaultFile(home string, e Entry) string {
	return filepath.Join(home, "Library", "LaunchAgents", e.ID+".plist")
}
