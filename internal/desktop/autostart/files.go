//go:build unix

package autostart

import (
	"os"
	"path/filepath"

	"github.com/adrg/xdg"
)

// fileFormat is how a desktop keeps each login item in a file of its
// own, in a folder it reads at login. Both are plain values here, so the
// tests on Linux go through the macOS one too, in a home of their own.
type fileFormat struct {
	ext    string                 // the file's extension
	dir    func() (string, error) // the desktop's own folder
	render func(Entry) []byte     // the file's content
	active func([]byte) bool      // whether that content still starts the entry
}

// xdgAutostart is the XDG autostart entry of Linux and the BSDs, in
// $XDG_CONFIG_HOME/autostart.
func xdgAutostart() fileFormat {
	return fileFormat{
		ext:    ".desktop",
		dir:    func() (string, error) { return filepath.Join(xdg.ConfigHome, "autostart"), nil },
		render: desktopFile,
		active: desktopEnabled,
	}
}

// launchAgents is the LaunchAgent of macOS, in ~/Library/LaunchAgents,
// which launchd reads at login.
func launchAgents() fileFormat {
	return fileFormat{
		ext: ".plist",
		dir: func() (string, error) {
			home, err := os.UserHomeDir()
			if err != nil {
				return "", err
			}
			return filepath.Join(home, "Library", "LaunchAgents"), nil
		},
		render: launchAgent,
		active: launchAgentEnabled,
	}
}
