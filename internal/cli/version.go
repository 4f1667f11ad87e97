package cli

import (
	"runtime/debug"
	"strings"

	"github.com/elicitdesk/elicitdesk/internal/base/build"
)

// runVersion prints the version of this build.
func runVersion(args []string, stdout, stderr terminal) int {
	fs := stderr.FlagSet("version")
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() != 0 {
		return noArgs(fs, stderr)
	}
	stdout.Linef("%s", versionText(build.Release, buildInfo()))
	return 0
}

// buildInfo is this binary's build information; nil when it has none.
func buildInfo() *debug.BuildInfo {
	info, _ := debug.ReadBuildInfo()
	return info
}

// versionText says which build this is: the release (or module version),
// then the commit and its time and whether the checkout had changes, when
// it was built from one, and the Go release.
func versionText(release string, info *debug.BuildInfo) string {
	if info == nil {
		info = &debug.BuildInfo{}
	}
	if release == "" {
		release = info.Main.Version
	}
	if release == "" || release == "(devel)" {
		release = "devel"
	}
	var details []string
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		details = append(details, "commit "+rev[:min(len(rev), 12)])
	}
	if t := settings["vcs.time"]; t != "" {
		details = append(details, t)
	}
	if settings["vcs.modified"] == "true" {
		details = append(details, "with local changes")
	}
	if info.GoVersion != "" {
		details = append(details, info.GoVersion)
	}
	text := "elicitdesk " + strings.TrimPrefix(release, "v")
	if len(details) > 0 {
		text += " (" + strings.Join(details, ", ") + ")"
	}
	return text
}
