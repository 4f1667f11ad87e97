//go:build linux || freebsd || openbsd || netbsd

package sessionbus

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/adrg/xdg"
	"github.com/godbus/dbus/v5"
)

// addressEnv is where a session tells its programs the bus's address.
const addressEnv = "DBUS_SESSION_BUS_ADDRESS"

// handshake bounds the authentication and Hello on a bus, and each call
// that is not bounded by its caller: a bus that does not answer must not
// hold up a start.
const handshake = time.Second

// Address returns the session bus's address: $DBUS_SESSION_BUS_ADDRESS,
// else the socket "bus" in the user's runtime directory when it is a socket
// this user owns (systemd and dbus-broker sessions listen there). The
// runtime directory is $XDG_RUNTIME_DIR, or where it is when unset,
// /run/user/UID: hosts pass their servers neither variable.
func Address() (string, error) {
	return address(os.Getenv(addressEnv), xdg.RuntimeDir)
}

// address is Address with the variable's value and the runtime directory.
func address(env, runtimeDir string) (string, error) {
	if env != "" && env != "autolaunch:" { // autolaunch: starts a bus; we only look for one
		return env, nil
	}
	path := filepath.Join(runtimeDir, "bus")
	fi, err := os.Lstat(path)
	if err != nil {
		return "", fmt.Errorf("%w: %s is not set and %v", ErrNoBus, addressEnv, err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case fi.Mode()&os.ModeSocket == 0:
		return "", fmt.Errorf("%w: %s is not set and %s is not a socket", ErrNoBus, addressEnv, path)
	case !ok || int(st.Uid) != os.Getuid():
		return "", fmt.Errorf("%w: %s is not set and %s is not yours", ErrNoBus, addressEnv, path)
	}
	return "unix:path=" + dbus.EscapeBusAddressValue(path), nil
}

// Dial connects to the session bus, at Address, until ctx ends or the
// connection is closed.
func Dial(ctx context.Context) (*dbus.Conn, error) {
	addr, err := Address()
	if err != nil {
		return nil, err
	}
	conn, err := dbus.Dial(addr, dbus.WithContext(ctx))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoBus, err)
	}
	late := time.AfterFunc(handshake, func() { conn.Close() }) // ends a handshake nobody answers
	err = conn.Auth(nil)
	if err == nil {
		err = conn.Hello()
	}
	if !late.Stop() {
		err = fmt.Errorf("it did not answer within %s", handshake)
	}
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("%w at %s: %v", ErrNoBus, addr, err)
	}
	return conn, nil
}

// Start asks the session bus to start the service named name (D-Bus
// activation: the bus runs the Exec line of its service file, or has
// systemd start its SystemdService) and returns once name is owned, by
// the service it started or by one that already ran. Without a service
// file for name the error wraps ErrNotActivatable.
func Start(ctx context.Context, name string) error {
	conn, err := Dial(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var reply uint32 // 1: started, 2: already running
	err = conn.BusObject().CallWithContext(ctx, "org.freedesktop.DBus.StartServiceByName", 0, name, uint32(0)).Store(&reply)
	var derr dbus.Error
	if errors.As(err, &derr) && derr.Name == "org.freedesktop.DBus.Error.ServiceUnknown" {
		return fmt.Errorf("%w: %v", ErrNotActivatable, err)
	}
	return err
}

// Own connects to the session bus and takes name there, unless another
// connection owns it (the error then wraps ErrTaken): it is never taken
// from another, nor queued for. The name is held until ctx ends or the
// returned connection is closed; a bus that started the service for a
// Start learns from it that the service is ready.
func Own(ctx context.Context, name string) (*dbus.Conn, error) {
	conn, err := Dial(ctx)
	if err != nil {
		return nil, err
	}
	callCtx, cancel := context.WithTimeout(ctx, handshake)
	defer cancel()
	var reply uint32
	err = conn.BusObject().CallWithContext(callCtx, "org.freedesktop.DBus.RequestName", 0, name, uint32(dbus.NameFlagDoNotQueue)).Store(&reply)
	switch r := dbus.RequestNameReply(reply); {
	case err != nil:
	case r == dbus.RequestNameReplyPrimaryOwner, r == dbus.RequestNameReplyAlreadyOwner:
		return conn, nil
	default:
		err = ErrTaken
	}
	conn.Close()
	return nil, fmt.Errorf("cannot own %s on the session bus: %w", name, err)
}

// noBus is an address no transport accepts: godbus fails to dial it at
// once instead of running dbus-launch, whose bus would outlive the app.
const noBus = "disabled:"

// Guard makes sure nothing in the process autolaunches a session
// bus. Run it before Fyne starts: Fyne's theme watcher and notifications
// dial the bus with autolaunch. It reports whether a bus answers; when one
// does, its address is set for the whole process, the one a bridge finds
// (Address); when none does, the address is set to one that
// cannot be dialled, so the tray and notifications stay off.
func Guard(ctx context.Context) bool {
	addr, err := Address()
	if err == nil {
		var conn *dbus.Conn
		if conn, err = Dial(ctx); err == nil {
			conn.Close()
		}
	}
	if err != nil {
		os.Setenv(addressEnv, noBus)
		return false
	}
	os.Setenv(addressEnv, addr)
	return true
}
