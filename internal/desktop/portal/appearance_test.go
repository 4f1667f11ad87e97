package portal

import (
	"context"
	"errors"
	"testing"

	"github.com/godbus/dbus/v5"

	"github.com/elicitdesk/elicitdesk/internal/testkit/dbustest"
)

// fakeSettings answers the settings portal's ReadOne, or only the older
// Read, whose value comes wrapped once more.
type fakeSettings struct{ scheme dbus.Variant }

type oldSettings struct{ scheme dbus.Variant }

func (s fakeSettings) ReadOne(namespace, key string) (dbus.Variant, *dbus.Error) {
	if namespace != "org.freedesktop.appearance" || key != "color-scheme" {
		return dbus.Variant{}, dbus.NewError("org.freedesktop.portal.Error.NotFound", nil)
	}
	return s.scheme, nil
}

func (s oldSettings) Read(namespace, key string) (dbus.Variant, *dbus.Error) {
	if namespace != "org.freedesktop.appearance" || key != "color-scheme" {
		return dbus.Variant{}, dbus.NewError("org.freedesktop.portal.Error.NotFound", nil)
	}
	return dbus.MakeVariant(s.scheme), nil
}

func TestColorScheme(t *testing.T) {
	tests := []struct {
		name    string
		service any // nil: no portal
		want    uint32
		err     error
	}{
		{"ReadOne dark", fakeSettings{dbus.MakeVariant(uint32(1))}, 1, nil},
		{"ReadOne light", fakeSettings{dbus.MakeVariant(uint32(2))}, 2, nil},
		{"Read, older portal", oldSettings{dbus.MakeVariant(uint32(1))}, 1, nil},
		{"not a number", fakeSettings{dbus.MakeVariant("dark")}, 0, ErrNoPortal},
		{"no portal", nil, 0, ErrNoPortal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			addr := dbustest.Bus(t)
			if tt.service != nil {
				if err := dbustest.Own(t, addr, service).Export(tt.service, objectPath, settingsIface); err != nil {
					t.Fatal(err)
				}
			}
			got, err := ColorScheme(context.Background(), dbustest.Conn(t, addr))
			if got != tt.want || !errors.Is(err, tt.err) || (tt.err == nil && err != nil) {
				t.Errorf("ColorScheme = %d, %v; want %d, %v", got, err, tt.want, tt.err)
			}
		})
	}
}
