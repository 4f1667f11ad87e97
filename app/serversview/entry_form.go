package serversview

import (
	"fmt"
	"maps"
	"net/http"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/net/http/httpguts"

	"github.com/elicitdesk/elicitdesk/internal/base/cmdline"
	"github.com/elicitdesk/elicitdesk/servers/config"
)

// negotiate is what the MCP revision picker shows for "no pin": the
// newest revision both sides speak.
const negotiate = "Automatic"

// field names one input of the Add/Edit dialog, to hang an error under.
type field string

const (
	fieldName    field = "name"
	fieldCommand field = "command"
	fieldCwd     field = "cwd"
	fieldEnv     field = "env"
	fieldURL     field = "url"
	fieldHeaders field = "headers"
)

// formErrors maps each input to what is wrong with it, in plain words.
type formErrors map[field]string

// entryForm is the Add/Edit dialog's content exactly as typed, so that bad
// input is shown with its errors rather than lost.
type entryForm struct {
	Name        string
	Transport   config.Transport
	CommandLine string // stdio: the command and its arguments, quoted as this system's terminal quotes them
	Cwd         string // stdio
	Env         string // stdio: KEY=VALUE lines
	URL         string // http and sse
	Headers     string // http and sse: Name: value lines, as HTTP writes them
	Protocol    string // one of config.ProtocolVersions, or negotiate
	Disabled    bool
}

// formFromEntry fills the dialog from an entry of servers.json. A broken
// entry fills in what could be read; its Err is shown beside the form.
func formFromEntry(s config.Server) entryForm {
	f := entryForm{
		Name:      s.Name,
		Transport: s.Transport,
		Cwd:       s.Cwd,
		Env:       keyValueLines(s.Env),
		URL:       s.URL,
		Headers:   headerLines(s.Headers),
		Protocol:  s.ProtocolVersion,
		Disabled:  s.Disabled,
	}
	if s.Command != "" {
		f.CommandLine = config.Server{Command: s.Command, Args: s.Args}.Target()
	}
	if !slices.Contains(config.Transports(), f.Transport) {
		f.Transport = config.TransportStdio
		if s.URL != "" && s.Command == "" {
			f.Transport = config.TransportHTTP
		}
	}
	if !slices.Contains(protocolChoices(), f.Protocol) {
		f.Protocol = negotiate
	}
	return f
}

// protocolChoices are the protocol picker's options: negotiate, then
// every revision an entry may pin.
func protocolChoices() []string {
	return append([]string{negotiate}, config.ProtocolVersions()...)
}

// entry returns base changed to say what the form says, or what stops it.
// base is the entry as read (zero for a new one), so keys the form does not
// show survive; taken reports whether another entry already has a name.
func (f entryForm) entry(base config.Server, taken func(name string) bool) (config.Server, formErrors) {
	errs := formErrors{}
	switch {
	case f.Name == "":
		errs[fieldName] = "Give the server a name."
	case strings.TrimSpace(f.Name) != f.Name:
		errs[fieldName] = "Remove the spaces at the start or end of the name."
	case taken(f.Name):
		errs[fieldName] = fmt.Sprintf("Another server is already called %q.", f.Name)
	}
	s := base
	s.Name, s.Transport, s.Disabled = f.Name, f.Transport, f.Disabled
	s.ProtocolVersion = ""
	if f.Protocol != negotiate {
		s.ProtocolVersion = f.Protocol
	}
	// Only the chosen transport's inputs count: the others stay in the
	// dialog while it is open but are not saved.
	s.Command, s.Args, s.Env, s.Cwd, s.URL, s.Headers = "", nil, nil, "", "", nil
	if f.Transport == config.TransportStdio {
		words, err := cmdline.Split(f.CommandLine)
		switch {
		case err != nil:
			errs[fieldCommand] = "The command line cannot be read: " + err.Error() + "."
		case len(words) == 0 || words[0] == "":
			errs[fieldCommand] = "Enter the command that starts the server."
		default:
			s.Command, s.Args = words[0], words[1:]
		}
		if f.Cwd != "" && !filepath.IsAbs(f.Cwd) {
			errs[fieldCwd] = "Enter a full path, such as /home/me/project, or leave it empty."
		}
		s.Cwd = f.Cwd
		s.Env = parseKeyValues(f.Env, fieldEnv, errs)
	} else {
		if !config.IsRemoteURL(f.URL) {
			errs[fieldURL] = "Enter an http:// or https:// URL, such as https://mcp.example.com/mcp."
		}
		s.URL = f.URL
		s.Headers = parseHeaderLines(f.Headers, errs)
	}
	if len(errs) > 0 {
		return config.Server{}, errs
	}
	s.Err, s.Warnings = nil, nil
	return s, nil
}

// parseKeyValues reads KEY=VALUE lines, skipping blank ones; the first bad
// line is recorded in errs under in.
func parseKeyValues(text string, in field, errs formErrors) map[string]string {
	out := map[string]string{}
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		switch {
		case !ok:
			errs[in] = fmt.Sprintf("Line %d: write KEY=VALUE.", i+1)
		case strings.TrimSpace(key) == "":
			errs[in] = fmt.Sprintf("Line %d: the name before = is empty.", i+1)
		case strings.TrimSpace(key) != key:
			errs[in] = fmt.Sprintf("Line %d: remove the spaces around %q.", i+1, strings.TrimSpace(key))
		case strings.ContainsRune(value, maskRune):
			errs[in] = stillHidden(i, key)
		default:
			if _, dup := out[key]; !dup {
				out[key] = value
				continue
			}
			errs[in] = fmt.Sprintf("Line %d: %s is already set above.", i+1, key)
		}
		return nil
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// stillHidden says that a masked value was edited rather than revealed.
func stillHidden(i int, name string) string {
	return fmt.Sprintf("Line %d: the value of %s is still hidden. Show it with its eye button below, then edit it, or type it again.", i+1, name)
}

// parseHeaderLines reads HTTP's Name: value lines, skipping blank ones;
// the first bad line is recorded in errs. Name=value, the form the dialog
// once used, is refused with a message rather than guessed at: a value
// may hold a = of its own.
func parseHeaderLines(text string, errs formErrors) map[string]string {
	out := map[string]string{}
	seen := map[string]bool{} // canonical names: HTTP's are not case-sensitive
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		value = strings.Trim(value, " \t")
		switch {
		case !ok && strings.Contains(line, "="):
			errs[fieldHeaders] = fmt.Sprintf("Line %d: write Name: value, with a colon as HTTP does, not Name=value.", i+1)
		case !ok:
			errs[fieldHeaders] = fmt.Sprintf("Line %d: write Name: value.", i+1)
		case strings.TrimSpace(name) == "":
			errs[fieldHeaders] = fmt.Sprintf("Line %d: the name before the colon is empty.", i+1)
		case !httpguts.ValidHeaderFieldName(name):
			errs[fieldHeaders] = fmt.Sprintf("Line %d: %q is not a header name: use letters, digits and -, with no spaces.", i+1, name)
		case strings.ContainsRune(value, maskRune):
			errs[fieldHeaders] = stillHidden(i, name)
		case !httpguts.ValidHeaderFieldValue(value):
			errs[fieldHeaders] = fmt.Sprintf("Line %d: the value of %s holds a control character, which a header cannot carry.", i+1, name)
		case seen[http.CanonicalHeaderKey(name)]:
			errs[fieldHeaders] = fmt.Sprintf("Line %d: %s is already set above.", i+1, name)
		default:
			seen[http.CanonicalHeaderKey(name)] = true
			out[name] = value
			continue
		}
		return nil
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// headerLines renders headers as Name: value lines, sorted by name.
func headerLines(m map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(m)) {
		fmt.Fprintf(&b, "%s: %s\n", k, m[k])
	}
	return b.String()
}

// keyValueLines renders a map as KEY=VALUE lines, sorted by key.
func keyValueLines(m map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(m)) {
		fmt.Fprintf(&b, "%s=%s\n", k, m[k])
	}
	return b.String()
}
