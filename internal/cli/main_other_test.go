//go:build !unix

package cli

// unixRole plays no role: the roles it stands for are Unix tests'.
func unixRole() (code int, ok bool) { return 0, false }
