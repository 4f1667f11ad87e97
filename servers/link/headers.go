package link

import (
	"encoding/base64"
	"strings"
)

// headerSafe returns s if it can be sent as an HTTP header value as it
// is: visible ASCII and inner spaces; "" otherwise.
func headerSafe(s string) string {
	if s != strings.TrimSpace(s) {
		return ""
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e {
			return ""
		}
	}
	return s
}

// headerValue encodes s for a header the way revision 2026-07-28 says for
// Mcp-Name: as it is when it is safe, else in the =?base64?…?= form,
// which also carries any value that looks like that form.
func headerValue(s string) string {
	if s == "" {
		return ""
	}
	if safe := headerSafe(s); safe != "" && !(strings.HasPrefix(s, "=?base64?") && strings.HasSuffix(s, "?=")) {
		return safe
	}
	return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(s)) + "?="
}
