package config

import (
	"os"
	"path/filepath"
)

// maxLinks bounds a chain of symlinks, as the kernel does, so a loop ends.
const maxLinks = 40

// linkChain returns path, then every file the symlink at path leads to in
// turn, ending at the file Load reads: the names whose change changes what
// Load sees. A dangling link ends the chain at its missing target.
func linkChain(path string) []string {
	names := []string{filepath.Clean(path)}
	for range maxLinks {
		last := names[len(names)-1]
		dest, err := os.Readlink(last)
		if err != nil {
			break // not a link: the end of the chain
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(last), dest)
		}
		names = append(names, filepath.Clean(dest))
	}
	return names
}
