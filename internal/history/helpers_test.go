package history

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
)

func TestMain(m *testing.M) {
	if path := os.Getenv(writerEnv); path != "" {
		os.Exit(runWriter(path))
	}
	os.Exit(m.Run())
}

// quiet is a logger for tests that do not look at the log.
func quiet() *slog.Logger { return slog.New(slog.DiscardHandler) }

// isolate points HOME and the XDG directories at a temporary directory, so
// nothing a test runs can touch the real ones.
func isolate(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	for _, v := range []string{"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"} {
		t.Setenv(v, filepath.Join(dir, v))
	}
	return dir
}

// newStore opens a fresh history in a temporary directory.
func newStore(t testing.TB) *Store {
	t.Helper()
	s, err := Open(DefaultPath(filepath.Join(isolate(t), "data")), quiet(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// entryDiff says how got differs from want, or "" when they are the same
// entry; times compare as instants, whatever their zone.
func entryDiff(got, want Entry) string {
	for _, e := range []*Entry{&got, &want} {
		e.Received, e.Answered = e.Received.UTC(), e.Answered.UTC()
	}
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		return fmt.Sprintf("got %s\nwant %s", g, w)
	}
	return ""
}
