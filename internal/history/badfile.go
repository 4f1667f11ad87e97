package history

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// errCorrupt marks a database that opened but failed its integrity check.
var errCorrupt = errors.New("the integrity check failed")

// open is Open with the busy timeout as a parameter, so tests need not wait
// the full timeout for a locked file.
func open(path string, log *slog.Logger, busy time.Duration) (*Store, error) {
	if log == nil {
		log = slog.Default()
	}
	if err := ensureDir(path); err != nil {
		return nil, err
	}
	var s *Store
	// Busy is most often another Elicit Desk process (the app, a bridge)
	// setting up or writing the same file at that moment. The file is
	// theirs too: it is waited for, never replaced by one beside it.
	cause := retryBusy(context.Background(), busy, func() error {
		var err error
		s, err = openAt(path, busy)
		return err
	})
	switch {
	case cause == nil:
		return s, nil
	case locked(cause):
		return nil, fmt.Errorf("history %s is held by another program and stayed busy; nothing was changed in it: %w", path, cause)
	case !corrupt(cause):
		return nil, fmt.Errorf("history %s: %w", path, cause)
	}
	aside, err := moveAside(path, time.Now().UTC().Format("20060102T150405Z"))
	if err != nil {
		return nil, fmt.Errorf("history %s is damaged (%v) and could not be moved aside: %w", path, cause, err)
	}
	log.Warn("history file is damaged; moved it aside and started a new one", "path", path, "kept_as", aside, "err", cause)
	s, err = openAt(path, busy)
	if err != nil {
		return nil, err
	}
	s.notice = fmt.Sprintf("The history file was damaged (%v). It was kept as %s and a new history was started.", cause, aside)
	return s, nil
}

// retryBusy runs f, and again while it fails because another connection
// holds the database: a few times, a little later each, for about busy
// in all on top of the busy timeout each try waits. It returns f's last
// error, or ctx's when ctx ends first.
func retryBusy(ctx context.Context, busy time.Duration, f func() error) error {
	err := f()
	for wait := busy / 16; err != nil && locked(err) && wait <= busy/2; wait *= 2 {
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
		err = f()
	}
	return err
}

// openAt opens and prepares the database at path.
func openAt(path string, busy time.Duration) (*Store, error) {
	db, err := connect(path, false, busy)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*busy+time.Minute)
	defer cancel()
	if err := prepare(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	return &Store{db: db, path: path, busy: busy}, nil
}

// corrupt reports whether err says the file is not a sound database.
func corrupt(err error) bool {
	return errors.Is(err, errCorrupt) || sqliteCode(err) == sqlite3.SQLITE_CORRUPT || sqliteCode(err) == sqlite3.SQLITE_NOTADB
}

// locked reports whether err says another connection holds the file.
func locked(err error) bool {
	return sqliteCode(err) == sqlite3.SQLITE_BUSY || sqliteCode(err) == sqlite3.SQLITE_LOCKED
}

// sqliteCode is the primary SQLite result code in err, or 0.
func sqliteCode(err error) int {
	var e *sqlite.Error
	if errors.As(err, &e) {
		return e.Code() & 0xff
	}
	return 0
}

// moveAside renames the database and its WAL and shared-memory files to
// path.corrupt-STAMP (keeping the -wal and -shm suffixes, so SQLite still
// reads them together) and returns the new name. Nothing is deleted.
func moveAside(path, stamp string) (string, error) {
	aside := freeName(func(n string) string { return path + ".corrupt-" + stamp + n })
	if err := os.Rename(path, aside); err != nil {
		return "", err
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if err := os.Rename(path+suffix, aside+suffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return aside, err
		}
	}
	return aside, nil
}

// freeName returns the first of name(""), name("-2"), name("-3")… that no
// file has, so two mishaps within a second do not collide.
func freeName(name func(n string) string) string {
	for i := 1; ; i++ {
		n := ""
		if i > 1 {
			n = fmt.Sprintf("-%d", i)
		}
		if _, err := os.Lstat(name(n)); errors.Is(err, fs.ErrNotExist) {
			return name(n)
		}
	}
}
