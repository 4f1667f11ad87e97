package serversview

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/elicitdesk/elicitdesk/servers/config"
)

// Every edit loads servers.json afresh, changes one entry and saves, so
// edits made meanwhile in a text editor or another client survive. The
// app's watcher then applies the saved file.

// loadForEdit loads the file at path; a missing one is an empty list.
func loadForEdit(path string) (*config.File, error) {
	cfg, err := config.Load(path)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, err
		}
		return &config.File{Path: path}, nil
	}
	return cfg, err
}

// entryIndex is the position of the entry called name, or -1.
func entryIndex(cfg *config.File, name string) int {
	return slices.IndexFunc(cfg.Servers, func(s config.Server) bool { return s.Name == name })
}

// saveEntry saves the form as the entry called original, in its place, or
// as a new last entry when original is "" (or has gone meanwhile). Form
// errors mean nothing was written; so does an error.
func saveEntry(path, original string, f entryForm) (formErrors, error) {
	cfg, err := loadForEdit(path)
	if err != nil {
		return nil, err
	}
	i := -1
	if original != "" {
		i = entryIndex(cfg, original)
	}
	var base config.Server
	if i >= 0 {
		base = cfg.Servers[i]
	}
	taken := func(name string) bool {
		j := entryIndex(cfg, name)
		return j >= 0 && j != i
	}
	s, errs := f.entry(base, taken)
	if errs != nil {
		return errs, nil
	}
	if i >= 0 {
		cfg.Servers[i] = s
	} else {
		cfg.Servers = append(cfg.Servers, s)
	}
	return nil, cfg.Save()
}

// setDisabled sets the "disabled" key of the entry called name.
func setDisabled(path, name string, disabled bool) error {
	return editEntry(path, name, func(cfg *config.File, i int) {
		cfg.Servers[i].Disabled = disabled
	})
}

// removeEntry deletes the entry called name.
func removeEntry(path, name string) error {
	return editEntry(path, name, func(cfg *config.File, i int) {
		cfg.Servers = slices.Delete(cfg.Servers, i, i+1)
	})
}

// editEntry applies change to the entry called name and saves.
func editEntry(path, name string, change func(cfg *config.File, i int)) error {
	cfg, err := config.Load(path)
	if err != nil {
		return err
	}
	i := entryIndex(cfg, name)
	if i < 0 {
		return fmt.Errorf("%s has no server called %q any more", path, name)
	}
	change(cfg, i)
	return cfg.Save()
}
