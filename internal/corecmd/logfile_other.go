//go:build !unix

package corecmd

// logToFile is the Unix core's: elsewhere the app is never started with
// its standard error on a null device by the detacher.
func logToFile(string) bool { return false }
