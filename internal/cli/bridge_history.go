package cli

import (
	"context"
	"log/slog"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/servers"
)

// unshownRecorder keeps each elicitation the bridge answered cancel
// because no window could show it in the history at path, as no-window:
// the person sees later what was refused in their name, never as their
// own Decline.
func unshownRecorder(path string, log *slog.Logger) func(endpoint.Question, error) {
	return func(q endpoint.Question, reason error) {
		store, err := history.Open(path, log, history.Options{})
		if err != nil {
			log.Warn("cannot keep the unshown elicitation in the history", "err", err)
			return
		}
		defer store.Close()
		_, err = store.Add(context.Background(), unshownEntry(endpoint.Unshown{Question: q, Reason: reason.Error(), At: time.Now()}))
		if err != nil {
			log.Warn("cannot keep the unshown elicitation in the history", "err", err)
		}
	}
}

// unshownEntry is the history's entry of u, for the bridge and the app
// alike.
func unshownEntry(u endpoint.Unshown) history.Entry {
	p := servers.LooseParams(u.Question.Params)
	return history.Entry{
		Server: bridgedIdentity(u.Question.Session), Message: p.Message, Mode: p.Mode, Schema: p.Schema, URL: p.URL,
		Outcome: history.NoWindow, Reason: "answered cancel without asking: " + u.Reason,
		Received: u.At, Answered: u.At,
	}
}
