package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/elicitdesk/elicitdesk/internal/base/textpos"
)

// member is one key and value of a JSON object, or one array element (key
// empty), with byte offsets into the whole file so errors can say where.
type member struct {
	key    string
	keyOff int
	valOff int
	value  json.RawMessage
	deep   int // file offset of the first bracket in value nested past maxDepth; 0 (never such a bracket) for none
}

// objectMembers splits valid JSON into the members of its top object, in
// order; off is where data starts in the file. ok is false for a non-object.
func objectMembers(data []byte, off int) (members []member, ok bool) {
	dec, ok := open(data, '{')
	for ok && dec.More() {
		keyOff := skip(data, dec.InputOffset(), ", \t\r\n")
		tok, err := dec.Token()
		key, isKey := tok.(string)
		if err != nil || !isKey {
			return nil, false
		}
		valOff := skip(data, dec.InputOffset(), ": \t\r\n")
		deep, err := skipValue(dec, maxDepth)
		if err != nil {
			return nil, false
		}
		members = append(members, member{key: key, keyOff: off + keyOff, valOff: off + valOff,
			value: data[valOff:dec.InputOffset()], deep: fileOffset(off, deep)})
	}
	return members, ok
}

// arrayElements splits valid JSON into the elements of its top array, in
// order; off is where data starts in the file. ok is false for a non-array.
func arrayElements(data []byte, off int) (elements []member, ok bool) {
	dec, ok := open(data, '[')
	for ok && dec.More() {
		valOff := skip(data, dec.InputOffset(), ", \t\r\n")
		deep, err := skipValue(dec, maxDepth)
		if err != nil {
			return nil, false
		}
		elements = append(elements, member{valOff: off + valOff, value: data[valOff:dec.InputOffset()], deep: fileOffset(off, deep)})
	}
	return elements, ok
}

// fileOffset moves a deep offset from skipValue into the file, keeping 0 for none.
func fileOffset(off, deep int) int {
	if deep == 0 {
		return 0
	}
	return off + deep
}

// open starts decoding data, reporting whether it begins with delim.
func open(data []byte, delim json.Delim) (*json.Decoder, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	return dec, err == nil && tok == delim
}

// skip returns the first offset at or after from whose byte is not in set.
func skip(data []byte, from int64, set string) int {
	i := int(from)
	for i < len(data) && strings.IndexByte(set, data[i]) >= 0 {
		i++
	}
	return i
}

// source is a file's name and bytes, for turning offsets into file:line:column.
type source struct {
	name string
	data []byte
}

// at renders off as name:line:column; lines and columns start at 1 and
// columns count characters, as editors do.
func (src source) at(off int) string {
	line, col := textpos.LineColumn(src.data, off)
	return fmt.Sprintf("%s:%d:%d", src.name, line, col)
}

// errorf is an error positioned at off.
func (src source) errorf(off int, format string, args ...any) error {
	return fmt.Errorf("%s: %w", src.at(off), fmt.Errorf(format, args...))
}
