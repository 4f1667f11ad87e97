//go:build unix

package atomicfile

import (
	"io/fs"
	"os"
	"syscall"
)

// keepOwner gives f the owner and group of old. Only root may give a file
// away, so failing leaves the writer's ownership, which is what it was
// before this package kept owners.
func keepOwner(f *os.File, old fs.FileInfo) {
	if st, ok := old.Sys().(*syscall.Stat_t); ok {
		_ = f.Chown(int(st.Uid), int(st.Gid))
	}
}
