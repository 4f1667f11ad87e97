package autostart

import (
	"os"
	"path/filepath"
)

// fileExt names a LaunchAgent.
const fileExt = ".plist"

// defaultDir is where launchd looks for the user's LaunchAgents.
func defaultDir() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, "Library", "LaunchAgents"), nil
}

// render is the content of the entry's file.
func (e Entry) render() []byte { return launchAgent(e) }

// active reports whether the file's content still starts the entry.
func (e Entry) active(data []byte) bool { return launchAgentEnabled(data) }
