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

// scriptedAnswer answers an elicitation the way -answer says: "defaults"
// accepts with the schema's defaults, "decline" and "cancel" say so, and
// anything else names a file (values reads it) holding a JSON object of
// field values laid over the defaults. Content is validated before it is
// sent.
func scriptedAnswer(answer string, values func() ([]byte, error), e *servers.Elicitation) (forms.Result, error) {
	switch answer {
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
	if answer != answerDefaults {
		if err := fillFrom(f, answer, values); err != nil {
			return forms.Result{}, err
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

// answerFileExists says, before the call, when answer is none of the
// modes and names no file: a typo would otherwise answer cancel once the
// request arrives. The file itself is read then (a named pipe exists too).
func answerFileExists(answer string) error {
	switch answer {
	case answerDefaults, answerDecline, answerCancel, answerDesk, answerStdin:
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

// fillFrom lays the values that read reads, from path, over f's.
func fillFrom(f *forms.Form, path string, read func() ([]byte, error)) error {
	if path == answerStdin {
		path = "standard input"
	}
	raw, err := read()
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	switch err := dec.Decode(&doc); {
	case errors.Is(err, io.EOF):
		return fmt.Errorf("%s is empty: want a JSON object of field values", path)
	case err != nil:
		return fmt.Errorf("%s is not JSON (%w): want an object of field values", path, err)
	}
	values, ok := doc.(map[string]any)
	if !ok {
		return fmt.Errorf("%s holds %s: want a JSON object of field values", path, jsonKind(doc))
	}
	for _, name := range slices.Sorted(maps.Keys(values)) {
		if err := f.Set(name, values[name]); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
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
