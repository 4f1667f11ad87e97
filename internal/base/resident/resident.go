// Package resident keeps a long-running process's resident set to what it
// uses. Every package's init runs in every role of the one elicitdesk
// binary (Fyne's, SQLite's, the schema compilers'), and the kernel maps
// the pages around each page fault as well (fault-around), so right after
// start nearly all of the binary's code and read-only data, about 27 MB,
// count as the process's RSS, though an idle core or bridge runs little
// of it. They are the page cache's, not the process's own, but tools
// such as top show them as its memory.
package resident

import (
	"context"
	"log/slog"
	"time"
)

// period is how often Keep drops the pages: each time wakes the Go
// runtime's threads a few times.
const period = time.Minute

// Keep drops the start-up pages every minute until ctx ends. Once is
// not enough: each page fault of a request served later maps the 64 KB
// around it too, which the process would otherwise hold for good.
func Keep(ctx context.Context, log *slog.Logger) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := DropStartupPages(); err != nil {
				log.Debug("cannot drop start-up pages", "err", err)
				return
			}
		}
	}
}

// DropStartupPages takes the pages of the executable's and the shared
// libraries' read-only mappings out of the process's resident set. They stay in the page cache: those
// the process still runs come back on their next use, as minor faults,
// one page at a time.
// Only read-only mappings holding no page of the process's own are
// touched, since dropping a private page that was written would lose the
// write. Where this cannot be done (other
// systems) it does nothing.
func DropStartupPages() error { return dropStartupPages() }
