//go:build unix && !darwin

package autostart

import (
	"path/filepath"

	"github.com/adrg/xdg"
)

// fileExt names an XDG autostart entry.
const fileExt = ".desktop"

// defaultDir is where XDG desktops look for autostart entries.
func defaultDir() (string, error) {
	return filepath.Join(xdg.ConfigHome, "autostart"), nil
}

// render is the content of the entry's file.
func (e Entry) render() []byte { return desktopFile(e) }

// active reports whether the file's content still starts the entry.
func (e Entry) active(data []byte) bool { return desktopEnabled(data) }
