package signin

import "errors"

// Error is a sign-in's failure, or ErrSignInNeeded, for one server; it
// travels up through the HTTP client and the MCP client, so a caller can
// tell it from other failures with errors.As.
type Error struct {
	Server string
	Err    error
}

// Error says which server and why, in plain words.
func (e *Error) Error() string { return "signing in to " + e.Server + ": " + e.Err.Error() }

// Unwrap returns the reason.
func (e *Error) Unwrap() error { return e.Err }

// ErrSignInNeeded is in the error of a request to a server that wants a
// sign-in the person has not made, or one that no longer works.
var ErrSignInNeeded = errors.New("sign-in needed")

// Phase is where a server's sign-in stands.
type Phase int

// The phases, in the order a sign-in goes through them.
const (
	Needed            Phase = iota // the server asks for a sign-in
	WaitingForBrowser              // the authorization URL is open; waiting for the person
	SignedIn                       // a token is stored
	Failed                         // the last sign-in failed; Status.Err says why
)

// Status is what a UI shows of a server's sign-in.
type Status struct {
	Phase Phase
	Err   error // why, when Failed
}

// Text is the status in words, for a label or a terminal line.
func (s Status) Text() string {
	switch s.Phase {
	case WaitingForBrowser:
		return "Waiting for the browser…"
	case SignedIn:
		return "Signed in"
	case Failed:
		if s.Err != nil {
			return "Sign-in failed: " + s.Err.Error()
		}
		return "Sign-in failed"
	}
	return "Sign in needed"
}
