//go:build headless

package cli

// runApp: the build without windows runs no core either; the core's own
// executable (internal/corecmd) does, beside the app's binary.
func runApp(_ []string, _, stderr terminal) int {
	stderr.Ours(noWindows)
	return 2
}
