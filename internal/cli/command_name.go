package cli

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/elicitdesk/elicitdesk/internal/hosts"
	"github.com/elicitdesk/elicitdesk/internal/trust"
)

// commandName names a server run by argv in dir ("" when unknown), for
// windows and logs: the
// program's own name, or, when it is a launcher such as npx, uvx or
// docker, the package or image it launches, or, when it is an
// interpreter such as node or python, the script or module it runs. A
// host config routed through the bridge passes only a command line, and
// "npx asks" or "node asks" would tell the person nothing.
func commandName(argv []string, dir string) string {
	name := hosts.BaseName(argv[0])
	prog := strings.ToLower(strings.TrimSuffix(strings.TrimSuffix(name, ".exe"), ".cmd"))
	args := argv[1:]
	if interpreter(prog) {
		if script := scriptName(args, dir); script != "" {
			return script
		}
		return name
	}
	switch prog {
	case "npx", "bunx", "pnpx", "uvx":
	case "pipx", "yarn", "pnpm", "bun", "npm", "uv":
		args = after(args, "run", "dlx", "x", "exec")
	case "docker", "podman":
		return imageName(after(args, "run"))
	default:
		return name
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-p" || a == "--package" || a == "--from" || a == "--with":
			i++ // a value, not the package run
		case strings.HasPrefix(a, "-"):
		default:
			return packageName(a)
		}
	}
	return name
}

// interpreter reports whether prog runs a script or module it is given:
// node, deno, python3.12, java -jar…
func interpreter(prog string) bool {
	for _, p := range []string{"node", "nodejs", "deno", "tsx", "ts-node", "python", "ruby", "perl", "php", "java"} {
		if prog == p || p == "python" && strings.HasPrefix(prog, p) {
			return true
		}
	}
	return false
}

// scriptName is the name of the script, module or jar an interpreter's
// args run in dir ("/srv/booking/dist/index.js" is "booking", and so is
// "dist/index.js" in /srv/booking), or "".
func scriptName(args []string, dir string) string {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case (a == "-m" || a == "-jar") && i+1 < len(args):
			return trust.RunName(args[i+1])
		case a == "-e" || a == "--eval" || a == "-p" || a == "--print" || a == "-c":
			return "" // code on the command line: no script to name it by
		case a == "run" && i == 0: // deno run
		case strings.HasPrefix(a, "-"):
		default:
			if name := trust.RunName(a); name != "" || dir == "" || filepath.IsAbs(a) {
				return name
			}
			return trust.RunName(filepath.Join(dir, a))
		}
	}
	return ""
}

// after returns args after the first of verbs, or nil without one.
func after(args []string, verbs ...string) []string {
	i := slices.IndexFunc(args, func(a string) bool { return slices.Contains(verbs, a) })
	if i < 0 {
		return nil
	}
	return args[i+1:]
}

// packageName is the name in an npm or PyPI spec: "@scope/name@1.2" and
// "name==1.2" are "name".
func packageName(spec string) string {
	if i := strings.LastIndexByte(spec, '@'); i > 0 {
		spec = spec[:i]
	}
	if i := strings.IndexAny(spec, "=<>[~"); i > 0 {
		spec = spec[:i]
	}
	return hosts.BaseName(spec)
}

// takesValue reports whether a `docker run` option takes the next argument.
func takesValue(option string) bool {
	switch option {
	case "-e", "--env", "--env-file", "-v", "--volume", "--mount", "-p", "--publish",
		"--name", "--network", "-w", "--workdir", "-u", "--user", "--entrypoint", "--platform", "-l", "--label",
		"--pull", "-m", "--memory", "--cpus", "--add-host", "--device", "--cap-add", "--cap-drop", "-h", "--hostname",
		"--security-opt", "--tmpfs", "--ulimit", "--runtime", "--gpus", "--dns", "--log-driver":
		return true
	}
	return false
}

// imageName is the image `docker run` args start, without registry or tag.
func imageName(args []string) string {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case takesValue(a):
			i++
		case strings.HasPrefix(a, "-"):
		default:
			name := hosts.BaseName(a)
			if j := strings.IndexAny(name, ":@"); j > 0 {
				name = name[:j]
			}
			return name
		}
	}
	return "docker"
}
