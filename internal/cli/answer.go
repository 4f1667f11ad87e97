package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/servers"
)

// The -answer modes; anything else names a FILE of field values.
const (
	answerDefaults = "defaults" // accept with the schema's defaults
	answerDecline  = "decline"
	answerCancel   = "cancel"
	answerDesk     = "desk" // a person answers, in the running app's windows
)

// answerStdin is the FILE that is standard input.
const answerStdin = "-"

// answerModes is how usage lines show the choice.
const answerModes = answerDefaults + "|" + answerDecline + "|" + answerCancel + "|" + answerDesk + "|FILE"

// answerValues reads the field values of -answer FILE: the file, read
// anew for each request as it arrives (a named pipe lets a script answer
// late), or for "-" standard input, read to its end once, when the first
// request arrives, and laid over every request's defaults.
func answerValues(answer string, stdin io.Reader) func() ([]byte, error) {
	read := func() ([]byte, error) { return readInput(answer, stdin) }
	if answer == answerStdin {
		return sync.OnceValues(read)
	}
	return read
}

// scriptedAnswer answers e, the call's nth elicitation (0 the first),
// the way -answer says: "defaults" accepts with the schema's defaults,
// "decline" and "cancel" say so, and anything else names a file (values
// reads it) of field values laid over the defaults, or of a list of
// answers, one for each request in turn (fileAnswer). Content is validated
// before it is sent.
func scriptedAnswer(answer string, values func() ([]byte, error), n int, e *servers.Elicitation) (forms.Result, error) {
	a := fromFile{mode: answer}
	if !isAnswerMode(answer) {
		var err error
		a, err = fileAnswer(answer, values, n)
		switch {
		case e.Mode == servers.ModeURL && (err != nil || a.every):
			// A link asks for consent alone: only a list's own item for
			// it says otherwise.
			return forms.Result{Action: forms.Accept}, nil
		case err != nil:
			return forms.Result{}, err
		}
	}
	switch a.mode {
	case answerDecline:
		return forms.Result{Action: forms.Decline}, nil
	case answerCancel:
		return forms.Result{Action: forms.Cancel}, nil
	}
	if e.Mode == servers.ModeURL {
		// Consent only: the link is shown on stderr, never opened.
		return forms.Result{Action: forms.Accept}, nil
	}
	f := forms.NewForm(e.Form)
	for _, name := range slices.Sorted(maps.Keys(a.fields)) {
		if err := f.Set(name, a.fields[name]); err != nil {
			if a.every && n > 0 {
				return forms.Result{}, fmt.Errorf("%s: %w (a list answers each request in turn: [{…}, {…}])", a.source, err)
			}
			return forms.Result{}, fmt.Errorf("%s: %w", a.source, err)
		}
	}
	res, errs, err := f.Accept()
	if err != nil {
		return forms.Result{}, err
	}
	if len(errs) > 0 {
		return forms.Result{}, fmt.Errorf("the answer is not valid: %s", formatErrors(errs))
	}
	return res, nil
}

// isAnswerMode reports whether answer is a mode that -answer FILE's list
// may hold too, rather than a file's name.
func isAnswerMode(answer string) bool {
	switch answer {
	case answerDefaults, answerDecline, answerCancel:
		return true
	}
	return false
}

// fromFile is how -answer FILE answers a request.
type fromFile struct {
	mode   string         // answerDefaults, with fields laid over the defaults; answerDecline; answerCancel
	fields map[string]any // the field values
	source string         // what errors name: the file, and the list's item
	every  bool           // one object answers every request
}

// fileAnswer reads how the call's nth request is answered from path's
// JSON (read reads it): an object of field values answers every request;
// a list answers each in turn, with an object of field values or
// "defaults", "decline" or "cancel", so that a tool that asks two
// different forms can be answered both.
func fileAnswer(path string, read func() ([]byte, error), n int) (fromFile, error) {
	if path == answerStdin {
		path = "standard input"
	}
	want := "want a JSON object of field values, or a list of answers"
	raw, err := read()
	if err != nil {
		return fromFile{}, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	switch err := dec.Decode(&doc); {
	case errors.Is(err, io.EOF):
		return fromFile{}, fmt.Errorf("%s is empty: %s", path, want)
	case err != nil:
		return fromFile{}, fmt.Errorf("%s is not JSON (%w): %s", path, err, want)
	}
	a := fromFile{mode: answerDefaults, source: path, every: true}
	if list, ok := doc.([]any); ok {
		if n >= len(list) {
			return fromFile{}, fmt.Errorf("%s answers %d request%s; this is request %d", path, len(list), plural(len(list)), n+1)
		}
		doc, a.source, a.every = list[n], fmt.Sprintf("%s, answer %d", path, n+1), false
		want = fmt.Sprintf("want an object of field values, %q, %q or %q", answerDefaults, answerDecline, answerCancel)
		if s, ok := doc.(string); ok {
			if !isAnswerMode(s) {
				return fromFile{}, fmt.Errorf("%s is %q: %s", a.source, s, want)
			}
			a.mode = s
			return a, nil
		}
	}
	fields, ok := doc.(map[string]any)
	if !ok {
		return fromFile{}, fmt.Errorf("%s holds %s: %s", a.source, jsonKind(doc), want)
	}
	a.fields = fields
	return a, nil
}

// answerFileExists says, before the call, when answer is none of the
// modes and names no file: a typo would otherwise answer cancel once the
// request arrives. The file itself is read then (a named pipe exists too).
func answerFileExists(answer string) error {
	if isAnswerMode(answer) || answer == answerDesk || answer == answerStdin {
		return nil
	}
	st, err := os.Stat(answer)
	switch {
	case err != nil:
		return fmt.Errorf("is none of %s, and no file: %w", strings.ReplaceAll(answerModes, "|FILE", ""), err)
	case st.IsDir():
		return fmt.Errorf("%s is a folder, not a file of field values", answer)
	}
	return nil
}

// jsonKind names the kind of a decoded JSON value that is not an object.
func jsonKind(v any) string {
	switch v.(type) {
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "true or false"
	}
	return "null"
}

func formatErrors(errs forms.FieldErrors) string {
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(errs)) {
		parts = append(parts, name+": "+errs[name])
	}
	return strings.Join(parts, "; ")
}
