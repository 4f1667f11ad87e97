package app

import (
	"github.com/elicitdesk/elicitdesk/app/historyview"
	"github.com/elicitdesk/elicitdesk/app/trafficview"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
)

// openHistory opens the history the core writes, read-only, for the
// History window, and shows what the core had to say when it opened it.
// The core is the history's one writer (the entries, Clear, the limits and
// pruning); the windows read the file beside it, which SQLite allows,
// rather than have every search and detail cross to the core. Without the
// file the app runs, and the History window says so.
func (d *Desk) openHistory() {
	go func() {
		if n := d.core.HistoryNotice(); n != "" {
			d.do(func() { d.showError("The history file had a problem", n) })
		}
	}()
	d.readHistory()
}

// readHistory opens the history file for reading, unless it is open: a
// windows' process started while the core was still creating the file
// reads it once the person opens the History window.
func (d *Desk) readHistory() {
	if d.history != nil {
		return
	}
	s, err := history.OpenReadOnly(d.opts.HistoryPath)
	if err != nil {
		d.log.Error("the History window cannot read the history", "err", err)
		return
	}
	d.history = s
}

// showHistory opens the History window, making it the first time: an
// idle app in the tray keeps no window.
func (d *Desk) showHistory() {
	if d.readHistory(); d.history == nil {
		d.showError("There is no history", "The history could not be opened; the log says why.")
		return
	}
	if d.historyWin == nil {
		d.historyWin = historyview.New(d.fyne, historyview.Deps{Store: d.history, Writer: d.core}, historyview.Options{
			Dates:      d.opts.Dates,
			Do:         d.do,
			SaveDialog: saveDialog(),
			Screen:     d.screen,
		})
	}
	d.historyWin.Show()
}

// showTraffic opens the Traffic window on of's messages, making it the
// first time.
func (d *Desk) showTraffic(of trafficview.Of) {
	if d.trafficWin == nil {
		d.trafficWin = trafficview.New(d.fyne, trafficview.Deps{
			Source:      d.core.Traffic,
			CapturePath: d.opts.CapturePath,
			Capturing:   func() traffic.Scope { return d.settings.Capture },
			SetCapturing: func(scope traffic.Scope) {
				s := d.settings
				s.Capture = scope
				d.applySettings(s) // saved, and sent to the core, as Settings does
			},
			Settings: d.showSettings,
		}, trafficview.Options{Do: d.do, SaveDialog: saveDialog(), Screen: d.screen, Version: d.opts.Version})
	}
	d.trafficWin.Show(of)
}
