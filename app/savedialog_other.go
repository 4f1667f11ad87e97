//go:build !(linux || freebsd || openbsd || netbsd)

package app

import "context"

// saveDialog is none on macOS and Windows: the History window uses Fyne's
// own Save dialog there.
func saveDialog() func(ctx context.Context, parent, name string) (string, error) { return nil }
