// Package dbustest runs a private D-Bus session bus for tests, so a client
// can be tested against a fake service without touching the person's bus.
package dbustest

import (
	"bufio"
	"errors"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// Bus starts a dbus-daemon of its own for t and returns its address; the
// daemon stops when t ends. The test is skipped when dbus-daemon is not
// installed.
func Bus(t testing.TB) string {
	t.Helper()
	return start(t, nil, "--session")
}

// SessionBus starts a session bus as Bus does, with env added to the
// test's environment: what the services it activates get.
func SessionBus(t testing.TB, env ...string) string {
	t.Helper()
	return start(t, env, "--session")
}

// ActivatingBus starts a bus as Bus does that starts, when asked for their
// names, the services whose service files are in dir (D-Bus activation).
// They get the test's environment, plus the bus's address.
func ActivatingBus(t testing.TB, dir string) string {
	t.Helper()
	config := filepath.Join(t.TempDir(), "session.conf")
	if err := os.WriteFile(config, []byte(Config("unix:tmpdir="+os.TempDir(), dir)), 0o644); err != nil {
		t.Fatal(err)
	}
	return start(t, nil, "--config-file="+config)
}

// Config is the configuration of a session bus that listens at the D-Bus
// address listen and activates the services of the service files in dir,
// with nothing denied: for dbus-daemon --config-file and dbus-run-session.
func Config(listen, dir string) string {
	return fmt.Sprintf(`<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>%s</listen>
  <auth>EXTERNAL</auth>
  <servicedir>%s</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`, html.EscapeString(listen), html.EscapeString(dir))
}

// start runs dbus-daemon with config, the option that names its
// configuration, and env added to its environment, until t ends, and
// returns its address.
func start(t testing.TB, env []string, config string) string {
	t.Helper()
	daemon, err := exec.LookPath("dbus-daemon")
	if err != nil {
		t.Skip("dbus-daemon is not installed (make test-deps installs it)")
	}
	cmd := exec.Command(daemon, config, "--nofork", "--print-address")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	// The daemon prints its address once it listens.
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("dbus-daemon gave no address: %v", err)
	}
	return strings.TrimSpace(addr)
}

// Conn connects to the bus at addr, closed when t ends.
func Conn(t testing.TB, addr string) *dbus.Conn {
	t.Helper()
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// Own connects to the bus at addr as name, for a fake service to export
// its objects on.
func Own(t testing.TB, addr, name string) *dbus.Conn {
	t.Helper()
	conn := Conn(t, addr)
	reply, err := conn.RequestName(name, dbus.NameFlagDoNotQueue)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("cannot own %s: %v", name, err)
	}
	return conn
}

// WatchOwner starts watching name on the bus at addr and returns a
// function that waits, for up to timeout, until the owner name had when
// WatchOwner was called has let it go (at once if it had none). Call it
// before a kill: until the bus sees the owner's connection end, it still
// routes the name's messages to the dying owner.
func WatchOwner(t testing.TB, addr, name string) (waitGone func(timeout time.Duration)) {
	t.Helper()
	conn := Conn(t, addr)
	signals := make(chan *dbus.Signal, 16)
	conn.Signal(signals)
	if err := conn.AddMatchSignal(dbus.WithMatchSender("org.freedesktop.DBus"), dbus.WithMatchMember("NameOwnerChanged"),
		dbus.WithMatchArg(0, name)); err != nil {
		t.Fatal(err)
	}
	var owner string
	var none dbus.Error
	if err := conn.BusObject().Call("org.freedesktop.DBus.GetNameOwner", 0, name).Store(&owner); err != nil &&
		!(errors.As(err, &none) && none.Name == "org.freedesktop.DBus.Error.NameHasNoOwner") {
		t.Fatal(err)
	}
	return func(timeout time.Duration) {
		t.Helper()
		defer conn.Close()
		deadline := time.After(timeout)
		for owner != "" {
			select {
			case s, ok := <-signals:
				if !ok {
					t.Fatalf("the bus connection closed while waiting for %s to go", name)
				}
				if s.Name == "org.freedesktop.DBus.NameOwnerChanged" && len(s.Body) == 3 && s.Body[1] == owner {
					owner = ""
				}
			case <-deadline:
				t.Fatalf("%s still has its owner after %v", name, timeout)
			}
		}
	}
}
