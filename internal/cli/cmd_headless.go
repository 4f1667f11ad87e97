//go:build headless

package cli

import "io"

// The build without windows (go build -tags headless) runs where there is
// no display and no GL, X11 or Wayland library: a dev box over SSH, a
// container, a VM. Its bridge asks the app on the person's desktop, over
// an endpoint forwarded to this machine (elicitdesk remote); the commands
// that are windows say so.

// windowsBuilt: this build has Elicit Desk's windows; not this one.
const windowsBuilt = false

// noWindows is what the window commands say in this build.
const noWindows = "elicitdesk: this build has no windows: it is the bridge's, for servers, containers and remote machines.\n" +
	"Elicit Desk's windows run on your desktop; run `elicitdesk remote HOST` there to forward them to this machine.\n"

func runUI(_ []string, _, stderr terminal) int {
	stderr.Ours(noWindows)
	return 2
}

func runPreview(_ []string, _ io.Reader, _, stderr terminal) int {
	stderr.Ours(noWindows)
	return 2
}
