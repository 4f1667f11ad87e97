package history

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/elicitdesk/elicitdesk/forms"
)

// redacted replaces the value of every secret-looking field in stored content,
// and its default in the stored schema.
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
	out, ok := rewriteObject(content, redactIf(forms.SecretFields(schema)))
	if !ok {
		whole, _ := json.Marshal(redacted)
		return whole
	}
	return out
}

// redactSchema returns schema with the default of each secret-looking field
// (as redact judges them) replaced by redacted, so that a secret the server
// offered, and the person accepted, is not kept through the schema either.
// A schema with nothing to redact comes back as it is, byte for byte; one
// with something, compacted and keys in their order.
func redactSchema(schema json.RawMessage) json.RawMessage {
	// Most schemas have no default at all; a key may hide behind escapes.
	if !bytes.Contains(schema, []byte("default")) && !bytes.Contains(schema, []byte(`\u`)) {
		return schema
	}
	secret := forms.SecretFields(schema)
	changed := false
	defaults := func(key string, value json.RawMessage) json.RawMessage {
		if key != "default" {
			return value
		}
		changed = true
		return redactedJSON()
	}
	fields := func(name string, value json.RawMessage) json.RawMessage {
		if !secret(name) {
			return value
		}
		if out, ok := rewriteObject(value, defaults); ok {
			return out
		}
		return value
	}
	top := func(key string, value json.RawMessage) json.RawMessage {
		if key != "properties" {
			return value
		}
		if out, ok := rewriteObject(value, fields); ok {
			return out
		}
		return value
	}
	out, ok := rewriteObject(schema, top)
	if !ok || !changed {
		return schema
	}
	return out
}

// redactIf replaces the value of each member whose key is secret.
func redactIf(secret func(string) bool) func(string, json.RawMessage) json.RawMessage {
	return func(key string, value json.RawMessage) json.RawMessage {
		if secret(key) {
			return redactedJSON()
		}
		return value
	}
}

// redactedJSON is redacted as a JSON value.
func redactedJSON() json.RawMessage {
	v, _ := json.Marshal(redacted)
	return v
}

// rewriteObject rewrites a JSON object member by member through rewrite,
// keys in their order, compacted; ok is false when content is not exactly one
// JSON object.
func rewriteObject(content []byte, rewrite func(key string, value json.RawMessage) json.RawMessage) (out json.RawMessage, ok bool) {
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
		value = rewrite(key, value)
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
