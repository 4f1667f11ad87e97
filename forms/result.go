package forms

import "encoding/json"

// Action is how the person answered, as the spec names it.
type Action string

const (
	Accept  Action = "accept"  // submitted the form
	Decline Action = "decline" // explicitly said no
	Cancel  Action = "cancel"  // dismissed without choosing
)

// Result is the answer to an elicitation, shaped like the spec's ElicitResult.
type Result struct {
	Action  Action          `json:"action"`
	Content json.RawMessage `json:"content,omitempty"`
}

// Accept returns the accept result, or the errors that stop it. The content is
// checked twice: by the form's own rules and, as sent, by a full JSON Schema
// validator against the server's raw schema.
func (f *Form) Accept() (Result, FieldErrors, error) {
	if errs, err := f.Problems(); err != nil || len(errs) > 0 {
		return Result{}, errs, err
	}
	return Result{Action: Accept, Content: f.Content()}, nil, nil
}

// Problems returns what stops Accept: the form's own errors, or else those
// of the full validator on the content as it would be sent.
func (f *Form) Problems() (FieldErrors, error) {
	if errs := f.Errors(); len(errs) > 0 {
		return errs, nil
	}
	return f.Schema.Verify(f.Content())
}
