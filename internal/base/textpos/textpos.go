// Package textpos turns byte offsets into the line and column a person
// finds in an editor.
package textpos

import (
	"bytes"
	"unicode/utf8"
)

// LineColumn returns where byte offset off of src is: a line and a column,
// both from 1, the column counted in characters as editors do. An offset
// outside src is taken as its nearest end.
func LineColumn(src []byte, off int) (line, col int) {
	before := src[:min(max(off, 0), len(src))]
	line = 1 + bytes.Count(before, []byte{'\n'})
	col = 1 + utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:])
	return line, col
}
