package trust

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// Link is the link of a URL-mode elicitation, taken apart for a person to
// judge before opening it.
type Link struct {
	Raw string
	URL *url.URL // nil when Raw does not parse

	// Display is the link as it should be shown: hidden characters marked,
	// the host in the form a person reads. Before, Domain and After split it
	// so the UI can highlight Domain, the registrable domain ("example.co.uk"),
	// or the whole host for IP addresses and localhost:
	// Before+Domain+After == Display. Domain is empty when there is no host.
	Display, Before, Domain, After string

	Host     string   // the host as a person reads it: Unicode, not punycode
	Warnings []string // plain sentences on what to beware of
	Openable bool     // only http and https links may ever be opened
	Err      error    // why it cannot be opened, when it cannot
}

// InspectLink takes apart the url of a URL-mode elicitation and lists what
// a person should know before opening it: that it is not https (loopback
// hosts excepted), that its host is written in punycode or mixes scripts
// (imitating another name), is a bare IP address, or that the link carries a
// user name or password or an unusual port. Only http and https links with a
// valid host and without spaces or hidden characters are Openable; Err says
// why another is not.
func InspectLink(t untrusted.Text) Link {
	raw := string(t)
	l := Link{Raw: raw}
	fail := func(err error) {
		if l.Err == nil {
			l.Err = err
		}
	}
	if strings.IndexFunc(raw, func(r rune) bool { return untrusted.Hidden(r) || unicode.IsSpace(r) || r == utf8.RuneError }) >= 0 {
		fail(errors.New("it holds spaces or hidden characters"))
	}
	u, err := url.Parse(raw)
	if err != nil {
		fail(errors.New("it is not a valid web address"))
		l.Display, l.Before = untrusted.Text(raw).Line(), untrusted.Text(raw).Line()
		return l
	}
	l.URL = u
	switch u.Scheme {
	case "http", "https":
	case "":
		fail(errors.New("it is not a full web address starting with https://"))
	default:
		fail(fmt.Errorf("only http and https links are opened, and this one is a %s link", untrusted.Text(u.Scheme+":").Quote()))
	}
	if u.Scheme == "" || u.Opaque != "" || u.Hostname() == "" {
		fail(errors.New("it names no host"))
		l.Display, l.Before = untrusted.Text(raw).Line(), untrusted.Text(raw).Line()
		return l
	}

	h := inspectHost(u.Host, u.Hostname())
	if h.err != nil {
		fail(h.err)
	}
	l.Host = h.read
	l.Warnings = h.warnings
	if u.Scheme == "http" && !h.loopback {
		l.Warnings = append(l.Warnings, "The link is not https: what you send can be read on the way.")
	}
	if u.User != nil {
		_, pw := u.User.Password()
		what := "a user name"
		if pw {
			what = "a user name and password"
		}
		l.Warnings = append(l.Warnings, fmt.Sprintf("The link holds %s before the @ (%s); the address it opens is %s.", what, untrusted.Text(u.User.Username()).Quote(), h.read))
	}
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n > 65535 {
			fail(errors.New("its port is not valid"))
		} else if port != defaultPort(u.Scheme) && !h.loopback {
			l.Warnings = append(l.Warnings, fmt.Sprintf("The link uses port %s, not the usual one for %s.", port, u.Scheme))
		}
	}

	l.Before = u.Scheme + "://"
	if u.User != nil {
		l.Before += untrusted.Text(u.User.String()).Line() + "@"
	}
	l.Before += h.sub
	l.Domain = h.domain
	l.After = h.rest
	if port := u.Port(); port != "" {
		l.After += ":" + port
	}
	l.After += untrusted.Text(u.EscapedPath()).Line()
	if u.ForceQuery || u.RawQuery != "" {
		l.After += "?" + untrusted.Text(u.RawQuery).Line()
	}
	if u.Fragment != "" {
		l.After += "#" + untrusted.Text(u.EscapedFragment()).Line()
	}
	l.Display = l.Before + l.Domain + l.After
	l.Openable = l.Err == nil
	return l
}

// defaultPort is the port a scheme uses when a link names none.
func defaultPort(scheme string) string {
	if scheme == "https" {
		return "443"
	}
	return "80"
}
