//go:build unix

package cli

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicitdesk/elicitdesk/internal/core"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
)

// TestRemote: remote prints the ssh command line and the ~/.ssh/config
// block that forward this desktop's endpoint for the machine to where the
// machine's bridge looks, runs nothing, and lists the machine once for the
// app to serve; a name that cannot name a socket is refused.
func TestRemote(t *testing.T) {
	noApp(t)
	cfg := filepath.Join(t.TempDir(), "servers.json")
	code, out, errs := run("remote", "-config", cfg, "-uid", "1001", "alice@devbox")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d: %s", code, errs)
	}
	local, err := endpoint.ForwardedPath("devbox")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"  ssh -N -o ExitOnForwardFailure=yes -R /run/user/1001/elicitdesk.sock:" + local + " alice@devbox\n",
		"  Host devbox\n      User alice\n      RemoteForward /run/user/1001/elicitdesk.sock " + local + "\n",
		"  ssh alice@devbox rm -f /run/user/1001/elicitdesk.sock\n",
		"/run/user/1001/elicitdesk.sock is where the bridge there looks", // the id given: no guess
		"It will when it starts.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("remote printed:\n%s\nwant it to hold %q", out, want)
		}
	}
	if fi, err := os.Stat(filepath.Dir(local)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the machines' sockets' folder: %v, %v", fi, err)
	}
	// A path with a space, as macOS's "Application Support": one word
	// for the shell, for ssh_config, and for the shell on the machine.
	code, out, _ = run("remote", "-config", cfg, "-name", "box2", "-remote-path", "/srv/my desk.sock", "devbox.example.com")
	box2 := filepath.Join(filepath.Dir(local), "box2.sock")
	for _, want := range []string{
		"-R '/srv/my desk.sock:" + box2 + "' devbox.example.com\n",
		`RemoteForward "/srv/my desk.sock" ` + box2 + "\n",
		`ssh devbox.example.com rm -f ''\''/srv/my desk.sock'\'''` + "\n",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("with a path with a space: exit %d:\n%s\nwant it to hold %q", code, out, want)
		}
	}
	if strings.Contains(out, "is a guess") || strings.Contains(out, "User ") || !strings.Contains(out, "set ELICITDESK_ENDPOINT='/srv/my desk.sock'") && !strings.Contains(out, "set ELICITDESK_ENDPOINT=/srv/my desk.sock") {
		t.Errorf("with a path given and no user: %s", out)
	}
	if _, out, _ := run("remote", "-config", cfg, "carol@devbox3"); !strings.Contains(out, "is a guess: your user id there taken to be") {
		t.Errorf("with no -uid the path is not said to be a guess:\n%s", out)
	}
	run("remote", "-config", cfg, "DevBox") // listed once: a host name's case does not count
	if list, err := core.Machines(core.MachinesPath(cfg)); err != nil || strings.Join(list, " ") != "devbox box2 devbox3" {
		t.Errorf("machines listed: %q, %v", list, err)
	}
	// -list shows them with their sockets; -forget takes one off.
	if code, out, _ := run("remote", "-config", cfg, "-list"); code != 0 || !strings.Contains(out, "devbox3 ") || !strings.Contains(out, box2) {
		t.Errorf("remote -list: exit %d:\n%s", code, out)
	}
	if code, out, errs := run("remote", "-config", cfg, "-forget", "DevBox3"); code != 0 || !strings.Contains(out, "no longer serves devbox3") {
		t.Errorf("remote -forget: exit %d: %s %s", code, out, errs)
	}
	if list, _ := core.Machines(core.MachinesPath(cfg)); strings.Join(list, " ") != "devbox box2" {
		t.Errorf("after -forget the machines listed: %q", list)
	}
	if code, _, errs := run("remote", "-config", cfg, "-forget", "devbox3"); code != 1 || !strings.Contains(errs, "is not served") {
		t.Errorf("forgetting a machine not served: exit %d, %q", code, errs)
	}
	for _, bad := range [][]string{{"x@../etc"}, {"-name", ".hidden", "devbox"}, {"a b"}, {}, {"@devbox"}, {"-uid", "-5", "devbox"},
		{"-uid", "5", "-remote-path", "/x.sock", "devbox"}, {"-remote-path", "x.sock", "devbox"}, {"-list", "devbox"}, {"-forget"}, {"-list", "-forget", "x"}} {
		if code, _, errs := run(append([]string{"remote", "-config", cfg}, bad...)...); code != 2 || errs == "" {
			t.Errorf("remote %q: exit %d, %q", bad, code, errs)
		}
	}
}

// servingApp is a running app that serves each machine where it says:
// its own environment's runtime folder, not the command's.
type servingApp struct{ person }

func (servingApp) Forward(_ context.Context, machine string) (string, error) {
	return "/run/user/1000/elicitdesk-remote/" + machine + ".sock", nil
}

// TestRemoteNamesWhereTheAppServes: with the app running, the ssh line
// forwards to the socket the app says it serves, though this command's
// environment (no runtime folder, say) would put it elsewhere.
func TestRemoteNamesWhereTheAppServes(t *testing.T) {
	noApp(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ep, err := endpoint.Listen(ctx, endpoint.AppPath(), servingApp{}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer ep.Close()
	cfg := filepath.Join(t.TempDir(), "servers.json")
	code, out, errs := run("remote", "-config", cfg, "-uid", "1001", "alice@devbox")
	if want := "-R /run/user/1001/elicitdesk.sock:/run/user/1000/elicitdesk-remote/devbox.sock alice@devbox\n"; code != 0 || !strings.Contains(out, want) || !strings.Contains(out, "It does now.") {
		t.Errorf("exit %d, %s\n%s\nwant the ssh line to hold %q", code, errs, out, want)
	}
}
