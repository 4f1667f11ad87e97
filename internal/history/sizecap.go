package history

import (
	"context"
	"math"
)

// DefaultMaxBytes is the size the history keeps under unless Options says.
const DefaultMaxBytes = 256 << 20

// Options are a Store's settings.
type Options struct {
	// MaxBytes bounds the space the entries take in the file: past it the
	// oldest entries are deleted, besides the retention. 0 means
	// DefaultMaxBytes.
	MaxBytes int64
}

// capCheckEvery is how many writes go between two checks of the size: a
// check is cheap, but not free.
const capCheckEvery = 32

// SetMaxBytes makes n the store's MaxBytes (see Options), from the next
// check of the size on; PruneToMaxBytes checks at once. It is safe to call
// while the store is in use.
func (s *Store) SetMaxBytes(n int64) {
	if n <= 0 {
		n = DefaultMaxBytes
	}
	s.maxBytes.Store(n)
}

// MaxBytes is the size the store keeps under.
func (s *Store) MaxBytes() int64 { return s.maxBytes.Load() }

// afterWrite checks the size every capCheckEvery writes of a Store from
// Open, which sets maxBytes.
func (s *Store) afterWrite(ctx context.Context) error {
	if s.maxBytes.Load() == 0 || s.writes.Add(1)%capCheckEvery != 0 {
		return nil
	}
	_, err := s.PruneToMaxBytes(ctx)
	return err
}

// PruneToMaxBytes deletes the oldest entries until the pages in use fit in
// MaxBytes, and returns how many went. Deleted pages are reused by later
// writes, so the file stays near MaxBytes without a VACUUM.
//
// Each pass deletes what the overshoot calls for, aiming an eighth under
// the cap so the next writes do not prune again at once, and then merges
// the full-text index: until then, deleted rows leave their index pages in
// use, the size seems not to fall, and a pass after pass would empty the
// history. It stops when a pass frees nothing, and always keeps the newest
// entry.
func (s *Store) PruneToMaxBytes(ctx context.Context) (int64, error) {
	var deleted int64
	for {
		used, err := s.UsedBytes(ctx)
		limit := s.maxBytes.Load()
		if err != nil || used <= limit {
			return deleted, err
		}
		var n int64
		if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM entries`).Scan(&n); err != nil || n <= 1 {
			return deleted, err
		}
		share := int64(math.Ceil(float64(n) * float64(used-limit*7/8) / float64(used)))
		var cut int64 // the id of the oldest entry to keep
		if err := s.db.QueryRowContext(ctx, `SELECT id FROM entries ORDER BY id LIMIT 1 OFFSET ?`, min(max(share, 1), n-1)).Scan(&cut); err != nil {
			return deleted, err
		}
		gone, err := s.deleteBefore(ctx, cut)
		deleted += gone
		if err != nil {
			return deleted, err
		}
		if _, err := s.db.ExecContext(ctx, `INSERT INTO entries_fts(entries_fts) VALUES('optimize')`); err != nil {
			return deleted, err
		}
		if after, err := s.UsedBytes(ctx); err != nil || after >= used {
			return deleted, err // nothing freed: stop rather than delete on
		}
	}
}

// UsedBytes is the space the entries take, which MaxBytes bounds: the
// file's pages less the free ones.
func (s *Store) UsedBytes(ctx context.Context) (int64, error) {
	var pages, free, size int64
	err := s.db.QueryRowContext(ctx, `SELECT p.page_count, f.freelist_count, s.page_size
		FROM pragma_page_count() p, pragma_freelist_count() f, pragma_page_size() s`).Scan(&pages, &free, &size)
	return (pages - free) * size, err
}
