package endpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/adrg/xdg"
)

// pipePrefix starts the name of every local named pipe.
const pipePrefix = `\\.\pipe\`

// DefaultPath returns the endpoint's named pipe,
// \\.\pipe\elicitdesk-SID-HASH: Windows has one namespace of pipes for the
// whole machine, so the name holds the user's security identifier, and a
// hash of the user's runtime directory (%LOCALAPPDATA%, from Windows
// itself when the variable is unset; $XDG_RUNTIME_DIR when set), as the
// socket lives in it elsewhere: processes that share it, whatever their
// environment, find the same app. The name is no secret; the pipe's ACL,
// which admits this user alone, keeps others out. Nothing is made on disk.
func DefaultPath() (string, error) {
	me, err := currentUser()
	if err != nil {
		return "", fmt.Errorf("cannot name the endpoint's pipe: %w", err)
	}
	dir := sha256.Sum256([]byte(strings.ToLower(filepath.Clean(xdg.RuntimeDir))))
	return pipePrefix + "elicitdesk-" + me.String() + "-" + hex.EncodeToString(dir[:8]), nil
}

// AppPath returns the running app's pipe, as DefaultPath names it; "" when
// the user cannot be told, which Dial refuses.
func AppPath() string {
	path, _ := DefaultPath()
	return path
}

// ForwardedPath says why there is none on Windows.
func ForwardedPath(machine string) (string, error) { return "", ErrNoUnixForward }
