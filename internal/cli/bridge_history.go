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
		p := servers.LooseParams(q.Params)
		now := time.Now()
		_, err = store.Add(context.Background(), history.Entry{
			Server: bridgedIdentity(q.Session), Message: p.Message, Mode: p.Mode, Schema: p.Schema, URL: p.URL,
			Outcome: history.NoWindow, Reason: "answered cancel without asking: " + reason.Error(),
			Received: now, Answered: now,
		})
		if err != nil {
			log.Warn("cannot keep the unshown elicitation in the history", "err", err)
		}
	}
}
