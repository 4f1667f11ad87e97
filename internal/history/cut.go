package history

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// The most of a request the history keeps: a person reads no more, and a
// server flooding megabyte requests must not grow the file by megabytes.
// A refusal, which nobody was asked, keeps less.
const (
	MaxMessageBytes        = 64 << 10  // of an entry's message
	MaxSchemaBytes         = 256 << 10 // of an entry's requestedSchema
	MaxRefusedMessageBytes = 4 << 10   // of a refused request's message
	MaxRefusedSchemaBytes  = 16 << 10  // of a refused request's requestedSchema
)

// Cut says that the history kept only a prefix of an entry's message or
// schema, and what the whole was, so a person sees it was cut.
type Cut struct {
	Size   int64  `json:"size"`   // bytes of the message and schema (its secret defaults redacted)
	SHA256 string `json:"sha256"` // hex SHA-256 of the message followed by that schema
}

// Shorten returns e as Add stores it: the defaults of its secret-looking
// fields redacted (see redactSchema), its message and schema cut to the
// limits of its outcome, in copies that hold nothing of the originals, and
// Cut set when anything went. Redacting first keeps a secret out of the
// prefix and the checksum of a cut schema. A cut schema is kept as a JSON string of its
// prefix, so the column stays JSON. Shortening before queuing a write keeps
// a flood of large requests from piling up in memory.
func Shorten(e Entry) Entry {
	if e.Cut != nil {
		return e // already shortened
	}
	e.Schema = redactSchema(e.Schema)
	maxMessage, maxSchema := MaxMessageBytes, MaxSchemaBytes
	if e.Outcome == RateLimited || e.Outcome == Error {
		maxMessage, maxSchema = MaxRefusedMessageBytes, MaxRefusedSchemaBytes
	}
	if len(e.Message) <= maxMessage && len(e.Schema) <= maxSchema {
		return e
	}
	sum := sha256.New()
	sum.Write([]byte(e.Message))
	sum.Write(e.Schema)
	e.Cut = &Cut{Size: int64(len(e.Message) + len(e.Schema)), SHA256: hex.EncodeToString(sum.Sum(nil))}
	e.Message = untrusted.Text(strings.Clone(prefix(string(e.Message), maxMessage)))
	if len(e.Schema) > maxSchema {
		e.Schema = jsonString(prefix(string(e.Schema), maxSchema))
	}
	return e
}

// jsonString is s as a JSON string. Without HTML escaping, which would
// write each < > & of a schema as six bytes, it is about as long as s.
func jsonString(s string) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// prefix is s cut to at most n bytes on a rune boundary.
func prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
