//go:build !(linux || freebsd || openbsd || netbsd)

package app

import (
	"context"

	"fyne.io/fyne/v2"

	"github.com/elicitdesk/elicitdesk/internal/desktop/notify"
)

// newNotifier falls back to Fyne's notifications on macOS and Windows.
// Fyne gives no id, so these cannot be withdrawn, and a click on one only
// brings the app forward.
func (d *Desk) newNotifier() notifier { return fyneNotifier{d} }

// fyneNotifier shows notifications through Fyne.
type fyneNotifier struct{ d *Desk }

// Notify shows n; its id is 0, for none.
func (f fyneNotifier) Notify(_ context.Context, n notify.Notice) (uint32, error) {
	f.d.do(func() { f.d.fyne.SendNotification(fyne.NewNotification(n.Summary, n.Body)) })
	return 0, nil
}

// Withdraw is never called: no notice has an id.
func (fyneNotifier) Withdraw(context.Context, uint32) error { return nil }

// Close has no connection to end.
func (fyneNotifier) Close() error { return nil }
