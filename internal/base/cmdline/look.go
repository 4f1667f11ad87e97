package cmdline

import "strings"

// lookWindows finds a bare command name the way MCP hosts on Windows do:
// on the PATH of the environment the command gets, each folder in turn,
// then in the folder it runs in. Hosts built on the MCP SDK for
// TypeScript (cross-spawn) search the folder first, cmd.exe too; the PATH
// comes first here, so that a program of the same name left in a project
// folder never stands in for the one installed. find resolves a path
// without extension as exec.LookPath does, trying PATHEXT's. A name with
// a folder or drive in it is left to the caller, as is one found nowhere.
func lookWindows(name, dir string, env []string, find func(string) (string, error)) string {
	if name == "" || strings.ContainsAny(name, `/\:`) {
		return name
	}
	for _, d := range strings.Split(envValue(env, "PATH"), ";") {
		if d = strings.Trim(d, `"`); d == "" { // cmd.exe accepts quoted folders
			continue
		}
		if f, err := find(strings.TrimRight(d, `/\`) + `\` + name); err == nil {
			return f
		}
	}
	if f, err := find(strings.TrimRight(dir, `/\`) + `\` + name); err == nil {
		return f
	}
	return name
}

// envValue is the last value env gives key, whose case Windows ignores.
func envValue(env []string, key string) string {
	value := ""
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.EqualFold(k, key) {
			value = v
		}
	}
	return value
}
