package app

import (
	"github.com/elicitdesk/elicitdesk/app/historyview"
	"github.com/elicitdesk/elicitdesk/internal/history"
)

// openHistory opens the history the core writes, for the History window
// and the Settings window's size, and shows what the core had to say when
// it opened it. Without it the app runs, and the History window says so.
func (d *Desk) openHistory() {
	go func() {
		if n := d.core.HistoryNotice(); n != "" {
			d.do(func() { d.showError("The history file had a problem", n) })
		}
	}()
	s, err := history.Open(d.opts.HistoryPath, d.log, history.Options{MaxBytes: d.settings.HistoryMaxBytes})
	if err != nil {
		d.log.Error("the History window cannot read the history", "err", err)
		return
	}
	d.history = s
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
