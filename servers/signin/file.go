package signin

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// File is a Store in one JSON file readable by its owner only (0600): for
// a machine without a keyring, when the person chooses to keep sign-ins
// across runs. Several processes may share it; each write replaces the
// file whole.
type File struct {
	Path string
	mu   sync.Mutex
}

// Load returns the secret stored for server.
func (f *File) Load(server string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, err := f.read()
	if err != nil {
		return nil, err
	}
	b, ok := m[server]
	if !ok {
		return nil, ErrNoRecord
	}
	return b, nil
}

// Save stores secret for server.
func (f *File) Save(server string, secret []byte) error {
	return f.update(func(m map[string]json.RawMessage) { m[server] = secret })
}

// Delete forgets server's secret.
func (f *File) Delete(server string) error {
	return f.update(func(m map[string]json.RawMessage) { delete(m, server) })
}

func (f *File) update(change func(map[string]json.RawMessage)) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, err := f.read()
	if err != nil {
		return err
	}
	change(m)
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(f.Path), ".signin-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	// CreateTemp makes the file 0600 already; the write and rename keep it so.
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), f.Path)
}

func (f *File) read() (map[string]json.RawMessage, error) {
	m := make(map[string]json.RawMessage)
	b, err := os.ReadFile(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, err
	}
	if len(b) == 0 { // made empty by mktemp, say
		return m, nil
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s is not a sign-in file: %w", f.Path, err)
	}
	return m, nil
}
