//go:build !linux || wayland

package xwin

func noFocusOnMap(uintptr)      {}
func takesInput(uintptr)        {}
func dialogType(uintptr)        {}
func demandAttention(uintptr)   {}
func calm(uintptr)              {}
func mapped(uintptr) bool       { return true }
func focused(uintptr) bool      { return true }
func origin(uintptr) (x, y int) { return 0, 0 }
