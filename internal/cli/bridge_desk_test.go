//go:build unix

package cli

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/deskclient"
	"github.com/elicitdesk/elicitdesk/internal/desktop/sessionbus"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/servers/bridge"
)

// TestAppDeskStart: the bridge has the session bus start the app when it
// can, starts it itself when the bus cannot and a display is known, and
// otherwise says, once, that the app is not running.
func TestAppDeskStart(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		display string
		bus     error // what the bus answers; nil: it starts the app
		spawns  bool  // the bridge starts the app itself
		want    bool  // the app is reached
	}{
		{"the bus starts it", "", nil, false, true},
		{"the bus starts it, also with a display", ":43", nil, false, true},
		{"no service file, a display", ":43", sessionbus.ErrNotActivatable, true, true},
		{"no bus, a display", ":43", sessionbus.ErrNoBus, true, true},
		{"no bus, no display", "", sessionbus.ErrNoBus, false, false},
		{"no service file, no display", "", sessionbus.ErrNotActivatable, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			noApp(t)
			t.Setenv("DISPLAY", tt.display)
			home := t.TempDir()
			t.Setenv("HOME", home) // where the fake core reports
			path, err := endpoint.DefaultPath()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { stopFakeCore(home) })
			env := append(os.Environ(), fakeCoreEnv+"=1")
			activate := func(context.Context) error {
				if tt.bus != nil {
					return tt.bus
				}
				cmd := exec.Command(exe, "-background") // as the bus would, from the service file
				cmd.Env = env
				if err := cmd.Start(); err != nil {
					return err
				}
				go cmd.Wait()
				return nil
			}
			// Only the bridge's own start can reach an app the bus did not start.
			spawn := []string{"/nonexistent/elicitdesk"}
			if tt.spawns {
				spawn = []string{"/usr/bin/env", fakeCoreEnv + "=1", exe, "-background"}
			}
			told := 0
			d := deskclient.New(path, activate, spawn, slog.New(slog.NewTextHandler(io.Discard, nil)), func(line string) {
				if line != deskclient.NotRunning {
					t.Errorf("the bridge said %q", line)
				}
				told++
			})
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			for i := range 2 { // the second time reuses the app reached, or tells no more
				answer, err := d.Ask(ctx, floodQuestion(i, json.RawMessage(`{"type":"object"}`)))
				if tt.want != (err == nil) {
					t.Fatalf("Ask: %v, want the app reached: %v", err, tt.want)
				}
				if err != nil && !errors.Is(err, bridge.ErrNoWindow) {
					t.Errorf("Ask: %v, want ErrNoWindow", err)
				}
				if err == nil && !strings.Contains(string(answer), `"accept"`) {
					t.Errorf("Ask: %s, want the fake core's accept", answer)
				}
			}
			if wantTold := map[bool]int{true: 0, false: 1}[tt.want]; told != wantTold {
				t.Errorf("the bridge said the app is not running %d times, want %d", told, wantTold)
			}
		})
	}
}

// stopFakeCore ends the fake core that reported to home, if one did.
func stopFakeCore(home string) {
	report, err := os.ReadFile(filepath.Join(home, "core.json"))
	var core coreReport
	if err == nil && json.Unmarshal(report, &core) == nil {
		syscall.Kill(core.Pid, syscall.SIGTERM)
	}
}
