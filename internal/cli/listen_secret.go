package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/elicitdesk/elicitdesk/internal/base/atomicfile"
	"github.com/elicitdesk/elicitdesk/servers/link"
)

// listenSecretDir is where `bridge -listen` keeps its secrets, one file
// per address, under stateHome (xdg.StateHome in the app).
func listenSecretDir(stateHome string) string {
	return filepath.Join(stateHome, "elicitdesk", "listen")
}

// listenSecret returns the secret hosts must present to the bridge
// listening at addr, and the file that keeps it (none for port 0). The
// secret is made once per address and kept, readable by the person
// alone, so that the URL in a host's config stays right from one start
// to the next; a port of 0 is another address at each start, so its
// secret is new each time. A kept file that others could read, or that
// does not hold a secret, is replaced: the secret may be known.
func listenSecret(dir, addr string, log *slog.Logger) (secret, path string, err error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", "", err
	}
	if port == "0" {
		return link.NewSecret(), "", nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", "", err
	}
	// ":" is not allowed in Windows file names; IPv6 hosts have them.
	path = filepath.Join(dir, strings.ToLower(strings.ReplaceAll(host, ":", "_"))+"_"+port)
	for range 2 {
		secret, err = readSecret(path)
		if err == nil {
			return secret, path, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			log.Warn("replacing the listen secret", "file", path, "reason", err)
			if err := os.Remove(path); err != nil {
				return "", "", err
			}
		}
		secret = link.NewSecret()
		err = atomicfile.CreateNew(path, []byte(secret+"\n"), 0o600)
		if err == nil {
			return secret, path, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", "", err
		}
		// Another bridge made it meanwhile: read that one.
	}
	return "", "", fmt.Errorf("%s: made and replaced by another program meanwhile", path)
}

// readSecret reads a kept secret, refusing one that others could read.
func readSecret(path string) (string, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("not a regular file (%v)", fi.Mode().Type())
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 && runtime.GOOS != "windows" {
		return "", fmt.Errorf("readable by others (mode %v)", perm)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	secret := strings.TrimSpace(string(b))
	if err := link.CheckSecret(secret); err != nil {
		return "", err
	}
	return secret, nil
}
