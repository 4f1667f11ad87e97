//go:build headless && !core

package cli

// runApp: the build without windows runs no core either; the core's own
// build (-tags headless,core) does, beside the app's binary.
func runApp(_ []string, _, stderr terminal) int {
	stderr.Ours(noWindows)
	return 2
}
