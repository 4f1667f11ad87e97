//go:build unix

package autostart

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/elicitdesk/elicitdesk/internal/atomicfile"
)

// Enable writes the entry, replacing any earlier one, so Exec starts at the
// next login.
func (e Entry) Enable() error {
	if err := e.checkExec(); err != nil {
		return err
	}
	path, err := e.file()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(path, e.render(), 0o644)
}

// Disable removes the entry; one that is missing is not an error.
func (e Entry) Disable() error {
	path, err := e.file()
	if err != nil {
		return err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// Enabled reports whether the entry is there and the desktop has not
// turned it off.
func (e Entry) Enabled() (bool, error) {
	path, err := e.file()
	if err != nil {
		return false, err
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return e.active(data), nil
}

// file is where the entry of e lives.
func (e Entry) file() (string, error) {
	if err := e.check(); err != nil {
		return "", err
	}
	dir := e.Dir
	if dir == "" {
		var err error
		if dir, err = defaultDir(); err != nil {
			return "", err
		}
	}
	return filepath.Join(dir, e.ID+fileExt), nil
}
