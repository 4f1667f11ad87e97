//go:build unix

package autostart

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/elicitdesk/elicitdesk/internal/base/atomicfile"
)

// Enable writes the entry, replacing any earlier one, so Exec starts at the
// next login.
func (e Entry) Enable() error { return e.enable(native()) }

// Disable removes the entry; one that is missing is not an error.
func (e Entry) Disable() error { return e.disable(native()) }

// Enabled reports whether the entry is there and the desktop has not
// turned it off.
func (e Entry) Enabled() (bool, error) { return e.enabled(native()) }

// enable writes the entry's file in format f.
func (e Entry) enable(f fileFormat) error {
	if err := e.checkExec(); err != nil {
		return err
	}
	path, err := e.file(f)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(path, f.render(e), 0o644)
}

// disable removes the entry's file in format f.
func (e Entry) disable(f fileFormat) error {
	path, err := e.file(f)
	if err != nil {
		return err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// enabled reports whether the entry's file in format f is there and
// still starts it.
func (e Entry) enabled(f fileFormat) (bool, error) {
	path, err := e.file(f)
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
	return f.active(data), nil
}

// file is where the entry of e lives in format f.
func (e Entry) file(f fileFormat) (string, error) {
	if err := e.check(); err != nil {
		return "", err
	}
	dir := e.Dir
	if dir == "" {
		var err error
		if dir, err = f.dir(); err != nil {
			return "", err
		}
	}
	return filepath.Join(dir, e.ID+f.ext), nil
}
