//go:build !linux

package atspi

// onUIThread cannot tell here, and says yes: what Fyne runs once stopped
// runs as it would have before.
func onUIThread() bool { return true }
