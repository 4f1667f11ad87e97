//go:build !windows

package console

// Attach does nothing: elsewhere a program started from a terminal has
// its standard handles.
func Attach() {}
