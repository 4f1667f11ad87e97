package hostsview

import (
	"fyne.io/fyne/v2"

	"github.com/elicitdesk/elicitdesk/app/keys"
)

// routeSwitch is a server's "Through Elicit Desk" check box, which a
// screen reader names with the server: a host lists many, each with the
// same words beside it. It passes the window's keys on (keys.Check).
type routeSwitch struct {
	keys.Check
	server string                  // shown as the row's name (untrusted views)
	follow func(fyne.CanvasObject) // scrolls it into view as it takes the keyboard
}

func newRouteSwitch(k *keys.Keys, server string, on bool, follow func(fyne.CanvasObject)) *routeSwitch {
	s := &routeSwitch{server: server, follow: follow}
	s.Keys, s.Text, s.Checked = k, "Through Elicit Desk", on
	s.ExtendBaseWidget(s)
	return s
}

// FocusGained scrolls the box into view: Tab moves through a host's
// switches below the window's edge, and the scroll does not follow.
func (s *routeSwitch) FocusGained() {
	s.Check.FocusGained()
	s.follow(s)
}

// AccessibleTitle names the box for AT-SPI (atspi.Titled).
func (s *routeSwitch) AccessibleTitle() string { return s.server + " through Elicit Desk" }

// AccessibilityLabel implements fyne.Accessible: its name and state.
func (s *routeSwitch) AccessibilityLabel() string {
	state := "not checked"
	if s.Checked {
		state = "checked"
	}
	return s.AccessibleTitle() + ": " + state
}

// AccessibilityRole implements fyne.Accessible: a check box is pressed.
func (s *routeSwitch) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleButton }
