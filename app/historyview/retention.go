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

// retention is the "Keep requests for N days" setting. A change applies
// when the person presses Apply (or Enter), not on every keystroke, since
// a shorter time deletes entries; a shorter time also asks first.
type retention struct {
	w      *Window
	object fyne.CanvasObject
	days   *widget.Entry
	apply  *widget.Button
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
	r.object = container.NewHBox(widget.NewLabel("Keep requests for"), container.NewGridWrap(fyne.NewSize(70, r.days.MinSize().Height), r.days), widget.NewLabel("days"), r.apply)
	return r
}

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
