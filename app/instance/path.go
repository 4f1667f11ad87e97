package instance

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/adrg/xdg"
)

// maxPathLen is the longest socket path every supported OS takes: macOS
// holds 104 bytes for it, the closing NUL included (Linux and Windows 108).
const maxPathLen = 103

// DefaultPath is where the single-instance socket lives:
// $XDG_RUNTIME_DIR/elicitdesk.sock, or where the desktop keeps such files
// (~/Library/Application Support on macOS, %LOCALAPPDATA% on Windows).
// Without a runtime directory, or when its path is too long for a socket,
// it falls back to the temporary directory, with the user ID in the name
// where that directory is shared between users.
func DefaultPath() string {
	if p, err := xdg.RuntimeFile("elicitdesk.sock"); err == nil && filepath.Dir(p) != filepath.Clean(os.TempDir()) && len(p) <= maxPathLen {
		return p
	}
	name := "elicitdesk.sock"
	if uid := os.Getuid(); uid >= 0 { // -1 on Windows, whose temporary directory is the user's own
		name = fmt.Sprintf("elicitdesk-%d.sock", uid)
	}
	return filepath.Join(os.TempDir(), name)
}

// checkPath says why path cannot hold a socket.
func checkPath(path string) error {
	switch {
	case path == "":
		return errors.New("instance: no socket path")
	case len(path) > maxPathLen:
		return fmt.Errorf("instance: socket path %s is %d bytes long; a Unix socket path may have at most %d", path, len(path), maxPathLen)
	}
	return nil
}
