package app

import (
	"context"

	"github.com/elicitdesk/elicitdesk/app/historyview"
	"github.com/elicitdesk/elicitdesk/internal/history"
)

// openHistory opens the history database. A damaged one never stops the
// app: the store keeps it aside, starts a fresh file and says so; when the
// file stays busy (another program holds it) or even that fails, the app
// runs without a history and says that.
func (d *Desk) openHistory() {
	defer close(d.opened)
	s, err := history.Open(d.opts.HistoryPath, d.log, history.Options{MaxBytes: d.settings.HistoryMaxBytes})
	if err != nil {
		d.log.Error("running without a history", "err", err)
		d.showError("The history cannot be kept", "Elicit Desk runs without a history this time: "+err.Error())
		return
	}
	d.history = s
	if n := s.Notice(); n != "" {
		d.showError("The history file had a problem", n)
	}
	d.prune()
}

// prune forgets what is older than the retention setting.
func (d *Desk) prune() {
	if d.history == nil {
		return
	}
	before := d.now().Add(-d.settings.Retention)
	d.writes.Go(func() {
		if n, err := d.history.Prune(context.WithoutCancel(d.ctx), before); err != nil {
			d.log.Error("history not pruned", "err", err)
		} else if n > 0 {
			d.log.Info("history pruned", "entries", n)
		}
	})
}

// showHistory opens the History window, making it the first time: an
// idle app in the tray keeps no window.
func (d *Desk) showHistory() {
	if d.history == nil {
		d.showError("There is no history", "The history could not be opened when Elicit Desk started; the log says why.")
		return
	}
	if d.historyWin == nil {
		d.historyWin = historyview.New(d.fyne, d.history, historyview.Options{
			Dates:      d.opts.Dates,
			Do:         d.do,
			SaveDialog: saveDialog(),
			Screen:     d.screen,
		})
	}
	d.historyWin.Show()
}
