// Package atomicfile replaces files so that readers never see half of one:
// servers.json, which other clients read too, and autostart entries, which
// the desktop reads at login.
package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Write replaces path with data through a temporary file beside it, fsync
// and a rename. A symlinked path is written through to its target, even one
// not made yet, so a dotfiles link stays a link. A file that exists keeps its mode and, where
// the system allows, its owner, since the rename would otherwise reset them;
// a new file gets perm.
func Write(path string, data []byte, perm fs.FileMode) error {
	return WriteChecked(path, data, perm, nil)
}

// WriteChecked is Write that calls check, when it is not nil, just before
// the rename, and writes nothing if it fails: the last moment to find that
// another program changed the file since it was read. A temporary file
// that a writer killed before its rename left beside path is removed.
func WriteChecked(path string, data []byte, perm fs.FileMode, check func() error) error {
	chain := LinkChain(path)
	path = chain[len(chain)-1]
	old, statErr := os.Stat(path)
	if statErr == nil {
		perm = old.Mode().Perm()
	}
	removeAbandoned(path)
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer claim(f.Name())()
	if statErr == nil {
		keepOwner(f, old)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && check != nil {
		err = check()
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// removeAbandoned removes the temporary files of writes to path whose
// writer died before renaming them (see claim); a live writer's stay.
func removeAbandoned(path string) {
	dir, base := filepath.Split(path)
	entries, err := os.ReadDir(filepath.Clean(dir))
	if err != nil {
		return
	}
	prefix := "." + base + "."
	for _, e := range entries {
		rest, ours := strings.CutPrefix(e.Name(), prefix)
		random, tmp := strings.CutSuffix(rest, ".tmp")
		if !ours || !tmp || random == "" || strings.Trim(random, "0123456789") != "" || !e.Type().IsRegular() {
			continue // CreateTemp's names are the pattern with digits for "*"
		}
		if p := filepath.Join(dir, e.Name()); abandoned(p) {
			os.Remove(p)
		}
	}
}
