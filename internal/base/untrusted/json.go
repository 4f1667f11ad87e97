package untrusted

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// JSON is JSON text safe to show or print, with the same meaning: each
// control, bidi, invisible or line-separator character becomes a \uXXXX
// escape, which a JSON reader turns back into the same string, while a
// person or a terminal sees only the escape. Line breaks and tabs between
// tokens stay, so indented JSON keeps its shape; a byte that is not UTF-8
// becomes ⟨0xXX⟩. It works on any bytes, JSON or not.
func JSON(b []byte) string {
	var out strings.Builder
	out.Grow(len(b))
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&out, "⟨0x%02X⟩", b[i])
		case r == '\n' || r == '\t':
			out.WriteRune(r)
		case Hidden(r) || unicode.In(r, unicode.Zl, unicode.Zp):
			for _, u := range utf16Units(r) {
				fmt.Fprintf(&out, `\u%04x`, u)
			}
		default:
			out.Write(b[i : i+size])
		}
		i += size
	}
	return out.String()
}

// utf16Units is r as JSON escapes it: one unit, or a surrogate pair.
func utf16Units(r rune) []rune {
	if r < 0x10000 {
		return []rune{r}
	}
	r -= 0x10000
	return []rune{0xD800 + r>>10, 0xDC00 + r&0x3FF}
}
