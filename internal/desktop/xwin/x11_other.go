//go:build !linux || wayland

package xwin

func noFocusOnMap(uintptr)    {}
func demandAttention(uintptr) {}
