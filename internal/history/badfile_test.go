package history

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCorruptFile damages a history in several ways; Open must keep the bad
// file beside a fresh one, say so, and record into the fresh one.
func TestCorruptFile(t *testing.T) {
	tests := []struct {
		name   string
		damage func(t *testing.T, path string)
	}{
		{"garbage bytes", func(t *testing.T, path string) {
			if err := os.WriteFile(path, bytes.Repeat([]byte("not a database "), 400), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"pages overwritten", func(t *testing.T, path string) {
			s, err := Open(path, quiet(), Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range fakeEntries(200, 2, time.Now()) {
				if _, err := s.Add(context.Background(), e); err != nil {
					t.Fatal(err)
				}
			}
			s.Close() // the last connection checkpoints the log into the file
			f, err := os.OpenFile(path, os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteAt(bytes.Repeat([]byte{0xA5}, 3*4096), 2*4096); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := DefaultPath(filepath.Join(isolate(t), "data"))
			if err := ensureDir(path); err != nil {
				t.Fatal(err)
			}
			tt.damage(t, path)
			bad, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}

			s, err := Open(path, quiet(), Options{})
			if err != nil {
				t.Fatalf("Open gave up: %v", err)
			}
			defer s.Close()
			aside, _ := filepath.Glob(path + ".corrupt-*")
			if len(aside) != 1 {
				t.Fatalf("kept aside: %v", aside)
			}
			if kept, _ := os.ReadFile(aside[0]); !bytes.Equal(kept, bad) {
				t.Error("the damaged file was not kept as it was")
			}
			if !strings.Contains(s.Notice(), "damaged") || !strings.Contains(s.Notice(), aside[0]) {
				t.Errorf("Notice() = %q", s.Notice())
			}
			if s.Path() != path {
				t.Errorf("recording into %s, want %s", s.Path(), path)
			}
			if _, err := s.Add(context.Background(), fixtures()[0]); err != nil {
				t.Errorf("the fresh history does not record: %v", err)
			}
		})
	}
}

// TestBusyFile holds the history with an exclusive lock from another
// connection: Open must wait and try again, then give up with an error,
// leaving the file alone and starting no other file beside it; once the
// lock is gone it opens the same file with its entries.
func TestBusyFile(t *testing.T) {
	ctx := context.Background()
	path := DefaultPath(filepath.Join(isolate(t), "data"))
	s, err := Open(path, quiet(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Add(ctx, fixtures()[0]); err != nil {
		t.Fatal(err)
	}
	s.Close()

	holder, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	holder.SetMaxOpenConns(1)
	for _, stmt := range []string{"PRAGMA locking_mode=EXCLUSIVE", "BEGIN EXCLUSIVE", "UPDATE entries SET message = message"} {
		if _, err := holder.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	if s, err := open(path, quiet(), 200*time.Millisecond); err == nil {
		s.Close()
		t.Fatalf("Open of a held file recorded into %s", s.Path())
	} else if !locked(err) || !strings.Contains(err.Error(), path) {
		t.Errorf("Open of a held file: %v", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
		t.Error("the held file was changed")
	}
	if files, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*.db")); len(files) != 1 {
		t.Errorf("files beside the held history: %v", files)
	}

	if _, err := holder.Exec("COMMIT"); err != nil {
		t.Fatal(err)
	}
	holder.Close()
	old, err := Open(path, quiet(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if got, err := old.Search(ctx, Query{}); err != nil || len(got) != 1 || old.Notice() != "" || old.Path() != path {
		t.Errorf("once free, the history at %s holds %d entries (%v), notice %q", old.Path(), len(got), err, old.Notice())
	}
}
