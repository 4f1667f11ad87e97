package signin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"

	"github.com/elicitdesk/elicitdesk/internal/base/atomicfile"
)

// File is a Store in one JSON file readable by its owner only (0600): for
// a machine without a keyring, when the person chooses to keep sign-ins
// across runs. Several processes may share it (the app, the command
// line): each write replaces the file whole, synced, and only if nobody
// changed it since it was read, else it reads it again and retries, so
// that two sign-ins saved at once both stay.
type File struct {
	Path string
	mu   sync.Mutex
}

// Load returns the secret stored for server.
func (f *File) Load(server string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, m, err := f.read()
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

// updateTries bounds how often an update starts again because another
// process wrote the file meanwhile.
const updateTries = 5

// errChanged says the file changed between an update's read and its write.
var errChanged = errors.New("changed by another process meanwhile")

func (f *File) update(change func(map[string]json.RawMessage)) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	// The secrets stay the owner's, whatever mode the file was given.
	if err := os.Chmod(f.Path, 0o600); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for range updateTries {
		before, m, err := f.read()
		if err != nil {
			return err
		}
		change(m)
		b, err := json.Marshal(m)
		if err != nil {
			return err
		}
		err = atomicfile.WriteChecked(f.Path, b, 0o600, func() error {
			now, err := os.ReadFile(f.Path)
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			if !bytes.Equal(now, before) {
				return errChanged
			}
			return nil
		})
		if !errors.Is(err, errChanged) {
			return err
		}
	}
	return fmt.Errorf("%s: %w, %d times", f.Path, errChanged, updateTries)
}

// read returns the file as it is and as the secrets it holds.
func (f *File) read() ([]byte, map[string]json.RawMessage, error) {
	m := make(map[string]json.RawMessage)
	b, err := os.ReadFile(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, m, nil
	}
	if err != nil {
		return nil, nil, err
	}
	if len(b) == 0 { // made empty by mktemp, say
		return b, m, nil
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, nil, fmt.Errorf("%s is not a sign-in file: %w", f.Path, err)
	}
	return b, m, nil
}
