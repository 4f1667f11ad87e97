package historyview

import (
	"context"
	"fmt"
	"io"

	"github.com/elicitdesk/elicitdesk/app/modal"
	"github.com/elicitdesk/elicitdesk/app/savefile"
	"github.com/elicitdesk/elicitdesk/internal/history"
)

// exportName is the file name the Save dialog suggests.
const exportName = "elicitdesk-history.jsonl"

// exportLabel is what the Export button says it exports, for the n
// entries the list shows, found with q: all of the history when nothing
// narrows it, else those shown, or every match when the list shows only
// the newest.
func exportLabel(n int, q history.Query) string {
	switch {
	case q.Text == "" && q.Server == "" && q.Outcome == "":
		return "Export all…"
	case n >= listLimit:
		return "Export all that match…"
	case n == 1:
		return "Export 1 shown…"
	}
	return fmt.Sprintf("Export %d shown…", n)
}

// exportShown exports what the list shows, as its button says.
func (w *Window) exportShown() { w.exportQuery(w.shown) }

// exportQuery asks for a file and writes the entries q selects there as
// JSON Lines, every match rather than the list's newest 200.
func (w *Window) exportQuery(q history.Query) {
	q.Limit = 0
	saver := savefile.Saver{Win: w.win, System: w.opts.SaveDialog, Run: func(work func() func()) { w.run(0, work) }}
	saver.Save(exportName, func(out io.Writer) error {
		ctx, cancel := context.WithTimeout(context.Background(), queryTimeout)
		defer cancel()
		return w.store.Export(ctx, out, q)
	}, func(where string, err error) {
		if err != nil {
			modal.Tell(w.win.Canvas(), "The history was not exported", err.Error(), nil)
			return
		}
		w.status.SetText("Exported to " + where)
	})
}

// confirmClear has the core delete the whole history once the person
// confirms.
func (w *Window) confirmClear() {
	modal.Confirm(w.win.Canvas(), "Clear the history?", "Every recorded request will be deleted. This cannot be undone.", "Cancel", "Delete everything", func() {
		w.run(0, func() func() {
			ctx, cancel := context.WithTimeout(context.Background(), queryTimeout)
			defer cancel()
			err := w.writer.ClearHistory(ctx)
			return func() {
				if err != nil {
					modal.Tell(w.win.Canvas(), "The history was not cleared", err.Error(), nil)
				}
				w.load(0)
			}
		})
	})
}
