// Package assets holds the files the binary carries: icons and the demo form.
package assets

import _ "embed"

// DemoForm is the requestedSchema shown when the app starts without servers:
// one field of every kind the spec defines.
//
//go:embed demo-form.json
var DemoForm []byte
