package deskclient

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/servers/bridge"
)

// TestForwardedNothingBehind: a forward whose desktop end answers nothing
// (ssh takes the connection and hangs up: the app is not running there,
// the machine is blocked, the ssh line names another socket) is nothing
// answering, as a missing socket is: the question is one no window could
// show, which the bridge hands to the host, and the person is told why,
// once.
func TestForwardedNothingBehind(t *testing.T) {
	tests := []struct {
		name   string
		listen bool // a socket that takes connections and hangs up
		why    error
	}{
		{"no socket", false, endpoint.ErrNotRunning},
		{"a forward with nothing behind it", true, endpoint.ErrDisconnected},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.Chmod(dir, 0o700); err != nil { // the endpoint's folder is private, as the desktop's runtime folder is
				t.Fatal(err)
			}
			path := filepath.Join(dir, "elicitdesk.sock")
			if tt.listen {
				ln, err := net.Listen("unix", path)
				if err != nil {
					t.Fatal(err)
				}
				defer ln.Close()
				go func() {
					for {
						c, err := ln.Accept()
						if err != nil {
							return
						}
						c.Close()
					}
				}()
			}
			var reasons []error
			told := 0
			d := NewForwarded(path, func(err error) string { reasons = append(reasons, err); return "said" },
				slog.New(slog.DiscardHandler), func(string) { told++ })
			for range 2 {
				_, err := d.Ask(context.Background(), endpoint.Question{Params: []byte(`{"message":"Name?"}`)})
				if !errors.Is(err, bridge.ErrNoWindow) {
					t.Fatalf("Ask: %v, want bridge.ErrNoWindow", err)
				}
			}
			if told != 1 || len(reasons) != 1 || !errors.Is(reasons[0], tt.why) {
				t.Errorf("told %d times, why %v; want once, %v", told, reasons, tt.why)
			}
		})
	}
}
