package signin

import (
	"errors"
	"testing"
)

// TestOpenStoreHeadless: without a session bus the store is memory, and
// the person hears so once, at the first sign-in kept, not before.
func TestOpenStoreHeadless(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	var told []error
	s := OpenStore("", func(err error) { told = append(told, err) })
	if _, err := s.Load("https://a.example/mcp"); !errors.Is(err, ErrNoRecord) {
		t.Fatal(err)
	}
	if len(told) != 0 {
		t.Fatalf("told before any sign-in: %v", told)
	}
	s.Save("https://a.example/mcp", []byte(`{}`))
	s.Save("https://b.example/mcp", []byte(`{}`))
	if len(told) != 1 {
		t.Errorf("told %d times, want once: %v", len(told), told)
	}
	if got, err := s.Load("https://a.example/mcp"); err != nil || string(got) != `{}` {
		t.Errorf("the memory store lost the sign-in: %q, %v", got, err)
	}
}
