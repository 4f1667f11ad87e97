//go:build unix && !darwin

package autostart

// native is the desktop's own way: XDG autostart.
func native() fileFormat { return xdgAutostart() }
