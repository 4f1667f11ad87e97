package history

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// Add records e, its content redacted, and returns its id. When Add returns
// without error the entry is on disk: a crash right after does not lose it.
// e.ID is ignored: ids follow e.Received (see firstID).
func (s *Store) Add(ctx context.Context, e Entry) (int64, error) {
	ids, err := s.addAll(ctx, []Entry{e})
	if err != nil {
		return 0, err
	}
	return ids[0], nil
}

// addAll records entries in one transaction, the way Add records one.
// Before writing, it makes room for them under the cap (see makeRoom); a
// busy database is tried again a few times (see retryBusy).
func (s *Store) addAll(ctx context.Context, entries []Entry) ([]int64, error) {
	for _, e := range entries {
		if err := check(e); err != nil {
			return nil, err
		}
	}
	rows := make([]stored, len(entries))
	var need int64
	for i, e := range entries {
		content := redact(e.Schema, e.Content)
		rows[i] = stored{Shorten(e), content}
		need += rows[i].size()
	}
	var ids []int64
	err := retryBusy(ctx, s.busy, func() error {
		var err error
		ids, err = s.insert(ctx, rows, need)
		return err
	})
	if err != nil {
		return nil, err
	}
	// The entries are stored: a size check that fails is not their failure.
	if err := s.afterWrite(ctx); err != nil {
		s.log.Warn("history: cannot keep the file under its size", "err", err)
	}
	return ids, nil
}

// stored is an entry as it goes into the file: shortened, its content
// redacted.
type stored struct {
	Entry
	content json.RawMessage
}

// size is what storing e adds to the file, estimated on the high side:
// its columns, the full-text index of its text (taken as large again) and
// the slack of its pages.
func (e stored) size() int64 {
	text := len(e.Message) + len(e.content) + len(e.URL) + len(e.Server.Name) + len(e.Server.Target)
	return int64(len(e.Schema)+len(e.Reason)+2*text) + 8<<10
}

// insert writes entries, of about need bytes in all, in one transaction.
func (s *Store) insert(ctx context.Context, entries []stored, need int64) ([]int64, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if err := s.makeRoom(ctx, tx, need); err != nil {
		return nil, err
	}
	insert, err := tx.PrepareContext(ctx, `INSERT INTO entries
		(id, server_name, server_target, reported_name, reported_title, reported_version,
		 message, mode, schema, url, outcome, reason, content, received, answered, size, sha256,
		 host_name, host_title, host_version, machine)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`)
	if err != nil {
		return nil, err
	}
	index, err := tx.PrepareContext(ctx, `INSERT INTO entries_fts
		(rowid, server, target, reported, message, url, content, tags) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, 0, len(entries))
	for _, e := range entries {
		var size, sum any
		if e.Cut != nil {
			size, sum = e.Cut.Size, e.Cut.SHA256
		}
		r, host := e.Server.Reported, e.Server.Host
		id := firstID(e.Entry)
		for {
			res, err := insert.ExecContext(ctx, id, e.Server.Name, e.Server.Target, r.Name, r.Title, r.Version,
				e.Message, string(e.Mode), blob(e.Schema), e.URL, string(e.Outcome), e.Reason, blob(e.content),
				unixNano(e.Received), unixNano(e.Answered), size, sum, host.Name, host.Title, host.Version, e.Server.Machine)
			if err != nil {
				return nil, err
			}
			if n, err := res.RowsAffected(); err != nil {
				return nil, err
			} else if n == 1 {
				break
			}
			id++ // taken by an entry received in the same millisecond
		}
		// The index's reported column holds what both peers say of
		// themselves, and the machine they are on: a search for the host
		// or the machine finds its entries. Its message column holds why
		// the request failed or went stale too, which a developer looks
		// for ("disconnected").
		if _, err := index.ExecContext(ctx, id, e.Server.Name, e.Server.Target, r.Name+" "+r.Title+" "+host.Name+" "+host.Title+" "+untrusted.Text(e.Server.Machine),
			string(e.Message)+"\n"+e.Reason, e.URL, string(e.content), serverTag(e.Server.Name)+" "+outcomeTag(e.Outcome)); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, tx.Commit()
}

// firstID is the id an entry asks for: its received time (failing that, its
// end, or now) in milliseconds since 1970. Ids thus follow the time requests
// arrived, so walking ids backwards, which the full-text index does without
// sorting, lists the newest first.
func firstID(e Entry) int64 {
	for _, t := range []time.Time{e.Received, e.Answered} {
		if !t.IsZero() {
			return t.UnixMilli()
		}
	}
	return time.Now().UnixMilli()
}

// check refuses entries that could not be exported or shown later.
func check(e Entry) error {
	if !slices.Contains(Outcomes(), e.Outcome) {
		return fmt.Errorf("history: unknown outcome %q", e.Outcome)
	}
	if len(e.Schema) > 0 && !json.Valid(e.Schema) {
		return errors.New("history: the schema is not JSON")
	}
	if len(e.Content) > 0 && !json.Valid(e.Content) {
		return errors.New("history: the content is not JSON")
	}
	return nil
}

// blob stores an empty raw message as NULL.
func blob(raw json.RawMessage) any {
	if len(raw) == 0 {
		return nil
	}
	return []byte(raw)
}

// unixNano stores a time as nanoseconds since 1970, the zero time as NULL.
func unixNano(t time.Time) sql.NullInt64 {
	return sql.NullInt64{Int64: t.UnixNano(), Valid: !t.IsZero()}
}

// Prune deletes the entries received before olderThan, for the retention
// setting, and returns how many went. It goes by id, which follows the
// received time (see firstID), so it reads only what it deletes.
func (s *Store) Prune(ctx context.Context, olderThan time.Time) (int64, error) {
	var n int64
	err := retryBusy(ctx, s.busy, func() error {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if n, err = deleteBefore(ctx, tx, olderThan.UnixMilli()); err != nil {
			return err
		}
		return tx.Commit()
	})
	return n, err
}

// deleteBefore deletes the entries whose id is below cut, within tx.
func deleteBefore(ctx context.Context, tx query, cut int64) (int64, error) {
	if _, err := tx.ExecContext(ctx, `DELETE FROM entries_fts WHERE rowid IN (SELECT id FROM entries WHERE id < ?)`, cut); err != nil {
		return 0, err
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM entries WHERE id < ?`, cut)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// Clear deletes every entry, then rewrites the file so the deleted text does
// not linger in free pages or the write-ahead log.
func (s *Store) Clear(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO entries_fts(entries_fts) VALUES ('delete-all')`); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM entries`); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, `VACUUM`); err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
	return err
}
