package demo

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// stateTTL bounds how long a client may take to retry a multi round-trip
// request. It is generous because a person answers in between.
const stateTTL = 15 * time.Minute

// errBadState is wrapped by every requestState rejection, so callers can tell
// a forged or stale state from other failures.
var errBadState = errors.New("invalid requestState")

// requestState is what a multi round-trip result asks the client to echo. The
// spec makes the client treat it as opaque but lets it read and alter it, so
// it is signed and checked on return (2026-07-28 mrtr, server requirements).
type requestState struct {
	Tool          string `json:"tool"`                    // the tool that issued it, against cross-tool replay
	Input         string `json:"input"`                   // the inputRequests key the retry must answer
	ElicitationID string `json:"elicitationId,omitempty"` // needs_link: the URL elicitation it refers to
	Expires       int64  `json:"exp"`                     // Unix seconds
}

// stateSealer signs and checks requestState with a key that lives only as
// long as the server, so state from an earlier run is rejected.
type stateSealer struct {
	key []byte
}

func newStateSealer() stateSealer {
	key := make([]byte, 32)
	_, _ = rand.Read(key) // crypto/rand.Read never fails (it panics instead)
	return stateSealer{key: key}
}

// seal encodes st as base64url(JSON) "." base64url(HMAC-SHA256).
func (s stateSealer) seal(st requestState) string {
	payload, _ := json.Marshal(st) // plain strings and an int: cannot fail
	enc := base64.RawURLEncoding
	return enc.EncodeToString(payload) + "." + enc.EncodeToString(s.mac(payload))
}

// open checks a state echoed by the client: signature, issuing tool and
// expiry. Every failure wraps errBadState.
func (s stateSealer) open(token, tool string, now time.Time) (requestState, error) {
	enc := base64.RawURLEncoding
	body, sig, ok := strings.Cut(token, ".")
	if !ok {
		return requestState{}, fmt.Errorf("%w: not a state this server issued", errBadState)
	}
	payload, err1 := enc.DecodeString(body)
	mac, err2 := enc.DecodeString(sig)
	if err1 != nil || err2 != nil || !hmac.Equal(mac, s.mac(payload)) {
		return requestState{}, fmt.Errorf("%w: signature does not match (altered, or issued by another run of the server)", errBadState)
	}
	var st requestState
	if err := json.Unmarshal(payload, &st); err != nil {
		return requestState{}, fmt.Errorf("%w: %v", errBadState, err)
	}
	if st.Tool != tool {
		return requestState{}, fmt.Errorf("%w: issued by tool %q, not %q", errBadState, st.Tool, tool)
	}
	if now.Unix() > st.Expires {
		return requestState{}, fmt.Errorf("%w: expired at %s", errBadState, time.Unix(st.Expires, 0).UTC().Format(time.RFC3339))
	}
	return st, nil
}

func (s stateSealer) mac(payload []byte) []byte {
	h := hmac.New(sha256.New, s.key)
	h.Write(payload)
	return h.Sum(nil)
}
