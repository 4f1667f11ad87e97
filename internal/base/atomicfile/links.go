package atomicfile

import (
	"os"
	"path/filepath"
)

// maxLinks bounds a chain of symlinks, as the kernel does, so a loop ends.
const maxLinks = 40

// LinkChain returns path, then every file the symlink at path leads to in
// turn, ending at the file a read of path reads and Write writes: the names
// whose change changes that file. A dangling link ends the chain at its
// missing target, which Write creates. A relative link is read from the
// real directory its link is in, as the kernel reads it.
func LinkChain(path string) []string {
	names := []string{filepath.Clean(path)}
	for range maxLinks {
		last := names[len(names)-1]
		dest, err := os.Readlink(last)
		if err != nil {
			break // not a link: the end of the chain
		}
		if !filepath.IsAbs(dest) {
			dir := filepath.Dir(last)
			if real, err := filepath.EvalSymlinks(dir); err == nil {
				dir = real
			}
			dest = filepath.Join(dir, dest)
		}
		names = append(names, filepath.Clean(dest))
	}
	return names
}

// SameFile reports whether paths a and b are one file that exists, however
// each is spelled (a link, a relative path, a hard link).
func SameFile(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}
