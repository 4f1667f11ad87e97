package main

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/elicitdesk/elicitdesk/"

// layers says, for packages under a prefix, which imports they must not
// have: the layout of the README's Architecture section, kept by a test.
var layers = []struct {
	pkgs   string   // an import path prefix, after the module's; "=path" for one package
	forbid []string // prefixes none of them may import (module-relative unless they contain a dot)
	why    string
	except string // a prefix of pkgs the rule leaves out
}{
	{"internal/base/", []string{""}, "the ground imports nothing else of the project", ""},
	{"internal/desktop/", []string{"app", "forms", "servers", "internal/core", "internal/cli", "internal/endpoint", "internal/history", "internal/hosts", "internal/trust", "internal/deskclient"}, "desktop integration stands on the ground only", ""},
	{"servers", []string{"app", "internal/core", "internal/cli", "internal/deskclient", "fyne.io/fyne"}, "the domain knows no windows and no commands", ""},
	{"internal/core", []string{"app", "internal/cli", "fyne.io/fyne", "servers/demo"}, "the core runs without Fyne", ""},
	{"internal/endpoint", []string{"app", "servers", "internal/core", "internal/cli"}, "the endpoint carries messages only", ""},
	{"internal/history", []string{"app", "internal/core", "internal/cli", "fyne.io/fyne"}, "History is plain Go", ""},
	{"app", []string{"internal/cli", "internal/deskclient", "servers/demo"}, "the windows are given their core; the demo server is the commands'", ""},
	{"", []string{"github.com/mark3labs/mcp-go", "github.com/modelcontextprotocol/go-sdk"}, "one MCP stack: servers/link, servers/rpc, servers/client; an MCP library only serves the demo", "servers/demo"},
	{"=forms", []string{"app", "servers", "internal/core", "internal/cli", "fyne.io/fyne"}, "forms know only schemas; formview draws them", ""},
}

// TestLayout checks each package's imports (not its tests') against the
// layers.
func TestLayout(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./...").Output()
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		pkg, imports := strings.TrimPrefix(fields[0], module), fields[1:]
		for _, l := range layers {
			if exact, ok := strings.CutPrefix(l.pkgs, "="); ok && pkg != exact || !ok && !strings.HasPrefix(pkg, l.pkgs) ||
				l.except != "" && strings.HasPrefix(pkg, l.except) {
				continue
			}
			for _, imp := range imports {
				for _, f := range l.forbid {
					target := imp
					if !strings.Contains(f, ".") {
						if !strings.HasPrefix(imp, module) {
							continue
						}
						target = strings.TrimPrefix(imp, module)
					}
					if strings.HasPrefix(target, f) && !(l.pkgs == "internal/base/" && strings.HasPrefix(target, "internal/base/")) {
						t.Errorf("%s imports %s: %s", pkg, imp, l.why)
					}
				}
			}
		}
	}
}
