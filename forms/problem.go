package forms

import (
	"fmt"
	"strings"
)

// Severity tells whether a problem stops a schema from being shown.
type Severity string

const (
	// Warning marks a problem the form can live with; it is shown beside the form.
	Warning Severity = "warning"
	// Fatal marks a problem no client can show as a spec form.
	Fatal Severity = "fatal"
)

// Problem is one defect of a requested schema.
type Problem struct {
	// Path is a JSON Pointer into the schema, written as a URI fragment ("#/properties/age").
	Path     string   `json:"path"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
}

func (p Problem) String() string {
	return fmt.Sprintf("%s %s: %s", p.Severity, p.Path, p.Message)
}

// SchemaError is returned by Parse when a schema has fatal problems. It lists
// every problem, warnings included, so the server can fix them all at once.
type SchemaError struct {
	Problems []Problem
}

func (e *SchemaError) Error() string {
	var fatal []string
	for _, p := range e.Problems {
		if p.Severity == Fatal {
			fatal = append(fatal, p.Path+": "+p.Message)
		}
	}
	return "requested schema cannot be shown: " + strings.Join(fatal, "; ")
}

// hasFatal reports whether any problem is fatal.
func hasFatal(problems []Problem) bool {
	for _, p := range problems {
		if p.Severity == Fatal {
			return true
		}
	}
	return false
}
