package historyview

import (
	"context"
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/internal/history"
)

// RetentionOptions adjust the retention setting for the app.
type RetentionOptions struct {
	// Retention is how long entries are kept now; 0 means
	// history.DefaultRetention.
	Retention time.Duration
	// OnRetention, if not nil, is told when the person changes the
	// retention, so the app can store it. The setting prunes the history
	// itself.
	OnRetention func(time.Duration)
	// OnMaxBytes, if not nil, is told when the person changes the size the
	// history keeps under, one of SizeChoices, so the app can store it.
	// The setting sets it on the store, which says what it is now.
	OnMaxBytes func(int64)
	// OnPruned, if not nil, is told once entries were deleted, so an open
	// History window can show what is left.
	OnPruned func()
	// Do runs a function on the UI goroutine, later; nil means fyne.Do.
	Do func(func())
}

// Retention is the "Keep requests for N days and at most S" setting: the
// one place for how much history is kept, for the Settings window. A
// change of days applies when the person presses Apply (or Enter), not on
// every keystroke, since a shorter time deletes entries; a size applies
// when chosen. Either asks first, over its window, when it would delete
// entries.
type Retention struct {
	win    fyne.Window
	store  *history.Store
	opts   RetentionOptions
	sizes  []int64 // SizeChoices, or smaller ones in tests
	object fyne.CanvasObject
	days   *widget.Entry
	apply  *widget.Button
	size   *widget.Select // sizes, as sizeText
	// run does work off the UI goroutine, then applies what it returns on
	// the UI goroutine; tests replace it to do both at once.
	run func(work func() (apply func()))
}

// NewRetention builds the setting over store, asking its questions over
// win. Place Object() in the window.
func NewRetention(win fyne.Window, store *history.Store, opts RetentionOptions) *Retention {
	return newRetention(win, store, opts, SizeChoices())
}

func newRetention(win fyne.Window, store *history.Store, opts RetentionOptions, sizes []int64) *Retention {
	if opts.Retention <= 0 {
		opts.Retention = history.DefaultRetention
	}
	if opts.Do == nil {
		opts.Do = fyne.Do
	}
	r := &Retention{win: win, store: store, opts: opts, sizes: sizes, days: widget.NewEntry()}
	r.run = func(work func() func()) { go func() { opts.Do(work()) }() }
	r.days.SetText(daysText(opts.Retention))
	r.days.Validator = func(s string) error {
		_, err := parseDays(s)
		return err
	}
	r.apply = widget.NewButton("Apply", r.submit)
	r.apply.Disable()
	r.days.OnChanged = func(s string) {
		if d, err := parseDays(s); err == nil && d != r.opts.Retention {
			r.apply.Enable()
		} else {
			r.apply.Disable()
		}
	}
	r.days.OnSubmitted = func(string) { r.submit() }
	var labels []string
	for _, n := range sizes {
		labels = append(labels, sizeText(n))
	}
	r.size = widget.NewSelect(labels, nil)
	r.showSize()
	r.size.OnChanged = func(string) { r.submitSize() }
	r.object = container.NewHBox(widget.NewLabel("Keep requests for"), container.NewGridWrap(fyne.NewSize(70, r.days.MinSize().Height), r.days), widget.NewLabel("days"), r.apply,
		widget.NewLabel("and at most"), r.size)
	return r
}

// Object is the setting's row of widgets.
func (r *Retention) Object() fyne.CanvasObject { return r.object }

// showSize selects the store's size cap.
func (r *Retention) showSize() { r.size.SetSelected(sizeText(r.store.MaxBytes())) }

// submit applies the entered retention, asking first when it is shorter.
func (r *Retention) submit() {
	d, err := parseDays(r.days.Text)
	if err != nil || d == r.opts.Retention {
		return
	}
	if d > r.opts.Retention {
		r.set(d)
		return
	}
	dialog.ShowConfirm("Keep requests for less time?",
		fmt.Sprintf("Requests older than %s days will be deleted now.", daysText(d)),
		func(ok bool) {
			if ok {
				r.set(d)
			} else {
				r.days.SetText(daysText(r.opts.Retention))
			}
		}, r.win)
}

// set makes d the retention: the app is told, and older entries go.
func (r *Retention) set(d time.Duration) {
	r.opts.Retention = d
	r.apply.Disable()
	if r.opts.OnRetention != nil {
		r.opts.OnRetention(d)
	}
	cut := time.Now().Add(-d)
	r.prune(func(ctx context.Context) error {
		_, err := r.store.Prune(ctx, cut)
		return err
	})
}

// submitSize applies the chosen size cap, asking first when the history
// is over it.
func (r *Retention) submitSize() {
	i := r.size.SelectedIndex()
	if i < 0 || r.sizes[i] == r.store.MaxBytes() {
		return
	}
	n := r.sizes[i]
	if n > r.store.MaxBytes() {
		r.setSize(n, false)
		return
	}
	r.run(func() func() {
		ctx, cancel := context.WithTimeout(context.Background(), queryTimeout)
		defer cancel()
		used, err := r.store.UsedBytes(ctx)
		return func() {
			switch {
			case r.size.SelectedIndex() != i:
				// A later choice replaced this one.
			case err != nil:
				dialog.ShowError(fmt.Errorf("the size of the history cannot be read: %w", err), r.win)
				r.showSize()
			case used <= n:
				r.setSize(n, false)
			default:
				dialog.ShowConfirm("Keep less history?",
					fmt.Sprintf("The history takes %s. Its oldest requests, about %s, will be deleted now to keep it under %s.",
						sizeText(used), sizeText(used-n), sizeText(n)),
					func(ok bool) {
						if ok {
							r.setSize(n, true)
						} else {
							r.showSize()
						}
					}, r.win)
			}
		}
	})
}

// setSize makes n the size cap: the store and the app are told, and when
// prune the oldest entries over it go now rather than at the store's next
// check.
func (r *Retention) setSize(n int64, prune bool) {
	r.store.SetMaxBytes(n)
	if r.opts.OnMaxBytes != nil {
		r.opts.OnMaxBytes(n)
	}
	if prune {
		r.prune(func(ctx context.Context) error {
			_, err := r.store.PruneToMaxBytes(ctx)
			return err
		})
	}
}

// prune deletes entries with del off the UI goroutine, then says so.
func (r *Retention) prune(del func(context.Context) error) {
	r.run(func() func() {
		ctx, cancel := context.WithTimeout(context.Background(), queryTimeout)
		defer cancel()
		err := del(ctx)
		return func() {
			if err != nil {
				dialog.ShowError(fmt.Errorf("old requests were not deleted: %w", err), r.win)
			}
			if r.opts.OnPruned != nil {
				r.opts.OnPruned()
			}
		}
	})
}

// SizeText writes a size cap as the History window does: "64 MB", "1 GB".
// The Settings window offers SizeChoices in these words.
func SizeText(n int64) string { return sizeText(n) }
