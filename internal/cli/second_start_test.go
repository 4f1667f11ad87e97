//go:build unix

package cli

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"os/exec"
	"testing"

	"github.com/elicitdesk/elicitdesk/internal/endpoint"
)

// TestSecondStartSaysOneSentence: a start while Elicit Desk runs says so
// in one sentence and nothing else, not even what the first start would
// have logged about notifications (no session bus here).
func TestSecondStartSaysOneSentence(t *testing.T) {
	noApp(t)
	path, err := endpoint.DefaultPath()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ep, err := endpoint.Listen(ctx, path, person{}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer ep.Close()
	_, home := privateHome(t)
	cmd := exec.Command(asElicitdesk(t))
	cmd.Env = append(append(os.Environ(), "DBUS_SESSION_BUS_ADDRESS=disabled:"), home[0]) // HOME only: the runtime directory is the first's
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	if got, want := stdout.String(), "Elicit Desk is already running; it was asked to show its window.\n"; got != want || stderr.Len() != 0 {
		t.Errorf("stdout %q, want %q; stderr %q, want nothing", got, want, stderr.String())
	}
}

// TestSecondStartOtherConfig: a start with another servers.json than the
// running app reads says so, beside bringing it to the front.
func TestSecondStartOtherConfig(t *testing.T) {
	noApp(t)
	appReads, asked := writeConfig(t, twoServers), writeConfig(t, twoServers)
	serveApp(t, statusDesk{reads: appReads})
	_, home := privateHome(t)
	cmd := exec.Command(asElicitdesk(t), "-config", asked)
	cmd.Env = append(append(os.Environ(), "DBUS_SESSION_BUS_ADDRESS=disabled:"), home[0]) // HOME only: the runtime directory is the first's
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	want := "Elicit Desk is already running; it was asked to show its window.\nIt reads " + appReads + ", not " + asked + ": quit it and start again to use that one.\n"
	if got := stdout.String(); got != want || stderr.Len() != 0 {
		t.Errorf("stdout %q, want %q; stderr %q, want nothing", got, want, stderr.String())
	}
}
