package trust

import (
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// host is the host of a link as a person should read it.
type host struct {
	read     string // the whole host, Unicode rather than punycode (Link.Host)
	sub      string // what the display form shows before domain, dot included
	domain   string // the part to highlight: the registrable domain, or the whole host
	rest     string // what follows domain: a trailing dot
	loopback bool   // this machine, where plain http and odd ports are normal
	warnings []string
	err      error
}

// inspectHost reads name, the host of a link whose authority (host and
// port) is authority.
func inspectHost(authority, name string) host {
	bracketed := strings.HasPrefix(authority, "[")
	if addr, err := netip.ParseAddr(name); err == nil && bracketed == addr.Is6() {
		return ipHost(addr)
	}
	// Browsers allow "_" in names, so only the rest of the lookup rules apply.
	profile := idna.New(idna.MapForLookup(), idna.StrictDomainName(false), idna.BidiRule(), idna.CheckJoiners(true), idna.Transitional(false))
	ascii, err := profile.ToASCII(name)
	if err != nil || bracketed {
		return host{read: untrusted.Text(name).Line(), domain: untrusted.Text(name).Line(), err: errors.New("its host name is not valid")}
	}
	uni, err := profile.ToUnicode(ascii)
	if err != nil {
		uni = ascii
	}
	var h host
	if trimmed, ok := strings.CutSuffix(ascii, "."); ok {
		ascii, uni, h.rest = trimmed, strings.TrimSuffix(uni, "."), "."
	}

	shown := uni
	if ascii != uni {
		h.warnings = append(h.warnings, fmt.Sprintf("The address uses letters outside ASCII: it reads %s but is written %s; letters from other alphabets can imitate a familiar name.", untrusted.Text(uni).Quote(), untrusted.Text(ascii).Quote()))
	}
	for _, label := range strings.Split(uni, ".") {
		if s := scripts(label); mixed(s) {
			shown = ascii // as browsers do, so the imitation does not look like the real name
			h.warnings = append(h.warnings, fmt.Sprintf("The name %s mixes %s letters, a common trick to imitate another name.", untrusted.Text(label).Quote(), list(s)))
		}
	}

	h.read = shown + h.rest // "It leads to" must not read as the name it imitates
	labels := strings.Split(shown, ".")
	n := len(labels)
	switch last := labels[n-1]; {
	case numeric(last):
		h.warnings = append(h.warnings, fmt.Sprintf("The host %s is a number written in an unusual way: browsers read it as an IP address, not a name.", untrusted.Text(shown).Quote()))
	case ascii == "localhost" || strings.HasSuffix(ascii, ".localhost"):
		h.loopback = true
	default:
		if reg, err := publicsuffix.EffectiveTLDPlusOne(ascii); err == nil {
			n = strings.Count(reg, ".") + 1
		}
	}
	if k := len(labels) - n; k > 0 {
		h.sub = strings.Join(labels[:k], ".") + "."
	}
	h.domain = strings.Join(labels[len(labels)-n:], ".")
	return h
}

// ipHost reads a host written as an IP address.
func ipHost(addr netip.Addr) host {
	h := host{read: untrusted.Text(addr.String()).Line(), loopback: addr.Unmap().IsLoopback()}
	h.domain = h.read
	if addr.Is6() {
		h.domain = "[" + h.read + "]"
	}
	if !h.loopback {
		h.warnings = []string{fmt.Sprintf("The link goes to a bare IP address (%s), not a name: nothing shows whose machine it is.", h.read)}
	}
	return h
}

// numeric reports whether browsers take a last label for part of an IPv4
// address: decimal, or hexadecimal after 0x (WHATWG URL, "ends in a number").
func numeric(label string) bool {
	if hex, ok := strings.CutPrefix(label, "0x"); ok {
		return strings.Trim(hex, "0123456789abcdef") == ""
	}
	return label != "" && strings.Trim(label, "0123456789") == ""
}

// scripts lists, sorted, the scripts of the letters in label; Common and
// Inherited ones such as digits, hyphens and combining marks belong to all.
func scripts(label string) []string {
	var found []string
	for _, r := range label {
		for name, table := range unicode.Scripts {
			if name != "Common" && name != "Inherited" && unicode.Is(table, r) && !slices.Contains(found, name) {
				found = append(found, name)
			}
		}
	}
	slices.Sort(found)
	return found
}

// mixed reports whether a label's scripts mix in a way a real name would
// not. Japanese, Chinese and Korean names combine scripts with each other
// and with Latin, as the "highly restrictive" level of Unicode TS #39 allows.
func mixed(scripts []string) bool {
	allowed := [][]string{
		{"Han", "Hiragana", "Katakana", "Latin"},
		{"Bopomofo", "Han", "Latin"},
		{"Han", "Hangul", "Latin"},
	}
	if len(scripts) < 2 {
		return false
	}
	for _, set := range allowed {
		if !slices.ContainsFunc(scripts, func(s string) bool { return !slices.Contains(set, s) }) {
			return false
		}
	}
	return true
}

// list joins words for a sentence: "Cyrillic and Latin".
func list(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
