package signin

import (
	"errors"
	"fmt"

	"github.com/zalando/go-keyring"
)

// keyringService names Elicit Desk's entries in the OS keyring.
const keyringService = "elicitdesk"

// Keyring is a Store in the OS keyring: Secret Service on Linux, Keychain
// on macOS, Credential Manager on Windows.
type Keyring struct{}

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

// Load returns the secret stored for server.
func (Keyring) Load(server string) ([]byte, error) {
	s, err := keyring.Get(keyringService, server)
	if errors.Is(err, keyring.ErrNotFound) {
		return nil, ErrNoRecord
	}
	if err != nil {
		return nil, fmt.Errorf("reading the keyring: %w", err)
	}
	return []byte(s), nil
}

// Save stores secret for server.
func (Keyring) Save(server string, secret []byte) error {
	if err := keyring.Set(keyringService, server, string(secret)); err != nil {
		return fmt.Errorf("writing the keyring: %w", err)
	}
	return nil
}

// Delete forgets server's secret.
func (Keyring) Delete(server string) error {
	err := keyring.Delete(keyringService, server)
	if err != nil && !errors.Is(err, keyring.ErrNotFound) {
		return fmt.Errorf("writing the keyring: %w", err)
	}
	return nil
}
