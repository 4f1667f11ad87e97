package assets

import _ "embed"

// Copyright is the Debian copyright file the Linux packages carry: the
// one place the licence is stated, which the About window shows.
//
//go:embed linux/copyright
var Copyright string
