package historyview

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver"

	"github.com/elicitdesk/elicitdesk/internal/desktop/portal"
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
// JSON Lines, every match rather than the list's newest 200. It asks
// through the system's Save dialog when the app gave one, and through
// Fyne's when it did not or no system dialog shows.
func (w *Window) exportQuery(q history.Query) {
	q.Limit = 0
	if w.opts.SaveDialog == nil {
		w.exportWithFyne(q)
		return
	}
	parent := w.parent()
	w.run(0, func() func() {
		path, err := w.opts.SaveDialog(context.Background(), parent, exportName)
		return func() {
			switch afterSystemDialog(path, err) {
			case ownDialog:
				w.exportWithFyne(q)
			case failed:
				dialog.ShowError(err, w.win)
			case writeFile:
				out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600) // the history is private
				if err != nil {
					dialog.ShowError(fmt.Errorf("the history was not exported: %w", err), w.win)
					return
				}
				w.write(q, out, path)
			}
		}
	})
}

// saveStep is what export does once the system's Save dialog answered.
type saveStep int

const (
	cancelled saveStep = iota // the person cancelled: nothing
	writeFile                 // write the file chosen
	ownDialog                 // no system dialog showed: Fyne's instead
	failed                    // say what went wrong
)

// afterSystemDialog decides export's next step from the system dialog's
// answer.
func afterSystemDialog(path string, err error) saveStep {
	switch {
	case errors.Is(err, portal.ErrNoPortal):
		return ownDialog
	case err != nil:
		return failed
	case path == "":
		return cancelled
	}
	return writeFile
}

// parent identifies the window to the desktop portal, so its dialog
// belongs to it; "" where the window is not an X11 one.
func (w *Window) parent() string {
	id := ""
	if nw, ok := w.win.(driver.NativeWindow); ok {
		nw.RunNative(func(c any) {
			if x, ok := c.(driver.X11WindowContext); ok {
				id = portal.Parent(x.WindowHandle)
			}
		})
	}
	return id
}

// exportWithFyne asks for the file with Fyne's own Save dialog.
func (w *Window) exportWithFyne(q history.Query) {
	save := dialog.NewFileSave(func(out fyne.URIWriteCloser, err error) {
		if err != nil {
			dialog.ShowError(err, w.win)
			return
		}
		if out == nil {
			return // the person cancelled
		}
		w.write(q, out, out.URI().Path())
	}, w.win)
	save.SetFileName(exportName)
	save.Show()
}

// write exports the entries q selects to out, off the UI goroutine, and
// says where they went.
func (w *Window) write(q history.Query, out io.WriteCloser, where string) {
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
			w.status.SetText("Exported to " + where)
		}
	})
}

// confirmClear has the core delete the whole history once the person
// confirms.
func (w *Window) confirmClear() {
	c := dialog.NewConfirm("Clear the history?", "Every recorded request will be deleted. This cannot be undone.", func(ok bool) {
		if !ok {
			return
		}
		w.run(0, func() func() {
			ctx, cancel := context.WithTimeout(context.Background(), queryTimeout)
			defer cancel()
			err := w.writer.ClearHistory(ctx)
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
