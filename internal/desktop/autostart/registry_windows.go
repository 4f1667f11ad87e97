package autostart

import (
	"errors"
	"fmt"
	"strings"

	"golang.org/x/sys/windows/registry"
)

// runKey is where Windows looks for what to start at login.
const runKey = `Software\Microsoft\Windows\CurrentVersion\Run`

// key is the key under HKEY_CURRENT_USER that holds e's value.
func (e Entry) key() (string, error) {
	if err := e.check(); err != nil {
		return "", err
	}
	if e.Dir != "" {
		return e.Dir, nil
	}
	return runKey, nil
}

// Enable sets the entry's Run value, replacing any earlier one, so Exec
// starts at the next login.
func (e Entry) Enable() error {
	if err := e.checkExec(); err != nil {
		return err
	}
	if strings.Contains(e.Exec[0], `"`) {
		return fmt.Errorf("autostart: program %q holds a quote", e.Exec[0])
	}
	path, err := e.key()
	if err != nil {
		return err
	}
	k, _, err := registry.CreateKey(registry.CURRENT_USER, path, registry.SET_VALUE)
	if err != nil {
		return err
	}
	defer k.Close()
	return k.SetStringValue(e.Name, commandLine(e.Exec))
}

// Disable deletes the entry's Run value; one that is missing is not an
// error.
func (e Entry) Disable() error {
	path, err := e.key()
	if err != nil {
		return err
	}
	k, err := registry.OpenKey(registry.CURRENT_USER, path, registry.SET_VALUE)
	if errors.Is(err, registry.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer k.Close()
	if err := k.DeleteValue(e.Name); err != nil && !errors.Is(err, registry.ErrNotExist) {
		return err
	}
	return nil
}

// Enabled reports whether the entry's Run value is there.
func (e Entry) Enabled() (bool, error) {
	path, err := e.key()
	if err != nil {
		return false, err
	}
	k, err := registry.OpenKey(registry.CURRENT_USER, path, registry.QUERY_VALUE)
	if errors.Is(err, registry.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer k.Close()
	_, _, err = k.GetStringValue(e.Name)
	if errors.Is(err, registry.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}
