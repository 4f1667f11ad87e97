package hosts

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/elicitdesk/elicitdesk/internal/base/atomicfile"
)

// ErrChanged means the config changed after it was read, most likely
// because its host wrote it: writing now would lose the host's change.
var ErrChanged = errors.New("the file changed since it was read; nothing was written, so the host's change is kept (read it again and retry)")

// BackupSuffix names the copy of a config kept beside it before an edit.
const BackupSuffix = ".elicitdesk-backup"

// Apply writes the plan: a backup of the file as read beside it (the file
// before this change; the one before it is replaced), then the
// edited file, atomically and keeping its mode. It writes nothing when the
// plan changes nothing, or when the file cannot be written or no longer
// holds what was read. It returns the backup's path.
func (p *Plan) Apply() (backup string, err error) {
	if len(p.Changes) == 0 {
		return "", nil
	}
	c := p.Config
	unchanged := func() error {
		now, err := os.ReadFile(c.Path)
		if err != nil {
			return err
		}
		if !bytes.Equal(now, c.data) {
			return fmt.Errorf("%s: %w", c.Path, ErrChanged)
		}
		return nil
	}
	if err := unchanged(); err != nil {
		return "", err
	}
	f, err := os.OpenFile(c.Path, os.O_WRONLY, 0) // a read-only or locked file is refused before anything is written
	if err != nil {
		return "", fmt.Errorf("%s cannot be written: %w; nothing was changed", c.Path, errors.Unwrap(err))
	}
	f.Close()
	info, err := os.Stat(c.Path)
	if err != nil {
		return "", err
	}
	if p.routes {
		if err := c.bin.remember(); err != nil {
			return "", fmt.Errorf("cannot record %s as Elicit Desk's own in %s: %w; nothing was changed", c.bin.Exe, c.bin.Record, err)
		}
	}
	backup = c.Path + BackupSuffix
	// A new file, not written through a link nor keeping an older mode:
	// the backup is exactly as private as the config.
	if err := os.Remove(backup); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("cannot replace the backup %s: %w; nothing was changed", backup, err)
	}
	if err := atomicfile.Write(backup, c.data, info.Mode().Perm()); err != nil {
		return "", fmt.Errorf("cannot keep a backup of %s: %w; nothing was changed", c.Path, err)
	}
	if err := atomicfile.WriteChecked(c.Path, p.data, info.Mode().Perm(), unchanged); err != nil {
		return "", err
	}
	return backup, nil
}
