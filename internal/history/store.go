// Package history records every elicitation request and how it ended in a
// SQLite database, so the person can look back, search, replay and export.
// Secret-looking values are redacted before they are stored, and an Add that
// returned has reached the disk: it survives a crash or a kill -9.
package history

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"
)

// DefaultRetention is how long entries are kept unless the person chooses.
const DefaultRetention = 90 * 24 * time.Hour

// busyTimeout is how long a statement waits for another connection's lock
// before the database counts as locked.
const busyTimeout = 5 * time.Second

// DefaultPath returns where the history lives under dataHome (xdg.DataHome in
// the app).
func DefaultPath(dataHome string) string {
	return filepath.Join(dataHome, "elicitdesk", "history.db")
}

// Store is an open history database. It is safe for concurrent use.
type Store struct {
	db       *sql.DB
	path     string
	notice   string
	busy     time.Duration // how long a statement waits for another's lock
	maxBytes atomic.Int64  // the cap in force (see Options); 0 in a read-only store
	ownCap   atomic.Bool   // maxBytes is the store's own, not the file's
	log      *slog.Logger  // nil in a read-only store
	version  int           // the file's user_version; an older one only in a read-only store
}

// Open opens the history at path, creating it and its directories when
// missing. A file that is corrupt is moved aside and a fresh history
// started; log (slog.Default when nil) is told and Notice says so, so the
// app keeps recording. A file another process holds is waited for and
// tried again, never replaced: past that, and for other failures, Open
// returns an error.
func Open(path string, log *slog.Logger, opts Options) (*Store, error) {
	s, err := open(path, log, busyTimeout)
	if err != nil {
		return nil, err
	}
	s.log = cmp.Or(log, slog.Default())
	if opts.MaxBytes > 0 {
		s.SetMaxBytes(opts.MaxBytes)
	}
	// The cap in force from the start: the store's own, kept in the file
	// for other writers, or the file's.
	if err := retryBusy(context.Background(), s.busy, func() error {
		_, err := s.syncCap(context.Background(), s.db)
		return err
	}); err != nil {
		s.Close()
		return nil, fmt.Errorf("history %s: %w", path, err)
	}
	return s, nil
}

// OpenReadOnly opens an existing history for reading, changing nothing on
// disk: a missing, locked or corrupt file is an error.
func OpenReadOnly(path string) (*Store, error) {
	db, err := connect(path, true, busyTimeout)
	if err != nil {
		return nil, err
	}
	var version int
	if err := db.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		db.Close()
		return nil, fmt.Errorf("history %s: %w", path, err)
	}
	return &Store{db: db, path: path, version: version}, nil
}

// Path is the file the store reads and writes.
func (s *Store) Path() string { return s.path }

// Notice is empty, or says in plain words why Open started a fresh history
// and where the damaged file is kept, for the UI to show.
func (s *Store) Notice() string { return s.notice }

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// connect opens a connection pool on path with the settings every connection
// needs: WAL, synchronous=FULL so a commit is on disk when it returns, and a
// busy timeout. Write transactions take the write lock when they begin.
func connect(path string, readOnly bool, busy time.Duration) (*sql.DB, error) {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busy.Milliseconds()))
	if readOnly {
		q.Set("mode", "ro")
	} else {
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous(FULL)")
		q.Set("_txlock", "immediate")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	slashed := filepath.ToSlash(abs)
	if !strings.HasPrefix(slashed, "/") {
		slashed = "/" + slashed // file:///C:/… on Windows
	}
	dsn := (&url.URL{Scheme: "file", Path: slashed, RawQuery: q.Encode()}).String()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(4)
	return db, nil
}

// schemaVersion is stored in user_version once the tables exist.
const schemaVersion = 5

// ddl creates the tables. The full-text index is contentless: it holds only
// the index, and entries keeps the text. Its rowid is the entry's id; its
// tags column holds one token for the server and one for the outcome (see
// tags), so a search with filters is answered by the index alone.
const ddl = `
CREATE TABLE entries (
	id               INTEGER PRIMARY KEY, -- see firstID
	server_name      TEXT NOT NULL,
	server_target    TEXT NOT NULL,
	reported_name    TEXT NOT NULL,
	reported_title   TEXT NOT NULL,
	reported_version TEXT NOT NULL,
	message          TEXT NOT NULL,
	mode             TEXT NOT NULL,
	schema           BLOB,
	url              TEXT NOT NULL,
	outcome          TEXT NOT NULL,
	reason           TEXT NOT NULL,
	content          BLOB,
	received         INTEGER,
	answered         INTEGER,
	size             INTEGER, -- see Cut: NULL when kept whole
	sha256           TEXT,
	host_name        TEXT NOT NULL DEFAULT '', -- the host a bridged server asked for; '' outside the bridge
	host_title       TEXT NOT NULL DEFAULT '',
	host_version     TEXT NOT NULL DEFAULT '',
	machine          TEXT NOT NULL DEFAULT '' -- the machine a bridged server runs on, through its forward; '' for this one
);
CREATE INDEX entries_server ON entries(server_name);
CREATE INDEX entries_outcome ON entries(outcome);
CREATE VIRTUAL TABLE entries_fts USING fts5(
	server, target, reported, message, url, content, tags,
	content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2'
);
`

// addCut and addHost are the columns versions 2 and 3 added, addMachine
// the one version 5 added. The host's and the machine's have defaults, so
// an older app writing into a newer file still can. addSettings is the
// table version 4 added: settings every process writing the file shares,
// such as the size cap the app was given.
const (
	addMachine  = `ALTER TABLE entries ADD COLUMN machine TEXT NOT NULL DEFAULT '';`
	addSettings = `CREATE TABLE settings (name TEXT PRIMARY KEY, value) WITHOUT ROWID;`
	addCut      = `ALTER TABLE entries ADD COLUMN size INTEGER; ALTER TABLE entries ADD COLUMN sha256 TEXT;`
	addHost     = `ALTER TABLE entries ADD COLUMN host_name TEXT NOT NULL DEFAULT '';
		ALTER TABLE entries ADD COLUMN host_title TEXT NOT NULL DEFAULT '';
		ALTER TABLE entries ADD COLUMN host_version TEXT NOT NULL DEFAULT '';`
)

// migrations[v] brings a database of user_version v to schemaVersion.
var migrations = []string{
	0: ddl + addSettings,
	1: addCut + addHost + addSettings + addMachine,
	2: addHost + addSettings + addMachine,
	3: addSettings + addMachine,
	4: addMachine,
}

// prepare checks the database and creates its tables when it is new. The
// version is read inside the write transaction, so two processes starting
// together do not both create them.
func prepare(ctx context.Context, db *sql.DB) error {
	var check string
	if err := db.QueryRowContext(ctx, "PRAGMA quick_check(1)").Scan(&check); err != nil {
		return err
	}
	if check != "ok" {
		return fmt.Errorf("%w: %s", errCorrupt, check)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var version int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return err
	}
	if version < schemaVersion {
		if _, err := tx.ExecContext(ctx, migrations[version]); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", schemaVersion)); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// ensureDir creates the directory path lives in.
func ensureDir(path string) error {
	return os.MkdirAll(filepath.Dir(path), 0o700)
}
