// Package sessionbus reaches the person's D-Bus session bus the way the
// desktop's own programs do, also from a process whose environment a host
// stripped down to HOME and PATH: to have the bus start a service (D-Bus
// activation), so that it runs with the session's environment and is
// nobody's child but the bus's, and to hold a service's name while it
// runs. It never starts a bus of its own: an autolaunched bus would have
// none of the session's services and outlive us.
package sessionbus

import "errors"

// The errors Start and Own wrap, so callers can say what to do.
var (
	// ErrNoBus: no session bus was found, or it did not answer.
	ErrNoBus = errors.New("no session bus")
	// ErrNotActivatable: the bus has no service file that names the service.
	ErrNotActivatable = errors.New("the session bus has no service file for it")
	// ErrTaken: another connection owns the name.
	ErrTaken = errors.New("another process owns the name")
)
