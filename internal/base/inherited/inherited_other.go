//go:build !linux

package inherited

// seal does nothing here: macOS's and the BSDs' hosts are not known to
// leak descriptors, and Windows passes only the handles a program names.
func seal() {}
