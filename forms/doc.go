// Package forms owns the model of an elicitation form: it reads a
// requestedSchema (Parse, Lint) into fields in the server's order, keeps
// what a person has entered (Form), says what is wrong in plain words, and
// builds the content Accept sends, checked once more against the raw
// schema. It holds no widgets, so every decision is tested without a
// window; forms/formview draws it.
package forms
