package historyview

import (
	"context"
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// retention is the "Keep requests for N days and at most S" setting: the
// one place for how much history is kept. A change of days applies when the
// person presses Apply (or Enter), not on every keystroke, since a shorter
// time deletes entries; a size applies when chosen. Either asks first when
// it would delete entries.
type retention struct {
	w      *Window
	object fyne.CanvasObject
	days   *widget.Entry
	apply  *widget.Button
	size   *widget.Select // w.sizes, as sizeText
}

func newRetention(w *Window) *retention {
	r := &retention{w: w, days: widget.NewEntry()}
	r.days.SetText(daysText(w.opts.Retention))
	r.days.Validator = func(s string) error {
		_, err := parseDays(s)
		return err
	}
	r.apply = widget.NewButton("Apply", r.submit)
	r.apply.Disable()
	r.days.OnChanged = func(s string) {
		if d, err := parseDays(s); err == nil && d != w.opts.Retention {
			r.apply.Enable()
		} else {
			r.apply.Disable()
		}
	}
	r.days.OnSubmitted = func(string) { r.submit() }
	var labels []string
	for _, n := range w.sizes {
		labels = append(labels, sizeText(n))
	}
	r.size = widget.NewSelect(labels, nil)
	r.showSize()
	r.size.OnChanged = func(string) { r.submitSize() }
	r.object = container.NewHBox(widget.NewLabel("Keep requests for"), container.NewGridWrap(fyne.NewSize(70, r.days.MinSize().Height), r.days), widget.NewLabel("days"), r.apply,
		widget.NewLabel("and at most"), r.size)
	return r
}

// showSize selects the store's size cap.
func (r *retention) showSize() { r.size.SetSelected(sizeText(r.w.store.MaxBytes())) }

// submit applies the entered retention, asking first when it is shorter.
func (r *retention) submit() {
	d, err := parseDays(r.days.Text)
	if err != nil || d == r.w.opts.Retention {
		return
	}
	if d > r.w.opts.Retention {
		r.set(d)
		return
	}
	dialog.ShowConfirm("Keep requests for less time?",
		fmt.Sprintf("Requests older than %s days will be deleted now.", daysText(d)),
		func(ok bool) {
			if ok {
				r.set(d)
			} else {
				r.days.SetText(daysText(r.w.opts.Retention))
			}
		}, r.w.win)
}

// set makes d the retention: the app is told, and older entries go.
func (r *retention) set(d time.Duration) {
	w := r.w
	w.opts.Retention = d
	r.apply.Disable()
	if w.opts.OnRetention != nil {
		w.opts.OnRetention(d)
	}
	cut := time.Now().Add(-d)
	w.run(0, func() func() {
		ctx, cancel := context.WithTimeout(context.Background(), queryTimeout)
		defer cancel()
		_, err := w.store.Prune(ctx, cut)
		return func() {
			if err != nil {
				dialog.ShowError(fmt.Errorf("old requests were not deleted: %w", err), w.win)
			}
			w.load(0)
		}
	})
}

// submitSize applies the chosen size cap, asking first when the history
// is over it.
func (r *retention) submitSize() {
	w := r.w
	i := r.size.SelectedIndex()
	if i < 0 || w.sizes[i] == w.store.MaxBytes() {
		return
	}
	n := w.sizes[i]
	if n > w.store.MaxBytes() {
		r.setSize(n, false)
		return
	}
	w.run(0, func() func() {
		ctx, cancel := context.WithTimeout(context.Background(), queryTimeout)
		defer cancel()
		used, err := w.store.UsedBytes(ctx)
		return func() {
			switch {
			case r.size.SelectedIndex() != i:
				// A later choice replaced this one.
			case err != nil:
				dialog.ShowError(fmt.Errorf("the size of the history cannot be read: %w", err), w.win)
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
					}, w.win)
			}
		}
	})
}

// setSize makes n the size cap: the store and the app are told, and when
// prune the oldest entries over it go now rather than at the store's next
// check.
func (r *retention) setSize(n int64, prune bool) {
	w := r.w
	w.store.SetMaxBytes(n)
	if w.opts.OnMaxBytes != nil {
		w.opts.OnMaxBytes(n)
	}
	if !prune {
		return
	}
	w.run(0, func() func() {
		ctx, cancel := context.WithTimeout(context.Background(), queryTimeout)
		defer cancel()
		_, err := w.store.PruneToMaxBytes(ctx)
		return func() {
			if err != nil {
				dialog.ShowError(fmt.Errorf("old requests were not deleted: %w", err), w.win)
			}
			w.load(0)
		}
	})
}

// SizeText writes a size cap as the History window does: "64 MB", "1 GB".
// The Settings window offers SizeChoices in these words.
func SizeText(n int64) string { return sizeText(n) }
