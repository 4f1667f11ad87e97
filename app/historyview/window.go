// Package historyview is the History window: every recorded request,
// searched as you type and filtered by server and outcome, with the detail of
// the selected one (who asked, the message, the raw request and response),
// Copy as JSON, Replay, export as JSON Lines, the settings of how long and how
// much the history keeps, and Clear.
// The Fyne code is kept thin: what to query and how to word an entry are
// plain functions tested without a window.
package historyview

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/internal/history"
)

// Options adjust the window for the app.
type Options struct {
	// Retention is how long entries are kept; 0 means history.DefaultRetention.
	Retention time.Duration
	// OnRetention, if not nil, is told when the person changes the retention,
	// so the app can store it. The window prunes the history itself.
	OnRetention func(time.Duration)
	// OnMaxBytes, if not nil, is told when the person changes the size the
	// history keeps under, one of SizeChoices, so the app can store it. The
	// window sets it on the store, which says what it is now.
	OnMaxBytes func(int64)
	// Do runs a function on the UI goroutine, later; nil means fyne.Do.
	Do func(func())
}

// typingDelay is how long the search waits after a keystroke, so a word
// typed quickly is one query.
const typingDelay = 200 * time.Millisecond

// queryTimeout bounds each query the window runs.
const queryTimeout = 30 * time.Second

// Window is the History window. Its fyne.Window is only hidden when closed,
// so it keeps the search and selection until shown again.
type Window struct {
	app   fyne.App
	store *history.Store
	opts  Options
	sizes []int64 // SizeChoices, or smaller ones in tests
	// run does work off the UI goroutine after a delay, then applies what it
	// returns on the UI goroutine; tests replace it to do both at once.
	run func(delay time.Duration, work func() (apply func()))
	// searches counts the searches begun, so an older one's results, coming
	// late, are dropped.
	searches atomic.Uint64

	// The rest belongs to the UI goroutine.
	win       fyne.Window
	search    *widget.Entry
	server    *widget.Select
	outcome   *widget.Select
	list      *widget.List
	status    *widget.Label
	detail    *detail
	retention *retention
	entries   []history.Entry
	names     []string // the servers in the history, as stored
	selected  int64    // the shown entry's id, 0 for none
}

// New builds the History window over store; nothing is shown until Show.
func New(a fyne.App, store *history.Store, opts Options) *Window {
	return newWindow(a, store, opts, SizeChoices())
}

func newWindow(a fyne.App, store *history.Store, opts Options, sizes []int64) *Window {
	if opts.Retention <= 0 {
		opts.Retention = history.DefaultRetention
	}
	if opts.Do == nil {
		opts.Do = fyne.Do
	}
	w := &Window{app: a, store: store, opts: opts, sizes: sizes}
	w.run = func(delay time.Duration, work func() func()) {
		time.AfterFunc(delay, func() { opts.Do(work()) })
	}
	w.build()
	return w
}

// Show shows the window, brings it to the front and reloads the list.
func (w *Window) Show() {
	w.win.Show()
	w.win.RequestFocus()
	w.load(0)
}

// Refresh reloads the list, for the app to call when it has recorded a
// request. It may be called from any goroutine.
func (w *Window) Refresh() {
	w.opts.Do(func() { w.load(0) })
}

// Window is the fyne.Window, for the app to place or close.
func (w *Window) Window() fyne.Window { return w.win }

func (w *Window) build() {
	w.win = w.app.NewWindow("Elicit Desk — History")
	w.win.SetCloseIntercept(w.win.Hide)

	w.search = widget.NewEntry()
	w.search.SetPlaceHolder("Search messages, servers, URLs and answers")
	w.search.OnChanged = func(string) { w.load(typingDelay) }
	w.server = widget.NewSelect(serverChoices(nil), nil)
	w.server.SetSelected(allServers)
	w.server.OnChanged = func(string) { w.load(0) }
	w.outcome = widget.NewSelect(outcomeChoices(), nil)
	w.outcome.SetSelected(allOutcomes)
	w.outcome.OnChanged = func(string) { w.load(0) }
	filters := container.NewBorder(nil, nil, nil, container.NewHBox(w.server, w.outcome), w.search)

	w.list = widget.NewList(func() int { return len(w.entries) }, newRowView, func(i widget.ListItemID, o fyne.CanvasObject) {
		setRowView(o, rowOf(w.entries[i]))
	})
	w.list.OnSelected = func(i widget.ListItemID) {
		w.selected = w.entries[i].ID
		w.detail.show(w.entries[i])
	}
	w.detail = newDetail(w)
	split := container.NewHSplit(w.list, w.detail.object)
	split.Offset = 0.45

	w.status = widget.NewLabel("")
	w.retention = newRetention(w)
	bottom := container.NewBorder(nil, nil, w.retention.object, container.NewHBox(
		widget.NewButtonWithIcon("Export…", theme.DocumentSaveIcon(), w.export),
		widget.NewButtonWithIcon("Clear…", theme.DeleteIcon(), w.confirmClear),
	), w.status)

	top := filters
	if n := w.store.Notice(); n != "" {
		banner := widget.NewLabel(n)
		banner.Wrapping = fyne.TextWrapWord
		top = container.NewVBox(container.NewBorder(nil, nil, widget.NewIcon(theme.WarningIcon()), nil, banner), filters)
	}
	w.win.SetContent(container.NewBorder(top, bottom, nil, nil, split))
	w.win.Resize(fyne.NewSize(1100, 700))
}

// load queries the history for the search and filters as they are now,
// after delay, and shows the result unless a newer load has begun.
func (w *Window) load(delay time.Duration) {
	q := query(w.search.Text, w.server.Selected, w.outcome.Selected, w.names)
	n := w.searches.Add(1)
	w.run(delay, func() func() {
		if w.searches.Load() != n {
			return func() {}
		}
		ctx, cancel := context.WithTimeout(context.Background(), queryTimeout)
		defer cancel()
		entries, err := w.store.Search(ctx, q)
		var names []string
		if err == nil {
			names, err = w.store.Servers(ctx)
		}
		return func() {
			if w.searches.Load() == n {
				w.show(entries, names, err)
			}
		}
	})
}

// show puts a query's result in the list, keeping the selection when the
// selected entry is still there.
func (w *Window) show(entries []history.Entry, names []string, err error) {
	if err != nil {
		w.status.SetText("The history cannot be read: " + err.Error())
		return
	}
	w.names = names
	w.server.SetOptions(serverChoices(names))
	w.entries = entries
	w.list.UnselectAll()
	w.list.Refresh()
	switch {
	case len(entries) == 0 && w.search.Text == "" && w.server.Selected == allServers && w.outcome.Selected == allOutcomes:
		w.status.SetText("No requests yet.")
	case len(entries) == 0:
		w.status.SetText("Nothing matches.")
	case len(entries) == listLimit:
		w.status.SetText(fmt.Sprintf("The newest %d that match.", listLimit))
	default:
		w.status.SetText("")
	}
	for i, e := range entries {
		if e.ID == w.selected {
			w.list.Select(i)
			return
		}
	}
	w.selected = 0
	w.detail.clear()
}

// newRowView is the list's template: time, server and outcome in columns
// of fixed width, then the message's first line.
func newRowView() fyne.CanvasObject {
	cell := func(sample string, truncate bool) fyne.CanvasObject {
		l := widget.NewLabel("")
		if truncate {
			l.Truncation = fyne.TextTruncateEllipsis
		}
		return container.NewGridWrap(widget.NewLabel(sample).MinSize(), l)
	}
	headline := widget.NewLabel("")
	headline.Truncation = fyne.TextTruncateEllipsis
	return container.NewBorder(nil, nil, container.NewHBox(cell("8888-88-88 88:88", false), cell("a-server-name", true), cell("rate-limited", false)), nil, headline)
}

// setRowView fills a row made by newRowView.
func setRowView(o fyne.CanvasObject, r row) {
	c := o.(*fyne.Container)
	cells := c.Objects[1].(*fyne.Container).Objects
	for i, text := range []string{r.when, r.server, r.outcome} {
		cells[i].(*fyne.Container).Objects[0].(*widget.Label).SetText(text)
	}
	c.Objects[0].(*widget.Label).SetText(r.headline)
}
