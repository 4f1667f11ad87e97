// Package atomicfile replaces files so that readers never see half of one:
// servers.json, which other clients read too, autostart entries, which
// the desktop reads at login, and the bridge's listen secrets, which two
// bridges may make at once.
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
	tmp, release, err := writeTemp(path, data, perm, func(f *os.File) {
		if statErr == nil {
			keepOwner(f, old)
		}
	})
	if err != nil {
		return err
	}
	defer release()
	if check != nil {
		err = check()
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// CreateNew makes a new file at path holding data, whole or not at all,
// and fails with an error that is fs.ErrExist if path exists: of two
// programs that create it at once, one writes it and the other can read
// what the first wrote, never half of it.
func CreateNew(path string, data []byte, perm fs.FileMode) error {
	tmp, release, err := writeTemp(path, data, perm, nil)
	if err != nil {
		return err
	}
	defer release()
	defer os.Remove(tmp)
	return os.Link(tmp, path)
}

// writeTemp writes data to a new temporary file beside path, with perm
// and synced, and returns its name, claimed until release (see claim).
// prepare, if not nil, sees the file before anything is written. The
// temporary files of writers that died first are removed.
func writeTemp(path string, data []byte, perm fs.FileMode, prepare func(*os.File)) (tmp string, release func(), err error) {
	removeAbandoned(path)
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return "", nil, err
	}
	release = claim(f.Name())
	if prepare != nil {
		prepare(f)
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
	if err != nil {
		os.Remove(f.Name())
		release()
		return "", nil, err
	}
	return f.Name(), release, nil
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
