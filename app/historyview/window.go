// Package historyview is the History window: every recorded request,
// searched as you type and filtered by server and outcome, with the detail of
// the selected one (who asked, the message, the raw request and response),
// Copy as JSON, Replay, export as JSON Lines, and Clear. How long and how
// much the history keeps is set in the Settings window. The window reads
// the history file; the core alone writes it, Clear included.
// The Fyne code is kept thin: what to query and how to word an entry are
// plain functions tested without a window.
package historyview

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/a11y"
	"github.com/elicitdesk/elicitdesk/app/keys"
	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/desktop/screen"
	"github.com/elicitdesk/elicitdesk/internal/history"
)

// Deps are what the window works on.
type Deps struct {
	// Store is the history file, which the window only reads: the list,
	// the search, the detail and the export. Reading it beside the core is
	// safe: SQLite shares the file between processes, and a read sees
	// whole entries only, as the core committed them.
	Store *history.Store
	// Writer is the history's one writer, which the window asks to Clear.
	Writer Writer
}

// Writer is the history's one writer, Elicit Desk's core, as the window
// reaches it: the windows' process never writes the file itself.
type Writer interface {
	// ClearHistory deletes every entry; the windows are told after.
	ClearHistory(ctx context.Context) error
}

// Options adjust the window for the app.
type Options struct {
	// Do runs a function on the UI goroutine, later; nil means fyne.Do.
	Do func(func())
	// SaveDialog, if not nil, shows the system's Save dialog, suggesting
	// name, for the window parent identifies to the desktop portal (or
	// ""); it returns the path chosen, "" when the person cancelled, or an
	// error wrapping portal.ErrNoPortal when no such dialog shows, and
	// the window shows Fyne's instead. It blocks until the person chose;
	// the window calls it off the UI goroutine.
	SaveDialog func(ctx context.Context, parent, name string) (string, error)
	// Dates is how a replayed form shows dates, as the app's live forms do;
	// the zero value means formview's default.
	Dates forms.DateStyle
	// Screen says where a new window goes, on the UI goroutine; nil
	// means screen.Fallback.
	Screen func() screen.Screen
}

// typingDelay is how long the search waits after a keystroke, so a word
// typed quickly is one query.
const typingDelay = 200 * time.Millisecond

// queryTimeout bounds each query the window runs.
const queryTimeout = 30 * time.Second

// Window is the History window. Its fyne.Window is only hidden when closed,
// so it keeps the search and selection until shown again.
type Window struct {
	app    fyne.App
	store  *history.Store
	writer Writer
	opts   Options
	// run does work off the UI goroutine after a delay, then applies what it
	// returns on the UI goroutine; tests replace it to do both at once.
	run func(delay time.Duration, work func() (apply func()))
	// searches counts the searches begun, so an older one's results, coming
	// late, are dropped.
	searches atomic.Uint64

	// The rest belongs to the UI goroutine.
	win      fyne.Window
	hide     func() // puts the window away, for Ctrl+W and Escape
	search   *keys.Entry
	server   *filter
	outcome  *filter
	list     *widget.List
	rows     *a11y.List      // shows list
	cols     columns         // the list's column widths, for what it shows
	head     *fyne.Container // the headings above the list
	empty    *widget.Label
	clear    *look.Button // clears the search, under empty
	emptyBox fyne.CanvasObject
	status   *widget.Label
	export   *look.Button
	detail   *detail
	split    *container.Split // the list above the detail
	offset   float64          // the split's offset as show last set it
	entries  []history.Entry
	shown    history.Query    // what entries are: the search and filters they were found with
	sources  []history.Source // the servers in the history, as stored
	selected int64            // the shown entry's id, 0 for none
	// opened is whether the window was sized and placed: later it keeps
	// the size and place the person gave it.
	opened bool
}

// New builds the History window over deps; nothing is shown until Show.
func New(a fyne.App, deps Deps, opts Options) *Window {
	if opts.Do == nil {
		opts.Do = fyne.Do
	}
	if opts.Screen == nil {
		opts.Screen = screen.Fallback
	}
	w := &Window{app: a, store: deps.Store, writer: deps.Writer, opts: opts}
	w.run = func(delay time.Duration, work func() func()) {
		time.AfterFunc(delay, func() { opts.Do(work()) })
	}
	w.build()
	return w
}

// Show shows the window, brings it to the front and reloads the list.
func (w *Window) Show() {
	if !w.opened {
		w.opened = true
		w.opts.Screen().Show(w.win, fyne.NewSize(defaultWidth, defaultHeight)) // preferred
	}
	w.win.Show()
	w.win.RequestFocus()
	if w.win.Canvas().Focused() == nil { // first shown: typing searches; later, the keyboard stays where it was
		w.win.Canvas().Focus(w.search)
	}
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
	w.win = w.app.NewWindow("History — Elicit Desk")
	w.win.SetCloseIntercept(w.win.Hide)
	w.hide = w.win.Hide
	k := keys.Close(w.win, func() { w.hide() })

	w.search = k.NewEntry()
	k.Find(w.search)
	w.search.SetPlaceHolder("Search messages, servers, links, answers and failures")
	w.search.OnChanged = func(string) { w.load(typingDelay) }
	w.server = newFilter(k, "Server", serverChoices(nil))
	w.server.SetSelected(allServers)
	w.server.OnChanged = func(string) { w.load(0) }
	w.outcome = newFilter(k, "Outcome", outcomeChoices())
	w.outcome.SetSelected(allOutcomes)
	w.outcome.OnChanged = func(string) { w.load(0) }
	filters := container.NewBorder(nil, nil, nil, container.NewHBox(w.server, w.outcome), w.search)

	// Each row holds its compact theme: a list's rows do not take an
	// override above it (a11y.List).
	w.rows = a11y.NewList("Requests", func() int { return len(w.entries) }, func() fyne.CanvasObject {
		return container.NewThemeOverride(newRow(&w.cols, false), compact{})
	}, func(i widget.ListItemID, o fyne.CanvasObject) {
		setRow(o.(*container.ThemeOverride).Content.(*fyne.Container), rowOf(w.entries[i]))
	}, func() (widget.ListItemID, bool) {
		i := slices.IndexFunc(w.entries, func(e history.Entry) bool { return e.ID == w.selected })
		return i, i >= 0 && w.selected != 0
	})
	w.list = w.rows.Rows()
	w.list.OnSelected = func(i widget.ListItemID) {
		w.selected = w.entries[i].ID
		w.detail.show(w.entries[i])
	}
	w.head = newRow(&w.cols, true)
	setRow(w.head, headings())
	// The empty state sits where the rows would be, where the eye is.
	w.empty = widget.NewLabel("")
	w.empty.Alignment = fyne.TextAlignCenter
	w.clear = look.NewButton("Clear search", theme.ContentClearIcon(), w.clearSearch)
	w.emptyBox = container.NewCenter(container.NewVBox(w.empty, container.NewCenter(w.clear)))
	w.emptyBox.Hide()
	listArea := container.NewBorder(container.NewVBox(container.NewThemeOverride(w.head, compact{}), widget.NewSeparator()), nil, nil, nil, container.NewStack(w.rows, w.emptyBox))
	w.detail = newDetail(w)
	// The list above the detail: the message column gets the window's width.
	w.split = container.NewVSplit(listArea, w.detail.object)
	w.split.Offset, w.offset = listShare, listShare

	w.status = widget.NewLabel("")
	w.status.Wrapping = fyne.TextWrapWord // an error must not widen the window
	w.export = look.NewButton(exportLabel(0, history.Query{}), theme.DocumentSaveIcon(), w.exportShown)
	bottom := container.NewBorder(nil, nil, nil, container.NewHBox(
		w.export,
		look.NewButton("Clear…", theme.DeleteIcon(), w.confirmClear),
	), w.status)

	top := filters
	if n := w.store.Notice(); n != "" {
		banner := widget.NewLabel(n)
		banner.Wrapping = fyne.TextWrapWord
		top = container.NewVBox(container.NewBorder(nil, nil, widget.NewIcon(theme.WarningIcon()), nil, banner), filters)
	}
	w.win.SetContent(keys.Border(top, bottom, nil, nil, w.split)) // Tab: the search, then the list
}

// load queries the history for the search and filters as they are now,
// after delay, and shows the result unless a newer load has begun.
func (w *Window) load(delay time.Duration) {
	q := query(w.search.Text, w.server.Selected, w.outcome.Selected, w.sources)
	n := w.searches.Add(1)
	w.run(delay, func() func() {
		if w.searches.Load() != n {
			return func() {}
		}
		ctx, cancel := context.WithTimeout(context.Background(), queryTimeout)
		defer cancel()
		entries, err := w.store.Search(ctx, q)
		var sources []history.Source
		if err == nil {
			sources, err = w.store.Servers(ctx)
		}
		return func() {
			if w.searches.Load() == n {
				w.show(q, entries, sources, err)
			}
		}
	})
}

// show puts the result of q in the list, keeping the selection when the
// selected entry is still there.
func (w *Window) show(q history.Query, entries []history.Entry, sources []history.Source, err error) {
	if err != nil {
		w.status.SetText("The history cannot be read: " + err.Error())
		return
	}
	w.sources = sources
	w.server.SetOptions(serverChoices(sources))
	w.entries, w.shown = entries, q
	w.export.SetText(exportLabel(len(entries), q))
	if len(entries) == 0 {
		w.export.Disable()
	} else {
		w.export.Enable()
	}
	rows := make([]row, len(entries))
	for i, e := range entries {
		rows[i] = rowOf(e)
	}
	w.cols = columnWidths(rows, labelWidths())
	w.head.Refresh()
	w.list.UnselectAll()
	w.list.Refresh()
	w.fitList(len(entries))
	w.showEmpty(emptyStateOf(len(entries), len(sources) == 0, w.search.Text, w.server.Selected, w.outcome.Selected))
	if len(entries) == listLimit {
		w.status.SetText(fmt.Sprintf("The newest %d that match.", listLimit))
	} else {
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

// showEmpty shows s in the middle of the list area, or nothing there.
func (w *Window) showEmpty(s emptyState) {
	w.empty.SetText(s.text)
	if s.clear {
		w.clear.Show()
	} else {
		w.clear.Hide()
	}
	if s.text == "" {
		w.emptyBox.Hide()
	} else {
		w.emptyBox.Show()
	}
}

// clearSearch empties the search and sets the filters back to all.
func (w *Window) clearSearch() {
	w.search.SetText("")
	w.server.SetSelected(allServers)
	w.outcome.SetSelected(allOutcomes)
	w.load(0)
}

// fitList gives the list the height its rows need and the detail the
// rest, unless the person has moved the divider since: a short history
// would otherwise leave the detail a few lines under an empty list.
func (w *Window) fitList(rows int) {
	if w.split.Offset != w.offset {
		return // the person's choice
	}
	pitch := w.head.MinSize().Height + w.list.Theme().Size(theme.SizeNamePadding)
	w.offset = listOffset(rows, pitch, w.split.Size().Height)
	w.split.SetOffset(w.offset)
}

// filter is a drop-down that narrows the list. It shows only its choice,
// so a screen reader calls it by what it filters (app/atspi). It passes
// Escape and F1 on to the window (keys.Select).
type filter struct {
	keys.Select
	title string
}

func newFilter(k *keys.Keys, title string, options []string) *filter {
	f := &filter{title: title}
	f.Keys, f.Options = k, options
	f.ExtendBaseWidget(f)
	return f
}

// AccessibleTitle is what the drop-down filters by.
func (f *filter) AccessibleTitle() string { return f.title }

// AccessibilityLabel implements fyne.Accessible: what the drop-down
// filters by and what it is set to, "Server: All servers".
func (f *filter) AccessibilityLabel() string { return f.title + ": " + f.Selected }

// AccessibilityRole implements fyne.Accessible: a drop-down is a button
// that opens a menu, as on macOS.
func (f *filter) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleButton }
