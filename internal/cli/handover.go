package cli

// The core runs all day; the windows only while one shows. So that the
// core need not map the code of Fyne, GL and the windows, it has an
// executable of its own, built without them (-tags headless,core):
// elicitdesk-core, beside the app's binary (make build) or in
// lib/elicitdesk beside its bin folder (make install, the .deb), where the
// keeper is too. The app's binary hands the app command over to it, and
// the core starts the app's binary for the windows. Where it is missing
// (go build, go install, the fyne package archive, macOS, Windows), the
// app's binary runs the core itself.
const coreName = "elicitdesk-core"

// appEnv tells the core the app's binary it was handed over from: the one
// it starts for the windows, runs the demo server with and names in the
// login entry.
const appEnv = "ELICITDESK_APP"
