package signin

import (
	"encoding/base64"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"
)

// fakeKeyring is an OS keyring in memory that refuses what the real one
// refuses (see go-keyring's Set on each system).
type fakeKeyring struct {
	tooBig  func(service, user, password string) bool
	entries map[string]string // by user: one service here
	fail    error             // every call fails so when set
}

func (f *fakeKeyring) Set(service, user, password string) error {
	if f.fail != nil {
		return f.fail
	}
	if f.tooBig(service, user, password) {
		return keyring.ErrSetDataTooBig
	}
	f.entries[user] = password
	return nil
}

func (f *fakeKeyring) Get(_, user string) (string, error) {
	if f.fail != nil {
		return "", f.fail
	}
	s, ok := f.entries[user]
	if !ok {
		return "", keyring.ErrNotFound
	}
	return s, nil
}

func (f *fakeKeyring) Delete(_, user string) error {
	if f.fail != nil {
		return f.fail
	}
	if _, ok := f.entries[user]; !ok {
		return keyring.ErrNotFound
	}
	delete(f.entries, user)
	return nil
}

func (f *fakeKeyring) DeleteAll(string) error { clear(f.entries); return nil }

// keychains are the limits of each OS keyring as go-keyring 0.2.8 checks
// them, by the system.
func keychains() map[string]func(service, user, password string) bool {
	return map[string]func(service, user, password string) bool{
		// Credential Manager: a secret of 2,560 bytes at most.
		"windows": func(_, _, password string) bool { return len(password) > 2560 },
		// Keychain through `security -i`: a command line of 4,096 bytes at
		// most, the secret in base64 behind a prefix, each value quoted.
		"darwin": func(service, user, password string) bool {
			encoded := "go-keyring-base64:" + base64.StdEncoding.EncodeToString([]byte(password))
			return len("add-generic-password -U -s '"+service+"' -a '"+user+"' -w '"+encoded+"'\n") > 4096
		},
		// Secret Service: no limit.
		"linux": func(_, _, _ string) bool { return false },
	}
}

// TestKeyringSizes keeps sign-ins of every size in each system's
// keyring, as its limits allow, and leaves no part behind.
func TestKeyringSizes(t *testing.T) {
	const server = "https://mcp.example.com/a/rather/long/path/to/the/server/mcp"
	for goos, tooBig := range keychains() {
		t.Run(goos, func(t *testing.T) {
			fake := &fakeKeyring{tooBig: tooBig, entries: map[string]string{}}
			k := Keyring{os: fake}
			for _, size := range []int{0, 100, partSize, partSize + 1, 2561, 4096, 3 * partSize, 20000, 10} {
				secret := []byte(strings.Repeat("x", size))
				if size > 0 {
					secret[0], secret[size-1] = '{', '}'
				}
				if err := k.Save(server, secret); err != nil {
					t.Fatalf("Save of %d bytes: %v", size, err)
				}
				got, err := k.Load(server)
				if err != nil || string(got) != string(secret) {
					t.Fatalf("Load after Save of %d bytes: %d bytes, %v", size, len(got), err)
				}
				want := 1 // the secret whole, or the number of its parts and the parts
				if size > partSize {
					want += (size + partSize - 1) / partSize
				}
				if len(fake.entries) != want {
					t.Errorf("%d bytes kept in %d entries: %q", size, len(fake.entries), slices.Sorted(maps.Keys(fake.entries)))
				}
			}
			if err := k.Delete(server); err != nil {
				t.Fatal(err)
			}
			if len(fake.entries) != 0 {
				t.Errorf("left after Delete: %q", slices.Sorted(maps.Keys(fake.entries)))
			}
			if _, err := k.Load(server); !errors.Is(err, ErrNoRecord) {
				t.Errorf("Load after Delete: %v, want ErrNoRecord", err)
			}
			if err := k.Delete(server); err != nil {
				t.Errorf("Delete of nothing: %v", err)
			}
		})
	}
}

// TestKeyringLostPart: a sign-in missing a part reads as none, so the
// next sign-in replaces it, rather than as a record cut short.
func TestKeyringLostPart(t *testing.T) {
	fake := &fakeKeyring{tooBig: keychains()["windows"], entries: map[string]string{}}
	k := Keyring{os: fake}
	if err := k.Save("s", []byte(strings.Repeat("x", 3*partSize))); err != nil {
		t.Fatal(err)
	}
	delete(fake.entries, partName("s", 2))
	if _, err := k.Load("s"); !errors.Is(err, ErrNoRecord) {
		t.Errorf("Load = %v, want ErrNoRecord", err)
	}
}

// TestKeyringErrors: what the keyring reports reaches the caller, said
// as reading or writing it.
func TestKeyringErrors(t *testing.T) {
	broken := errors.New("the keychain is locked")
	k := Keyring{os: &fakeKeyring{fail: broken}}
	if _, err := k.Load("s"); !errors.Is(err, broken) || !strings.HasPrefix(err.Error(), "reading the keyring") {
		t.Errorf("Load = %v", err)
	}
	if err := k.Save("s", []byte("{}")); !errors.Is(err, broken) || !strings.HasPrefix(err.Error(), "writing the keyring") {
		t.Errorf("Save = %v", err)
	}
	if err := k.Delete("s"); !errors.Is(err, broken) || !strings.HasPrefix(err.Error(), "writing the keyring") {
		t.Errorf("Delete = %v", err)
	}
}

// TestSessionBusOn: macOS and Windows need no session bus for their
// keyring, whatever the environment says.
func TestSessionBusOn(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	for goos, want := range map[string]bool{"darwin": true, "windows": true, "linux": false, "freebsd": false} {
		if err := sessionBusOn(goos); (err == nil) != want {
			t.Errorf("sessionBusOn(%s) = %v, want a bus: %v", goos, err, want)
		}
	}
}
