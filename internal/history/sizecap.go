package history

import (
	"context"
	"database/sql"
	"errors"
)

// DefaultMaxBytes is the size the history keeps under unless Options says.
const DefaultMaxBytes = 256 << 20

// Options are a Store's settings.
type Options struct {
	// MaxBytes bounds the space the entries take in the file: past it the
	// oldest entries are deleted, besides the retention. The file keeps it,
	// for other processes writing the same history. 0 means the cap the
	// file keeps, which the app set (the bridge writes so), or
	// DefaultMaxBytes when it keeps none.
	MaxBytes int64
}

// query is what a *sql.DB and a *sql.Tx both do.
type query interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// SetMaxBytes makes n (DefaultMaxBytes when n <= 0) the store's MaxBytes
// from its next write on, and the file's with the next write or
// PruneToMaxBytes; PruneToMaxBytes prunes to it at once. It is safe to
// call while the store is in use.
func (s *Store) SetMaxBytes(n int64) {
	if n <= 0 {
		n = DefaultMaxBytes
	}
	s.ownCap.Store(true)
	s.maxBytes.Store(n)
}

// MaxBytes is the size the store keeps under.
func (s *Store) MaxBytes() int64 { return s.maxBytes.Load() }

// targetBytes is what pruning brings the space in use down to: an eighth
// under the cap, so the writes after it do not prune again at once.
func targetBytes(limit int64) int64 { return limit - limit/8 }

// capKey is the settings row that keeps MaxBytes in the file.
const capKey = "max_bytes"

// syncCap returns the cap in force, within tx: the store's own, which it
// writes into the file, or the one the file keeps.
func (s *Store) syncCap(ctx context.Context, tx query) (int64, error) {
	if s.ownCap.Load() {
		limit := s.maxBytes.Load()
		_, err := tx.ExecContext(ctx, `INSERT INTO settings (name, value) VALUES (?, ?)
			ON CONFLICT (name) DO UPDATE SET value = excluded.value WHERE value IS NOT excluded.value`, capKey, limit)
		return limit, err
	}
	var limit int64
	err := tx.QueryRowContext(ctx, `SELECT value FROM settings WHERE name = ?`, capKey).Scan(&limit)
	if errors.Is(err, sql.ErrNoRows) || limit <= 0 {
		limit, err = DefaultMaxBytes, nil
	}
	if err == nil {
		s.maxBytes.Store(limit)
	}
	return limit, err
}

// afterWrite prunes when the write left the space in use over the cap:
// the writer's own estimate (see makeRoom) fell short, or another process
// wrote too. Measuring is a read of the file's header, cheap enough for
// every write.
func (s *Store) afterWrite(ctx context.Context) error {
	used, err := s.UsedBytes(ctx)
	if err != nil || used <= s.maxBytes.Load() {
		return err
	}
	_, err = s.PruneToMaxBytes(ctx)
	return err
}

// makeRoom prunes within tx, before a write of about size bytes that
// would take the space in use past the cap, so the file never grows past
// it: down to the target, or lower when size is more than the cap leaves.
func (s *Store) makeRoom(ctx context.Context, tx query, size int64) error {
	limit, err := s.syncCap(ctx, tx)
	if err != nil {
		return err
	}
	used, err := usedBytes(ctx, tx)
	if err != nil || used+size <= limit {
		return err
	}
	_, err = pruneTo(ctx, tx, used, min(targetBytes(limit), limit-size))
	return err
}

// PruneToMaxBytes deletes the oldest entries until the pages in use fit
// in the target an eighth under MaxBytes (the file's own cap, in a store
// that follows it), and returns how many went. It does nothing while the
// history is under MaxBytes. Deleted pages are reused by later writes, so
// the file stays near MaxBytes without a VACUUM.
//
// It measures and deletes in one write transaction, so that two writers
// (the app and a bridge, or two bridges) past the cap at once do not both
// delete what one's pruning was enough for.
func (s *Store) PruneToMaxBytes(ctx context.Context) (int64, error) {
	var deleted int64
	err := retryBusy(ctx, s.busy, func() error {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		limit, err := s.syncCap(ctx, tx)
		if err != nil {
			return err
		}
		used, err := usedBytes(ctx, tx)
		if err != nil {
			return err
		}
		if used > limit {
			if deleted, err = pruneTo(ctx, tx, used, targetBytes(limit)); err != nil {
				return err
			}
		}
		return tx.Commit()
	})
	return deleted, err
}

// entryBytes is what an entry's own columns hold, plus a share for the
// rest of its row and its index entries. Pruning weighs entries by it: a
// few large old entries free far more than their count says.
const entryBytes = `(octet_length(message) + ifnull(octet_length(schema), 0) + ifnull(octet_length(content), 0)
	+ octet_length(url) + octet_length(reason) + 256)`

// pruneTo deletes the oldest entries within tx until the space in use,
// used now, is at most target, and returns how many went. It always keeps
// the newest entry.
//
// Each pass deletes the oldest entries whose share of the space in use
// (their entryBytes, scaled to it) covers part of the excess, merges the
// full-text index (until then, deleted rows leave their index pages in
// use and the size seems not to fall) and measures what it freed. What an
// entry frees is not quite its share: the slack of its pages, the index
// of its words. So the first pass covers half the excess, and each next
// one what is left by the measure of what the last freed for its share;
// the passes thus end at the target rather than well under it. They stop
// when one frees nothing.
func pruneTo(ctx context.Context, tx query, used, target int64) (int64, error) {
	var deleted int64
	freesPerShare := 2.0 // what a pass is expected to free for each byte of its share: for the first, a guess on the safe side
	for used > target {
		var n, newest int64
		var total float64
		if err := tx.QueryRowContext(ctx, `SELECT count(*), ifnull(max(id), 0), total(`+entryBytes+`) FROM entries`).Scan(&n, &newest, &total); err != nil || n <= 1 {
			return deleted, err
		}
		perWeight := float64(used) / total // the space in use per unit of entryBytes
		want := float64(used-target) / freesPerShare / perWeight
		// The oldest entries whose weight reaches want: the last of them
		// goes, and all before.
		last, share := newest, total
		err := tx.QueryRowContext(ctx, `SELECT id, run FROM (SELECT id, sum(`+entryBytes+`) OVER (ORDER BY id) AS run FROM entries)
			WHERE run >= ? ORDER BY id LIMIT 1`, want).Scan(&last, &share)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return deleted, err
		}
		gone, err := deleteBefore(ctx, tx, min(last+1, newest))
		deleted += gone
		if err != nil || gone == 0 {
			return deleted, err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO entries_fts(entries_fts) VALUES('optimize')`); err != nil {
			return deleted, err
		}
		after, err := usedBytes(ctx, tx)
		if err != nil || after >= used {
			return deleted, err // nothing freed: stop rather than delete on
		}
		freesPerShare = float64(used-after) / (share * perWeight)
		used = after
	}
	return deleted, nil
}

// UsedBytes is the space the entries take, which MaxBytes bounds: the
// file's pages less the free ones.
func (s *Store) UsedBytes(ctx context.Context) (int64, error) {
	return usedBytes(ctx, s.db)
}

func usedBytes(ctx context.Context, q query) (int64, error) {
	var pages, free, size int64
	err := q.QueryRowContext(ctx, `SELECT p.page_count, f.freelist_count, s.page_size
		FROM pragma_page_count() p, pragma_freelist_count() f, pragma_page_size() s`).Scan(&pages, &free, &size)
	return (pages - free) * size, err
}
