package history

import (
	"context"
	"database/sql"
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

// capShare is the part of the entries one pass deletes, oldest first, when
// the history is over its size.
const capShare = 8 // one eighth

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
func (s *Store) PruneToMaxBytes(ctx context.Context) (int64, error) {
	var deleted int64
	for {
		used, err := s.UsedBytes(ctx)
		if err != nil || used <= s.maxBytes.Load() {
			return deleted, err
		}
		var n int64
		if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM entries`).Scan(&n); err != nil || n == 0 {
			return deleted, err
		}
		var cut int64
		err = s.db.QueryRowContext(ctx, `SELECT id FROM entries ORDER BY id LIMIT 1 OFFSET ?`, max(n/capShare, 1)).Scan(&cut)
		if err == sql.ErrNoRows {
			cut = 1 << 62 // fewer than one share: delete them all
		} else if err != nil {
			return deleted, err
		}
		n, err = s.deleteBefore(ctx, cut)
		deleted += n
		if err != nil {
			return deleted, err
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
