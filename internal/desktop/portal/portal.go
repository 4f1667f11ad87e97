// Package portal asks the XDG desktop portal (org.freedesktop.portal.Desktop
// on the session bus) for the system's own Save dialog, so a Linux desktop
// shows its file chooser, bookmarks and all, instead of Fyne's.
//
// github.com/rymdport/portal, which Fyne uses for Flatpak builds, has
// filechooser.SaveFile, but its v0.4.2 takes no context (a dialog left open
// blocks for ever), uses the process's shared bus connection, subscribes
// to the Response signal only after the call returns and takes the first
// signal of any kind as the answer. This follows the portal's documented
// way instead: a handle_token names the request before the call, so the
// answer cannot come unheard.
package portal

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/godbus/dbus/v5"
)

// The portal's names.
const (
	service      = "org.freedesktop.portal.Desktop"
	objectPath   = dbus.ObjectPath("/org/freedesktop/portal/desktop")
	fileChooser  = "org.freedesktop.portal.FileChooser"
	requestIface = "org.freedesktop.portal.Request"
)

// The Response signal's codes.
const (
	responseSuccess   = 0
	responseCancelled = 1
)

// ErrNoPortal says no portal showed a dialog: the caller shows its own.
var ErrNoPortal = errors.New("no desktop portal shows a file dialog")

// Filter is a kind of file the dialog offers: a name and glob patterns.
type Filter struct {
	Name     string
	Patterns []string
}

// SaveOptions describe the Save dialog.
type SaveOptions struct {
	// Parent identifies the window the dialog belongs to, as Parent
	// returns it; "" for none.
	Parent      string
	Title       string
	CurrentName string // the file name suggested
	Filters     []Filter
}

// Parent is the portal's identifier of an X11 window.
func Parent(x11Window uintptr) string { return fmt.Sprintf("x11:%x", x11Window) }

// filter and rule are Filter as the portal takes it: a(sa(us)).
type filter struct {
	Name  string
	Rules []rule
}

type rule struct {
	Kind    uint32 // 0: a glob pattern
	Pattern string
}

// SaveFile shows the desktop's Save dialog through the portal on conn and
// waits for the person's choice: the path chosen, or "" when they
// cancelled. It returns an error wrapping ErrNoPortal when no portal
// shows the dialog. Ending ctx closes the dialog.
func SaveFile(ctx context.Context, conn *dbus.Conn, opts SaveOptions) (string, error) {
	token, err := newToken()
	if err != nil {
		return "", err
	}
	names := conn.Names()
	if len(names) == 0 {
		return "", fmt.Errorf("%w: the connection has no name", ErrNoPortal)
	}
	// The request's path, known before the call (the portal's spec).
	sender := strings.ReplaceAll(strings.TrimPrefix(names[0], ":"), ".", "_")
	handle := dbus.ObjectPath("/org/freedesktop/portal/desktop/request/" + sender + "/" + token)

	signals := make(chan *dbus.Signal, 4)
	conn.Signal(signals)
	defer conn.RemoveSignal(signals)
	if err := listen(ctx, conn, handle); err != nil {
		return "", err
	}
	defer conn.RemoveMatchSignalContext(context.WithoutCancel(ctx), responseMatch(handle)...)

	options := saveOptions(token, opts)
	var got dbus.ObjectPath
	call := conn.Object(service, objectPath).CallWithContext(ctx, fileChooser+".SaveFile", 0, opts.Parent, opts.Title, options)
	if err := call.Store(&got); err != nil {
		return "", callError(err)
	}
	if got != handle { // a portal older than handle_token
		handle = got
		if err := listen(ctx, conn, handle); err != nil {
			return "", err
		}
		defer conn.RemoveMatchSignalContext(context.WithoutCancel(ctx), responseMatch(handle)...)
	}
	for {
		select {
		case <-ctx.Done():
			conn.Object(service, handle).Call(requestIface+".Close", dbus.FlagNoReplyExpected)
			return "", ctx.Err()
		case s, ok := <-signals:
			if !ok {
				return "", errors.New("the session bus connection closed")
			}
			if s.Path == handle && s.Name == requestIface+".Response" {
				return chosen(s.Body)
			}
		}
	}
}

// saveOptions are SaveFile's options for opts, under token.
func saveOptions(token string, opts SaveOptions) map[string]dbus.Variant {
	options := map[string]dbus.Variant{
		"handle_token": dbus.MakeVariant(token),
		"modal":        dbus.MakeVariant(true),
	}
	if opts.CurrentName != "" {
		options["current_name"] = dbus.MakeVariant(opts.CurrentName)
	}
	if len(opts.Filters) > 0 {
		var fs []filter
		for _, f := range opts.Filters {
			x := filter{Name: f.Name}
			for _, p := range f.Patterns {
				x.Rules = append(x.Rules, rule{0, p})
			}
			fs = append(fs, x)
		}
		options["filters"] = dbus.MakeVariant(fs)
		options["current_filter"] = dbus.MakeVariant(fs[0])
	}
	return options
}

// listen subscribes to the Response signal of the request at handle.
func listen(ctx context.Context, conn *dbus.Conn, handle dbus.ObjectPath) error {
	if err := conn.AddMatchSignalContext(ctx, responseMatch(handle)...); err != nil {
		return fmt.Errorf("%w: %v", ErrNoPortal, err)
	}
	return nil
}

func responseMatch(handle dbus.ObjectPath) []dbus.MatchOption {
	return []dbus.MatchOption{dbus.WithMatchObjectPath(handle), dbus.WithMatchInterface(requestIface), dbus.WithMatchMember("Response")}
}

// chosen reads the Response signal's body: a code and the results.
func chosen(body []any) (string, error) {
	if len(body) != 2 {
		return "", fmt.Errorf("%w: an answer of %d values", ErrNoPortal, len(body))
	}
	code, _ := body[0].(uint32)
	results, _ := body[1].(map[string]dbus.Variant)
	switch code {
	case responseSuccess:
	case responseCancelled:
		return "", nil
	default: // the dialog could not be shown or ended otherwise
		return "", fmt.Errorf("%w: the dialog ended without a choice", ErrNoPortal)
	}
	uris, _ := results["uris"].Value().([]string)
	if len(uris) == 0 {
		return "", errors.New("the file dialog chose no file")
	}
	u, err := url.Parse(uris[0])
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return "", fmt.Errorf("the file dialog chose %q, not a local file", uris[0])
	}
	return u.Path, nil
}

// callError is the error of a failed SaveFile call: ErrNoPortal when
// nothing on the bus answers it.
func callError(err error) error {
	var de dbus.Error
	if errors.As(err, &de) {
		switch de.Name {
		case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
			"org.freedesktop.DBus.Error.UnknownMethod", "org.freedesktop.DBus.Error.UnknownInterface",
			"org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.NotSupported":
			return fmt.Errorf("%w: %v", ErrNoPortal, err)
		}
	}
	return err
}

// newToken is a fresh handle_token: a valid object path element.
func newToken() (string, error) {
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return "elicitdesk_" + hex.EncodeToString(b), nil
}
