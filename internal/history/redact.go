package history

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/elicitdesk/elicitdesk/forms"
)

// redacted replaces the value of every secret-looking field in stored content.
const redacted = "[redacted]"

// redact returns content with the value of each secret-looking field replaced
// by redacted, keys in their order, compacted. A field is secret when
// forms.Field.Secret says so for its name, title and description in schema; when the
// schema does not parse, the name alone decides. Content that is not a JSON
// object cannot be checked field by field, so all of it is replaced. This is
// the only way content reaches the database, so Get, Search and Export all
// give it redacted.
func redact(schema, content json.RawMessage) json.RawMessage {
	if len(content) == 0 {
		return nil
	}
	var parsed *forms.Schema
	if s, err := forms.Parse(schema); err == nil {
		parsed = s
	}
	secret := func(name string) bool {
		if parsed != nil {
			if f := parsed.Field(name); f != nil {
				return f.Secret()
			}
		}
		f := forms.Field{Name: name}
		return f.Secret()
	}
	out, ok := redactObject(content, secret)
	if !ok {
		whole, _ := json.Marshal(redacted)
		return whole
	}
	return out
}

// redactObject rewrites a JSON object member by member; ok is false when
// content is not exactly one JSON object.
func redactObject(content []byte, secret func(string) bool) (out json.RawMessage, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(content))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	var buf bytes.Buffer
	buf.WriteByte('{')
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, false
		}
		key := t.(string) // inside an object the decoder only yields string keys
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, false
		}
		if secret(key) {
			value, _ = json.Marshal(redacted)
		}
		if buf.Len() > 1 {
			buf.WriteByte(',')
		}
		k, _ := json.Marshal(key)
		buf.Write(k)
		buf.WriteByte(':')
		if err := json.Compact(&buf, value); err != nil {
			return nil, false
		}
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false // something follows the object
	}
	buf.WriteByte('}')
	return buf.Bytes(), true
}
