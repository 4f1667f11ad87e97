//go:build !unix

package atomicfile

// claim does nothing: a file open for writing cannot be removed here.
func claim(string) (release func()) { return func() {} }

// abandoned is true: removing a live writer's file fails.
func abandoned(string) bool { return true }
