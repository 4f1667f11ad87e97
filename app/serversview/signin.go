package serversview

import (
	"context"
	"errors"

	"github.com/elicitdesk/elicitdesk/servers/signin"
)

// signInAttempt is the window's sign-in to one server, from the Sign in
// button until it succeeds (then it is forgotten: the manager's status
// says the rest), is cancelled, or fails (then it says why until the next
// one). The zero value is none.
type signInAttempt struct {
	Running bool         // under way: Cancel ends it
	Phase   signin.Phase // WaitingForBrowser once the browser is open; Failed
	Err     error        // why, when Failed
}

// signIn starts signing in to the server called name: the manager does
// it, the window shows its phases, and Cancel, closing the window or
// signin.Wait ends it.
func (w *Window) signIn(name string) {
	if w.signIns[name].Running {
		return
	}
	ctx, cancel := context.WithTimeout(w.ctx, signin.Wait)
	w.cancels[name] = cancel
	w.setSignIn(name, signInAttempt{Running: true, Phase: signin.Needed})
	w.goWork(func() {
		err := w.deps.Servers.SignIn(ctx, name, func(s signin.Status) {
			if s.Phase == signin.WaitingForBrowser {
				w.do(func() { w.setSignIn(name, signInAttempt{Running: true, Phase: s.Phase}) })
			}
		})
		cancelled := errors.Is(ctx.Err(), context.Canceled)
		cancel()
		w.do(func() {
			delete(w.cancels, name)
			switch {
			case err == nil, cancelled: // the manager's status shows the rest
				w.setSignIn(name, signInAttempt{})
			default:
				w.deps.Log.Info("sign-in failed", "server", name, "err", err)
				w.setSignIn(name, signInAttempt{Phase: signin.Failed, Err: err})
			}
		})
	})
}

// cancelSignIn ends the sign-in under way to the server called name.
func (w *Window) cancelSignIn(name string) {
	if cancel := w.cancels[name]; cancel != nil {
		cancel()
	}
}

// signOut forgets the sign-in to the server called name; the manager
// connects again and finds it needs one.
func (w *Window) signOut(name string) {
	w.setSignIn(name, signInAttempt{})
	w.goWork(func() {
		if err := w.deps.Servers.SignOut(name); err != nil {
			w.do(func() { w.showError("Not signed out", err) })
		}
	})
}

// setSignIn records where the sign-in to name stands and shows it.
func (w *Window) setSignIn(name string, a signInAttempt) {
	if !a.Running && a.Err == nil {
		delete(w.signIns, name)
	} else {
		w.signIns[name] = a
	}
	if name == w.selected && w.win != nil {
		w.showSelected()
	}
}
