package portal

import (
	"context"
	"errors"
	"fmt"

	"github.com/godbus/dbus/v5"
)

const settingsIface = "org.freedesktop.portal.Settings"

// ColorScheme asks the settings portal for the desktop's
// org.freedesktop.appearance color-scheme: 0 no preference, 1 dark,
// 2 light. It returns an error wrapping ErrNoPortal when no portal
// answers. ctx bounds the call: a portal can hang.
func ColorScheme(ctx context.Context, conn *dbus.Conn) (uint32, error) {
	obj := conn.Object(service, objectPath)
	var v dbus.Variant
	// ReadOne (version 2) returns the value; Read, older, wraps it once more.
	err := obj.CallWithContext(ctx, settingsIface+".ReadOne", 0, "org.freedesktop.appearance", "color-scheme").Store(&v)
	if err != nil {
		if err = obj.CallWithContext(ctx, settingsIface+".Read", 0, "org.freedesktop.appearance", "color-scheme").Store(&v); err != nil {
			return 0, settingsError(err)
		}
		if inner, ok := v.Value().(dbus.Variant); ok {
			v = inner
		}
	}
	scheme, ok := v.Value().(uint32)
	if !ok {
		return 0, fmt.Errorf("%w: color-scheme is %s, not a number", ErrNoPortal, v.Signature())
	}
	return scheme, nil
}

// settingsError is the error of a failed Settings call: ErrNoPortal also
// when the portal does not know the setting.
func settingsError(err error) error {
	var de dbus.Error
	if errors.As(err, &de) && de.Name == "org.freedesktop.portal.Error.NotFound" {
		return fmt.Errorf("%w: %v", ErrNoPortal, err)
	}
	return callError(err)
}
