package signin

import "sync"

// OpenStore is the Store a program keeps sign-ins in: the 0600 file at
// path when the person named one, else the OS keyring, else, on a machine
// without one, memory only; noKeyring then hears why, once, when the first
// sign-in is kept, so that a program that never signs in says nothing.
// The keyring is probed at first use, not here.
func OpenStore(path string, noKeyring func(error)) Store {
	if path != "" {
		return &File{Path: path}
	}
	return &fallback{noKeyring: noKeyring}
}

// fallback is the OS keyring, or memory when there is none.
type fallback struct {
	noKeyring func(error)
	probe     sync.Once
	store     Store
	why       error
	told      sync.Once
}

func (f *fallback) pick() Store {
	f.probe.Do(func() {
		if f.why = KeyringAvailable(); f.why != nil {
			f.store = NewMemory()
		} else {
			f.store = Keyring{}
		}
	})
	return f.store
}

func (f *fallback) Load(server string) ([]byte, error) { return f.pick().Load(server) }
func (f *fallback) Delete(server string) error         { return f.pick().Delete(server) }

func (f *fallback) Save(server string, secret []byte) error {
	s := f.pick()
	if f.why != nil && f.noKeyring != nil {
		f.told.Do(func() { f.noKeyring(f.why) })
	}
	return s.Save(server, secret)
}
