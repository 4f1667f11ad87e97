package signin

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/zalando/go-keyring"
)

// keyringService names Elicit Desk's entries in the OS keyring.
const keyringService = "elicitdesk"

// Keyring is a Store in the OS keyring: Secret Service on Linux, Keychain
// on macOS, Credential Manager on Windows.
//
// Credential Manager keeps at most 2,560 bytes a secret, and go-keyring
// hands the Keychain at most 4,096 bytes a command, the secret in base64;
// a sign-in with long tokens is larger. A secret over partSize is kept in
// parts: the entry of the server then holds partsPrefix and their number,
// and entry "SERVER#partN" part N.
type Keyring struct {
	os keyring.Keyring // nil: the OS's, through go-keyring; tests set a fake
}

const (
	partSize    = 2000
	partsPrefix = "elicitdesk-parts:"
)

// KeyringAvailable reports why the OS keyring cannot be used, or nil when
// it can: a headless Linux box has no Secret Service on its session bus.
func KeyringAvailable() error {
	if err := sessionBus(); err != nil {
		return err
	}
	_, err := keyring.Get(keyringService, "availability probe")
	if err == nil || errors.Is(err, keyring.ErrNotFound) {
		return nil
	}
	return fmt.Errorf("no OS keyring here: %w", err)
}

// backend is the keyring k keeps secrets in.
func (k Keyring) backend() keyring.Keyring {
	if k.os == nil {
		return osKeyring{}
	}
	return k.os
}

// Load returns the secret stored for server.
func (k Keyring) Load(server string) ([]byte, error) {
	s, err := k.backend().Get(keyringService, server)
	if errors.Is(err, keyring.ErrNotFound) {
		return nil, ErrNoRecord
	}
	if err != nil {
		return nil, fmt.Errorf("reading the keyring: %w", err)
	}
	n, parted := parts(s)
	if !parted {
		return []byte(s), nil
	}
	var b strings.Builder
	for i := 1; i <= n; i++ {
		p, err := k.backend().Get(keyringService, partName(server, i))
		if errors.Is(err, keyring.ErrNotFound) {
			return nil, ErrNoRecord // a part gone: signed out, until the next sign-in
		}
		if err != nil {
			return nil, fmt.Errorf("reading the keyring: %w", err)
		}
		b.WriteString(p)
	}
	return []byte(b.String()), nil
}

// Save stores secret for server, in parts when it is large, and removes
// the parts of the secret it replaces that it no longer needs.
func (k Keyring) Save(server string, secret []byte) error {
	had := k.partCount(server)
	s, n := string(secret), 0
	if len(s) > partSize {
		for ; len(s) > 0; n++ {
			part := s[:min(partSize, len(s))]
			if err := k.backend().Set(keyringService, partName(server, n+1), part); err != nil {
				return fmt.Errorf("writing the keyring: %w", err)
			}
			s = s[len(part):]
		}
		s = partsPrefix + strconv.Itoa(n) // written last: never a count without its parts
	}
	if err := k.backend().Set(keyringService, server, s); err != nil {
		return fmt.Errorf("writing the keyring: %w", err)
	}
	return k.deleteParts(server, n+1, had)
}

// Delete forgets server's secret.
func (k Keyring) Delete(server string) error {
	had := k.partCount(server)
	err := k.backend().Delete(keyringService, server)
	if err != nil && !errors.Is(err, keyring.ErrNotFound) {
		return fmt.Errorf("writing the keyring: %w", err)
	}
	return k.deleteParts(server, 1, had)
}

// partCount is the number of parts server's secret is kept in, 0 when
// it is kept whole or not at all.
func (k Keyring) partCount(server string) int {
	s, err := k.backend().Get(keyringService, server)
	if err != nil {
		return 0
	}
	n, _ := parts(s)
	return n
}

// deleteParts deletes parts from to to of server's secret.
func (k Keyring) deleteParts(server string, from, to int) error {
	for i := from; i <= to; i++ {
		err := k.backend().Delete(keyringService, partName(server, i))
		if err != nil && !errors.Is(err, keyring.ErrNotFound) {
			return fmt.Errorf("writing the keyring: %w", err)
		}
	}
	return nil
}

// parts reads the number of parts in a server's entry, if it holds one.
func parts(s string) (int, bool) {
	count, ok := strings.CutPrefix(s, partsPrefix)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(count)
	return n, err == nil && n > 0
}

// partName is the entry of part i of server's secret.
func partName(server string, i int) string { return server + "#part" + strconv.Itoa(i) }

// osKeyring is the OS keyring through go-keyring's functions.
type osKeyring struct{}

func (osKeyring) Set(service, user, password string) error {
	return keyring.Set(service, user, password)
}
func (osKeyring) Get(service, user string) (string, error) { return keyring.Get(service, user) }
func (osKeyring) Delete(service, user string) error        { return keyring.Delete(service, user) }
func (osKeyring) DeleteAll(service string) error           { return keyring.DeleteAll(service) }
