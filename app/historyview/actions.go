package historyview

import (
	"context"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
)

// export asks for a file and writes the entries the search and filters
// select there as JSON Lines, every match rather than the list's newest 200.
func (w *Window) export() {
	q := query(w.search.Text, w.server.Selected, w.outcome.Selected, w.names)
	q.Limit = 0
	save := dialog.NewFileSave(func(out fyne.URIWriteCloser, err error) {
		if err != nil {
			dialog.ShowError(err, w.win)
			return
		}
		if out == nil {
			return // the person cancelled
		}
		w.run(0, func() func() {
			ctx, cancel := context.WithTimeout(context.Background(), queryTimeout)
			defer cancel()
			err := w.store.Export(ctx, out, q)
			if cerr := out.Close(); err == nil {
				err = cerr
			}
			return func() {
				if err != nil {
					dialog.ShowError(fmt.Errorf("the history was not exported: %w", err), w.win)
					return
				}
				w.status.SetText("Exported to " + out.URI().Path())
			}
		})
	}, w.win)
	save.SetFileName("elicitdesk-history.jsonl")
	save.Show()
}

// confirmClear deletes the whole history once the person confirms.
func (w *Window) confirmClear() {
	c := dialog.NewConfirm("Clear the history?", "Every recorded request will be deleted. This cannot be undone.", func(ok bool) {
		if !ok {
			return
		}
		w.run(0, func() func() {
			ctx, cancel := context.WithTimeout(context.Background(), queryTimeout)
			defer cancel()
			err := w.store.Clear(ctx)
			return func() {
				if err != nil {
					dialog.ShowError(fmt.Errorf("the history was not cleared: %w", err), w.win)
				}
				w.load(0)
			}
		})
	}, w.win)
	c.SetConfirmText("Delete everything")
	c.SetDismissText("Cancel")
	c.Show()
}
