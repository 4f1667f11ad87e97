//go:build !(headless && core)

package cli

// coreOnly: this build has every command (handover_core.go is the core's).
const coreOnly = false
