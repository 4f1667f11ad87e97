package cli

import (
	"errors"
	"io"
	"os"

	"github.com/elicitdesk/elicitdesk/forms"
)

// runValidate prints a JSON object mapping each invalid field to its message.
// Exit 0 when valid, 1 when invalid, 2 on a fatal schema or unreadable input.
func runValidate(args []string, stdin io.Reader, stdout, stderr terminal) int {
	fs := stderr.FlagSet("validate")
	schemaPath := fs.String("schema", "", "the requestedSchema `file` (required; - reads standard input)")
	if code, done := parseMixed(fs, args, stdout, stderr); done {
		return code
	}
	switch {
	case *schemaPath == "":
		return misuse(fs, stderr, "-schema SCHEMA.json is required")
	case fs.NArg() != 1:
		return misuse(fs, stderr, "takes one content file (- reads standard input), not %d", fs.NArg())
	}
	raw, err := readInput(*schemaPath, stdin)
	if err != nil {
		stderr.Linef("elicitdesk validate: %s", err)
		return 2
	}
	schema, err := forms.Parse(raw)
	if err != nil {
		stderr.Linef("elicitdesk validate: %s: %s", *schemaPath, err)
		return 2
	}
	content, err := readInput(fs.Arg(0), stdin)
	if err != nil {
		stderr.Linef("elicitdesk validate: %s", err)
		return 2
	}
	errs, err := schema.ValidateJSON(content)
	if err != nil {
		stderr.Linef("elicitdesk validate: %s: %s", fs.Arg(0), err)
		return 2
	}
	// The full JSON Schema validator has the last word, as it does before sending.
	final, err := schema.Verify(content)
	if err != nil {
		stderr.Linef("elicitdesk validate: %s", err)
		return 2
	}
	for name, msg := range final {
		if _, ok := errs[name]; !ok {
			errs[name] = msg
		}
	}
	stdout.JSON(errs)
	if len(errs) > 0 {
		return 1
	}
	return 0
}

// readInput reads a file, or stdin for "-".
func readInput(path string, stdin io.Reader) ([]byte, error) {
	if path == "-" {
		if stdin == nil {
			return nil, errors.New("standard input is not accepted here")
		}
		return io.ReadAll(stdin)
	}
	return os.ReadFile(path)
}
