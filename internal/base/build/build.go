// Package build says which release this binary is, for `elicitdesk
// version`, the windows' About and the endpoint's handshake, where a bridge
// and an app of other releases name both.
package build

// Release is the release the binary was built as, set by the Makefile
// with -ldflags "-X github.com/elicitdesk/elicitdesk/internal/base/build.Release=…"
// and never after; empty for a plain go build, where the build info's
// module version stands in.
var Release string
