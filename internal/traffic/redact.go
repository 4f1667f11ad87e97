package traffic

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/elicitdesk/elicitdesk/forms"
)

// Redacted stands in for every secret a capture keeps out.
const Redacted = "[redacted]"

// A Redactor takes the secrets out of a message before a capture keeps
// it, by History's rules and more:
//   - the value of a member whose name asks for a secret (forms' judge of
//     a field's name: password, token, api_key, authorization…), and of
//     cookie headers;
//   - in an elicitation's answer, each field its form judged secret by
//     name, title or description, as History redacts it;
//   - in any string: a bearer or basic credential, a JSON Web Token, a
//     well-known API key's shape, and a URL query parameter whose name asks
//     for a secret;
//   - what the person's own patterns match;
//   - in an HTTP response's headers (RedactHeader), those with a secret's
//     name, and the rest as strings.
type Redactor struct {
	patterns []*regexp.Regexp // the person's

	// names caches the verdict on member names, which repeat from message
	// to message (jsonrpc, params, arguments…) and cost forms' judge a
	// normalisation each; at most maxNames, then it starts again.
	mu    sync.Mutex
	names map[string]bool
}

const maxNames = 4096

// NewRedactor returns a Redactor with the person's patterns, regular
// expressions in Go's syntax, added to its own rules.
func NewRedactor(patterns []string) (*Redactor, error) {
	r := &Redactor{}
	for _, p := range patterns {
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("the redaction pattern %q: %w", p, err)
		}
		r.patterns = append(r.patterns, re)
	}
	return r, nil
}

// Redact returns message, a JSON-RPC message, compacted, members in their
// order, with its secrets replaced by Redacted. A string that holds JSON
// (a tool's result as text) is redacted as JSON too.
func (r *Redactor) Redact(message []byte) json.RawMessage {
	return r.redact(message, nil)
}

// RedactAnswer is Redact for the answer to an elicitation whose
// requestedSchema was form: the fields the form judged secret, by name,
// title or description, go too. known is false when the request was not
// seen: then every field's value goes, since none can be judged.
func (r *Redactor) RedactAnswer(message, form []byte, known bool) json.RawMessage {
	secret := func(string) bool { return true }
	if known {
		secret = forms.SecretFields(form)
	}
	return r.redact(message, secret)
}

func (r *Redactor) redact(message []byte, formSecret func(string) bool) json.RawMessage {
	w := walk{r: r, dec: json.NewDecoder(bytes.NewReader(message)), formSecret: formSecret}
	w.dec.UseNumber()
	if err := w.value(nil, plain); err != nil || w.end() != nil {
		b, _ := json.Marshal(fmt.Sprintf("[not JSON: %d bytes]", len(message)))
		return b
	}
	return w.out.Bytes()
}

// walk rewrites one message token by token.
type walk struct {
	r          *Redactor
	dec        *json.Decoder
	out        bytes.Buffer
	formSecret func(string) bool // an elicitation answer's fields; nil for other messages
}

// keep is how much of a value redaction keeps.
type keep int

const (
	plain        keep = iota // what the rules do not catch
	secret                   // nothing: every string and number in it goes
	secretSchema             // a secret field's schema: its schemaWords
)

// schemaWords are the members of a secret field's schema (a member of a
// "properties") that say how it looks, not what it is: kept, so that a
// tool's or form's schema of a password field stays readable while its
// default and examples go.
var schemaWords = map[string]bool{"type": true, "title": true, "description": true, "format": true,
	"minLength": true, "maxLength": true, "minimum": true, "maximum": true, "pattern": true}

// value rewrites the next value, at path (its members' names from the
// message's top), keeping what k says.
func (w *walk) value(path []string, k keep) error {
	t, err := w.dec.Token()
	if err != nil {
		return err
	}
	switch v := t.(type) {
	case json.Delim:
		switch v {
		case '{':
			return w.object(path, k)
		case '[':
			return w.array(path, k)
		}
		return errors.New("a stray delimiter")
	case string:
		switch {
		case k != plain:
			v = Redacted
		case carriesJSON(v):
			v = string(w.r.Redact([]byte(v)))
		default:
			v = w.r.scrub(v)
		}
		w.str(v)
	case json.Number:
		if k != plain {
			w.str(Redacted)
		} else {
			w.out.WriteString(string(v))
		}
	case bool:
		fmt.Fprint(&w.out, v)
	case nil:
		w.out.WriteString("null")
	}
	return nil
}

// carriesJSON: s is a JSON object or array, as a tool's text result often
// is.
func carriesJSON(s string) bool {
	t := strings.TrimSpace(s)
	return len(t) > 1 && (t[0] == '{' || t[0] == '[') && json.Valid([]byte(t))
}

func (w *walk) object(path []string, k keep) error {
	w.out.WriteByte('{')
	for n := 0; w.dec.More(); n++ {
		t, err := w.dec.Token()
		if err != nil {
			return err
		}
		name := t.(string) // inside an object the decoder yields string names only
		if n > 0 {
			w.out.WriteByte(',')
		}
		w.str(w.r.scrub(name)) // a token or an id may be a name too
		w.out.WriteByte(':')
		if err := w.value(append(path, name), w.inner(path, name, k)); err != nil {
			return err
		}
	}
	_, err := w.dec.Token() // '}'
	w.out.WriteByte('}')
	return err
}

// inner is what is kept of member name of an object at path kept as k.
func (w *walk) inner(path []string, name string, k keep) keep {
	switch {
	case k == secret:
		return secret
	case k == secretSchema && schemaWords[name]:
		return plain
	case k == secretSchema:
		return secret
	case !w.secretName(path, name):
		return plain
	case len(path) > 0 && path[len(path)-1] == "properties":
		return secretSchema
	}
	return secret
}

func (w *walk) array(path []string, k keep) error {
	w.out.WriteByte('[')
	for n := 0; w.dec.More(); n++ {
		if n > 0 {
			w.out.WriteByte(',')
		}
		if err := w.value(append(path, "[]"), k); err != nil {
			return err
		}
	}
	_, err := w.dec.Token() // ']'
	w.out.WriteByte(']')
	return err
}

// secretName: the member name at path holds a secret.
func (w *walk) secretName(path []string, name string) bool {
	if w.formSecret != nil && len(path) == 2 && path[0] == "result" && path[1] == "content" {
		return w.formSecret(name)
	}
	switch strings.ToLower(name) {
	case "cookie", "set-cookie":
		return true
	case "progresstoken":
		return false // MCP's own, and what a developer follows a request by
	}
	return w.r.secretName(name)
}

// secretName is secretName, cached.
func (r *Redactor) secretName(name string) bool {
	r.mu.Lock()
	secret, ok := r.names[name]
	r.mu.Unlock()
	if ok {
		return secret
	}
	secret = secretName(name)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.names == nil || len(r.names) >= maxNames {
		r.names = map[string]bool{} // a zero Redactor works too
	}
	r.names[name] = secret
	return secret
}

// secretName: a member or parameter of this name holds a secret, by its
// name alone.
func secretName(name string) bool {
	f := forms.Field{Name: name}
	return f.Secret()
}

// end checks that nothing follows the message.
func (w *walk) end() error {
	if _, err := w.dec.Token(); err != io.EOF {
		return errors.New("something follows the message")
	}
	return nil
}

// str writes s as a JSON string, <, > and & as they are (the capture's
// lines keep them so too).
func (w *walk) str(s string) {
	enc := json.NewEncoder(&w.out)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	w.out.Truncate(w.out.Len() - 1) // Encode's newline
}

// Secrets that give themselves away in any string.
var (
	credential = regexp.MustCompile(`(?i)\b(bearer|basic|digest)(\s+)[A-Za-z0-9._~+/=-]{6,}`)
	jwt        = regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*`)
	apiKey     = regexp.MustCompile(`\b(?:sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,}|glpat-[A-Za-z0-9_-]{20,})`)
	query      = regexp.MustCompile(`([?&;#])([^=&;#\s"'<>]+)=([^&;#\s"'<>]*)`)
)

// apiKeyStarts are what each of apiKey's shapes starts with.
var apiKeyStarts = []string{"sk-", "gh", "github_pat_", "xox", "AKIA", "AIza", "glpat-"}

// containsAny: s contains one of words.
func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// personal redacts what the person's patterns match in s.
func (r *Redactor) personal(s string) string {
	for _, re := range r.patterns {
		s = re.ReplaceAllString(s, Redacted)
	}
	return s
}

// queryNames are query parameters that carry a secret though forms would
// not judge their names so: OAuth's code, signed URLs' signatures.
var queryNames = map[string]bool{"code": true, "key": true, "sig": true, "signature": true, "x-amz-signature": true,
	"x-amz-credential": true, "x-amz-security-token": true, "auth": true, "session": true, "sessionid": true, "jwt": true}

// scrub redacts what gives itself away in s, and the person's patterns.
func (r *Redactor) scrub(s string) string {
	s = r.personal(s) // first: the rules' marks must not split their matches
	if len(s) < 6 {
		return s // too short to hold a secret any rule knows
	}
	// Each rule runs only where the words it needs are: a regular
	// expression costs more than the searches for them.
	if lower := strings.ToLower(s); strings.Contains(lower, "bearer") || strings.Contains(lower, "basic") || strings.Contains(lower, "digest") {
		s = credential.ReplaceAllString(s, "${1}${2}"+Redacted)
	}
	if strings.Contains(s, "eyJ") {
		s = jwt.ReplaceAllString(s, Redacted)
	}
	if containsAny(s, apiKeyStarts) {
		s = apiKey.ReplaceAllString(s, Redacted)
	}
	if strings.ContainsRune(s, '=') {
		s = query.ReplaceAllStringFunc(s, func(m string) string {
			parts := query.FindStringSubmatch(m)
			name := strings.ToLower(parts[2])
			if parts[3] == "" || !queryNames[name] && !secretName(name) {
				return m
			}
			return parts[1] + parts[2] + "=" + Redacted
		})
	}
	return s
}

// How much of an HTTP response's headers a capture keeps: a server that
// sends thousands, or one of megabytes, must not fill the file.
const (
	maxHeaderValues = 64
	maxHeaderValue  = 1024 // bytes, each
)

// RedactHeader returns the headers of h a capture keeps: those with a
// secret's name (Authorization, Cookie, Set-Cookie, Mcp-Session-Id,
// X-Api-Key…) as
// Redacted, the others scrubbed as a message's strings are, each cut to
// maxHeaderValue, maxHeaderValues at most; nil for none.
func (r *Redactor) RedactHeader(h http.Header) http.Header {
	if len(h) == 0 {
		return nil
	}
	out, n := http.Header{}, 0
	for _, name := range slices.Sorted(maps.Keys(h)) { // a map's order changes: the first kept are the same each time
		// Mcp-Session-Id is the session's credential as much as its name:
		// whoever holds it speaks in the session, and a HAR is made to be
		// shared.
		secret := r.secretName(name) || strings.EqualFold(name, "cookie") || strings.EqualFold(name, "set-cookie") ||
			strings.EqualFold(name, "mcp-session-id")
		scrub := r.scrub
		if strings.HasSuffix(strings.ToLower(name), "-authenticate") {
			scrub = r.personal // a challenge (Bearer resource_metadata=…) holds no credential, and sign-in's debugging needs it whole
		}
		for _, v := range h[name] {
			if n == maxHeaderValues {
				return out
			}
			n++
			switch {
			case secret:
				v = Redacted
			case len(v) > maxHeaderValue:
				v = strings.ToValidUTF8(v[:maxHeaderValue], "") + "…"
				fallthrough
			default:
				v = scrub(v)
			}
			out[name] = append(out[name], v)
		}
	}
	return out
}
