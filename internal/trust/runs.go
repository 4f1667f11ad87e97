package trust

import (
	"slices"
	"strings"

	"github.com/elicitdesk/elicitdesk/internal/base/cmdline"
)

// runs are the names of what a command line runs, as a person may know
// the server by: the program and each package, script or image it is
// given, each without its directory, version or extension, and a script
// with a name that says nothing ("dist/index.js") by the directory it is
// in. Flags, URLs and variables (NAME=VALUE) are none; a flag's value
// cannot be told from an argument, and counts. target is the line as
// config.Server.Target renders it, read back into its words (a line that
// does not read, as Target never renders, by its blanks).
func runs(target string) []string {
	words, err := cmdline.Split(target)
	if err != nil {
		words = strings.Fields(target)
	}
	var names []string
	for i, arg := range words {
		if strings.Contains(arg, "://") || i > 0 && (strings.HasPrefix(arg, "-") || assignment(arg)) {
			continue
		}
		if name := RunName(arg); name != "" {
			names = append(names, name)
		}
	}
	return names
}

// assignment reports whether arg sets a variable: NAME=VALUE.
func assignment(arg string) bool {
	name, _, ok := strings.Cut(arg, "=")
	return ok && name != "" && strings.IndexFunc(name, func(r rune) bool {
		return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_')
	}) < 0
}

// RunName is what a person calls the program, package, script or image
// arg: "@scope/name@1.2", "name==1.2", "/srv/name/dist/index.js" and
// "ghcr.io/acme/name:latest" are "name"; "" when nothing in it says.
func RunName(arg string) string {
	if i := strings.IndexAny(arg, "=<>["); i > 0 {
		arg = arg[:i]
	}
	parts := strings.FieldsFunc(arg, func(r rune) bool { return r == '/' || r == '\\' })
	for len(parts) > 0 {
		last := parts[len(parts)-1]
		if i := strings.LastIndexByte(last, '@'); i > 0 { // a version
			last = last[:i]
		}
		if i := strings.IndexByte(last, ':'); i > 0 && len(parts) > 1 { // an image's tag, not a drive
			last = last[:i]
		}
		for _, ext := range []string{".js", ".mjs", ".cjs", ".ts", ".py", ".pyz", ".jar", ".exe", ".cmd", ".bat", ".sh"} {
			if n := len(last) - len(ext); n > 0 && strings.EqualFold(last[n:], ext) {
				last = last[:n]
				break
			}
		}
		if !slices.Contains([]string{"index", "main", "__main__", "cli", "dist", "build", "out", "lib", "src", "bin"}, strings.ToLower(last)) {
			return last
		}
		parts = parts[:len(parts)-1]
	}
	return ""
}
