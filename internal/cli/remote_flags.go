package cli

import (
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"strings"

	"github.com/elicitdesk/elicitdesk/internal/hosts"
	"github.com/elicitdesk/elicitdesk/servers/config"
)

// remoteFlags are the bridge's flags for a -url server as a host's entry
// describes it: the headers to send and the transport by the host's name.
type remoteFlags struct {
	headers   headerList
	fromEnv   nameList
	transport string
	getenv    func(string) (string, bool)
}

// addRemoteFlags adds them, and -serverUrl and -httpUrl for t's -url, as
// Windsurf's and Gemini CLI's entries call it: `hosts route` keeps the
// name the entry had.
func addRemoteFlags(fs *flag.FlagSet, t *target) *remoteFlags {
	r := &remoteFlags{getenv: os.LookupEnv}
	fs.StringVar(&t.url, "serverUrl", "", "the same as -url, as Windsurf's entries name it (hosts route keeps the name)")
	fs.StringVar(&t.url, "httpUrl", "", "the same as -url, as Gemini CLI's entries name it (hosts route keeps the name)")
	fs.Var(&r.headers, "header", "send this `Name: value` header with every request to the -url server; repeat for more")
	fs.Var(&r.fromEnv, "header-env", "send the header `NAME` with the value of the environment variable "+hosts.HeaderEnvPrefix+"NAME (or NAME), which keeps a secret off the command line; repeat for more")
	fs.StringVar(&r.transport, "transport", "", "the -url server's `transport` as hosts name it: http, streamable-http, streamableHttp or sse")
	return r
}

// apply sets cfg's headers and transport; a stdio server takes neither.
func (r *remoteFlags) apply(cfg *config.Server) error {
	if len(r.headers) == 0 && len(r.fromEnv) == 0 && r.transport == "" {
		return nil
	}
	if cfg.Transport == config.TransportStdio {
		return errors.New("-header, -header-env and -transport are for a remote server (-url)")
	}
	if r.transport != "" {
		t, ok := config.HostRemoteTransport(r.transport)
		switch {
		case !ok:
			return fmt.Errorf("-transport %q is none of %s", r.transport, strings.Join(config.HostRemoteTypes(), ", "))
		case t == config.TransportHTTP && cfg.Transport == config.TransportSSE:
			return fmt.Errorf("-sse and -transport %s disagree", r.transport)
		}
		cfg.Transport = t
	}
	if len(r.headers)+len(r.fromEnv) == 0 {
		return nil
	}
	cfg.Headers = maps.Clone(cfg.Headers)
	if cfg.Headers == nil {
		cfg.Headers = map[string]string{}
	}
	for _, h := range r.headers {
		name, value, _ := strings.Cut(h, ":")
		setHeader(cfg.Headers, strings.TrimSpace(name), strings.TrimSpace(value))
	}
	for _, name := range r.fromEnv {
		// `hosts route` writes the prefixed name, which no program reads as
		// its own setting; an entry routed before it did has the bare one.
		value, ok := r.getenv(hosts.HeaderEnvPrefix + name)
		if !ok {
			value, ok = r.getenv(name)
		}
		if !ok {
			return fmt.Errorf("-header-env %s: the environment has neither %s%s nor %s (a host passes its entry's env)", name, hosts.HeaderEnvPrefix, name, name)
		}
		setHeader(cfg.Headers, name, value)
	}
	return nil
}

// setHeader sets name in headers in place of any spelling of it in
// another case: HTTP names are case-insensitive, and of two keys for one
// header which would be sent is down to map order.
func setHeader(headers map[string]string, name, value string) {
	for k := range headers {
		if strings.EqualFold(k, name) {
			delete(headers, k)
		}
	}
	headers[name] = value
}

// headerList is a repeated -header flag of "Name: value" lines.
type headerList []string

func (h *headerList) String() string { return strings.Join(*h, ", ") }

func (h *headerList) Set(v string) error {
	name, _, ok := strings.Cut(v, ":")
	if !ok || strings.TrimSpace(name) == "" || strings.ContainsAny(name, " \t\r\n") {
		return errors.New(`a header is "Name: value"`)
	}
	*h = append(*h, v)
	return nil
}

// nameList is a repeated flag of names.
type nameList []string

func (n *nameList) String() string { return strings.Join(*n, ", ") }

func (n *nameList) Set(v string) error {
	if v == "" || strings.ContainsAny(v, "=: \t\r\n") {
		return fmt.Errorf("%q is not a header name", v)
	}
	*n = append(*n, v)
	return nil
}
