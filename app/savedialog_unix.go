//go:build linux || freebsd || openbsd || netbsd

package app

import (
	"context"
	"fmt"

	"github.com/elicitdesk/elicitdesk/internal/desktop/portal"
)

// saveDialog is the desktop's Save dialog, through the XDG desktop portal.
func saveDialog() func(ctx context.Context, parent, name string) (string, error) { return portalSave }

// portalSave shows the desktop's Save dialog through the portal, on a
// session bus connection of its own for the dialog's time.
func portalSave(ctx context.Context, parent, name string) (string, error) {
	conn, err := privateBus()
	if err != nil {
		return "", fmt.Errorf("%w: %v", portal.ErrNoPortal, err)
	}
	defer conn.Close()
	return portal.SaveFile(ctx, conn, portal.SaveOptions{
		Parent: parent, Title: "Export the history", CurrentName: name,
		Filters: []portal.Filter{{Name: "JSON Lines", Patterns: []string{"*.jsonl"}}, {Name: "All files", Patterns: []string{"*"}}},
	})
}
