//go:build unix && !darwin

package autostart

import "path/filepath"

// defaultFile is where an XDG desktop looks for e with
// XDG_CONFIG_HOME=home/config.
func defaultFile(home string, e Entry) string {
	return filepath.Join(home, "config", "autostart", e.ID+".desktop")
}
