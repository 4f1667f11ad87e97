// Package dbustest runs a private D-Bus session bus for tests, so a client
// can be tested against a fake service without touching the person's bus.
package dbustest

import (
	"bufio"
	"os/exec"
	"strings"
	"testing"

	"github.com/godbus/dbus/v5"
)

// Bus starts a dbus-daemon of its own for t and returns its address; the
// daemon stops when t ends. The test is skipped when dbus-daemon is not
// installed.
func Bus(t testing.TB) string {
	t.Helper()
	daemon, err := exec.LookPath("dbus-daemon")
	if err != nil {
		t.Skip("dbus-daemon is not installed")
	}
	cmd := exec.Command(daemon, "--session", "--nofork", "--print-address")
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
