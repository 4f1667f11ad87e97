package signin

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
)

// callbackPath is where the browser comes back to.
const callbackPath = "/callback"

// redirectListener is the loopback HTTP server the authorization server
// sends the browser back to (RFC 8252 §7.3): 127.0.0.1, a port the system
// picks, one answer taken: the first that carries the sign-in's state.
type redirectListener struct {
	uri  string
	srv  *http.Server
	got  chan url.Values
	done chan struct{}
}

// listenRedirect starts a redirect listener for the sign-in whose state
// is state. A request with another state is not this sign-in's answer
// (anything on this machine can send one): it gets a plain 400 page and
// the listener keeps waiting, so a forged request cannot end the sign-in.
func listenRedirect(state string) (*redirectListener, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("cannot listen for the browser's return: %w", err)
	}
	r := &redirectListener{uri: "http://" + ln.Addr().String() + callbackPath, got: make(chan url.Values, 1), done: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+callbackPath, func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Query().Get("state") != state {
			http.Error(w, "This is not the answer of the sign-in Elicit Desk is waiting for.", http.StatusBadRequest)
			return
		}
		select {
		case r.got <- req.URL.Query():
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			fmt.Fprintln(w, "Elicit Desk has the answer: you can close this tab.")
		default:
			http.Error(w, "This sign-in is already answered.", http.StatusConflict)
		}
	})
	r.srv = &http.Server{Handler: mux}
	go func() {
		defer close(r.done)
		r.srv.Serve(ln)
	}()
	return r, nil
}

// wait returns the query of the browser's return, or ctx's error.
func (r *redirectListener) wait(ctx context.Context) (url.Values, error) {
	select {
	case q := <-r.got:
		return q, nil
	case <-ctx.Done():
		return nil, stopped(ctx)
	}
}

// stopped says why ctx ended a sign-in: its time limit or a Cancel.
func stopped(ctx context.Context) error {
	if errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
		return errors.New("the browser did not come back in time")
	}
	return errors.New("the sign-in was cancelled")
}

// close stops the listener and waits for its goroutine.
func (r *redirectListener) close() {
	r.srv.Close()
	<-r.done
}

// checkReturn checks the browser's return (its state already checked by
// the listener) and returns the authorization code: an error is the
// server's refusal, and the iss parameter (RFC 9207) must name the
// issuer whose metadata we read, exactly, whenever it is present, and must
// be present when the metadata says the server sends it.
func checkReturn(q url.Values, md *serverMetadata) (string, error) {
	iss, hasIss := q["iss"]
	switch {
	case hasIss && (len(iss) != 1 || iss[0] != md.Issuer):
		return "", fmt.Errorf("the answer came from another authorization server (iss %q, not %q)", q.Get("iss"), md.Issuer)
	case !hasIss && md.IssParameterSupported:
		return "", errors.New("the answer does not say which authorization server sent it (no iss), though the server promised to")
	}
	if e := q.Get("error"); e != "" {
		if d := q.Get("error_description"); d != "" {
			return "", fmt.Errorf("the authorization server refused: %s (%s)", e, d)
		}
		return "", fmt.Errorf("the authorization server refused: %s", e)
	}
	code := q.Get("code")
	if code == "" {
		return "", errors.New("the browser came back without an authorization code")
	}
	return code, nil
}
