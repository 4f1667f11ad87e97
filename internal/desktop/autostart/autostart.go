// Package autostart makes Elicit Desk start when the person logs in, the
// way each desktop expects it: an XDG autostart entry on Linux and the
// BSDs, a LaunchAgent on macOS, a Run value in the registry on Windows.
// The person turns it on and off from the app, so an entry is only ever
// written when asked, and removing it leaves nothing behind.
package autostart

import (
	"errors"
	"fmt"
	"strings"
)

// Entry is what starts at login.
type Entry struct {
	ID   string   // reverse-DNS name such as "io.github.elicitdesk": the file names
	Name string   // what the desktop shows, such as "Elicit Desk"; the value name on Windows
	Exec []string // the executable and its arguments

	// Dir is where the entry lives; empty means the desktop's own place:
	// $XDG_CONFIG_HOME/autostart, ~/Library/LaunchAgents, or on Windows the
	// key Software\Microsoft\Windows\CurrentVersion\Run under
	// HKEY_CURRENT_USER (there Dir names another key under it). Tests set it.
	Dir string
}

// check reports what keeps e from naming an entry.
func (e Entry) check() error {
	switch {
	case e.ID == "" || e.ID == "." || e.ID == ".." || strings.ContainsAny(e.ID, `/\`+"\x00"):
		return fmt.Errorf("autostart: ID %q is not a plain file name", e.ID)
	case e.Name == "":
		return errors.New("autostart: the entry has no name")
	}
	return nil
}

// checkExec reports what keeps e from being written.
func (e Entry) checkExec() error {
	if err := e.check(); err != nil {
		return err
	}
	if len(e.Exec) == 0 || e.Exec[0] == "" {
		return errors.New("autostart: the entry has nothing to run")
	}
	return nil
}
