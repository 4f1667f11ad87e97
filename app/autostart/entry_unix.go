//go:build unix

package autostart

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
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
	return writeFileAtomic(path, e.render())
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

// writeFileAtomic replaces path with data through a temporary file and a
// rename, so the desktop never reads half an entry. Missing directories are
// made private to the user.
func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
