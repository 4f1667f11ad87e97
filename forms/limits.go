package forms

import (
	"strconv"
	"unicode/utf8"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonnum"
)

// Limits on a requested schema. A schema over any of them is refused with a
// fatal problem that names the limit: no real form comes near them, and
// bounding them bounds what a hostile server can make the app build and
// draw.
const (
	// MaxFields is the most properties (fields) a form may have.
	MaxFields = 500
	// MaxDepth is the deepest a schema's JSON may nest; the elicitation
	// spec needs four levels at most.
	MaxDepth = 32
	// MaxText is the most characters any one string of a schema may have:
	// a property name, title, description, choice, pattern or default.
	MaxText = 10_000
	// MaxItems is the most elements any one array of a schema may have,
	// such as the choices of an enum or oneOf, or the required names.
	MaxItems = 1_000
)

// limits reports, as fatal problems, every place where the tree at path goes
// over MaxFields, MaxText or MaxItems (the decoder enforces MaxDepth), or has
// a number jsonnum refuses: any keyword's number, in the spec or not, reaches
// the full validator on Verify. It reports whether it found any.
func (l *linter) limits(path string, n *node) bool {
	over := false
	switch n.kind {
	case numberNode:
		if problem := jsonnum.Check(n.number.String()); problem != jsonnum.OK {
			l.fatal(path, "%s is %s: %s", describe(n), problem, jsonnum.Range)
			return true
		}
	case stringNode:
		if c := utf8.RuneCountInString(n.text); c > MaxText {
			l.fatal(path, "this text has %d characters; a schema's text may have at most %d", c, MaxText)
			over = true
		}
	case arrayNode:
		if len(n.items) > MaxItems {
			l.fatal(path, "this list has %d items; a schema's list may have at most %d", len(n.items), MaxItems)
			return true
		}
		for i, it := range n.items {
			over = l.limits(path+"/"+strconv.Itoa(i), it) || over
		}
	case objectNode:
		if path == "#/properties" && len(n.members) > MaxFields {
			l.fatal(path, "the form has %d fields; a form may have at most %d", len(n.members), MaxFields)
			return true
		}
		for _, m := range n.members {
			p := path + "/" + escapePointer(m.key)
			if c := utf8.RuneCountInString(m.key); c > MaxText {
				l.fatal(p, "this name has %d characters; a schema's names may have at most %d", c, MaxText)
				over = true
				continue
			}
			over = l.limits(p, m.value) || over
		}
	}
	return over
}
