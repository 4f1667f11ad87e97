// Package forms owns the model of an elicitation form: it reads a
// requestedSchema (Parse, Lint) into fields in the server's order, keeps
// what a person has entered (Form), says what is wrong in plain words, and
// builds the content Accept sends, checked once more against the raw
// schema. It holds no widgets, so every decision is tested without a
// window; forms/formview draws it.
//
// A server is not trusted: a schema over MaxFields, MaxDepth, MaxText or
// MaxItems is refused, numbers are kept exactly (ExactNumber) and fields
// that seem to ask for a credential are Secret however they are spelt.
package forms
