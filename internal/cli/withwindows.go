//go:build !headless

package cli

// windowsBuilt: this build has Elicit Desk's windows (cmd_headless.go is
// the build without).
const windowsBuilt = true
