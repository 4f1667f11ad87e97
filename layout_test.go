package main

import (
	"os/exec"
	"slices"
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
	except string   // a prefix of pkgs the rule leaves out
	allow  []string // prefixes of imports forbid catches that the rule leaves in
}{
	{"internal/base/", []string{""}, "the ground imports nothing else of the project", "", []string{"internal/base/"}},
	// The one JSON-RPC peer and its framing serve both the MCP
	// conversations and the endpoint; they stand on the ground alone, so
	// that the endpoint may use them without the domain.
	{"=servers/link", []string{""}, "the one framing stands on the ground", "", []string{"internal/base/"}},
	{"=servers/rpc", []string{""}, "the one JSON-RPC peer stands on its framing and the ground", "", []string{"internal/base/", "servers/link"}},
	{"internal/traffic", []string{"", "fyne.io/fyne"}, "the traffic record sees messages on the framing and judges secrets as forms do; it knows nothing else", "", []string{"internal/base/", "servers/link", "forms"}},
	{"internal/desktop/", []string{"app", "forms", "servers", "internal/core", "internal/cli", "internal/endpoint", "internal/history", "internal/hosts", "internal/trust", "internal/deskclient"}, "desktop integration stands on the ground only", "", nil},
	{"servers", []string{"app", "internal/core", "internal/cli", "internal/deskclient", "fyne.io/fyne"}, "the domain knows no windows and no commands", "", nil},
	{"internal/core", []string{"app", "internal/cli", "fyne.io/fyne", "servers/demo"}, "the core runs without Fyne", "", nil},
	{"internal/corecmd", notInTheCore, "the core's own executable runs the app alone: none of the windows' or the other commands' code", "", nil},
	{"internal/endpoint", []string{"app", "servers", "internal/core", "internal/cli"}, "the endpoint carries messages only, on the one JSON-RPC peer", "", []string{"servers/rpc", "servers/link"}},
	{"internal/history", []string{"app", "internal/core", "internal/cli", "fyne.io/fyne"}, "History is plain Go", "", nil},
	{"app", []string{"internal/cli", "internal/deskclient", "servers/demo"}, "the windows are given their core; the demo server is the commands'", "", nil},
	{"", []string{"github.com/mark3labs/mcp-go", "github.com/modelcontextprotocol/go-sdk"}, "one MCP stack: servers/link, servers/rpc, servers/client; an MCP library only serves the demo", "servers/demo", nil},
	{"=forms", []string{"app", "servers", "internal/core", "internal/cli", "fyne.io/fyne"}, "forms know only schemas; formview draws them", "", nil},
}

// notInTheCore is what the core's own executable must not link: the
// windows, the other commands and their libraries.
var notInTheCore = []string{"app", "internal/cli", "internal/hosts", "internal/deskclient", "servers/bridge", "servers/demo",
	"fyne.io/fyne/v2/", "github.com/go-gl", "github.com/mark3labs/mcp-go", "go.yaml.in/yaml", "github.com/pelletier/go-toml", "github.com/yuin/goldmark"}

// TestCoreExecutable: elicitdesk-core links none of notInTheCore, not even
// through another package (TestLayout sees direct imports only). Fyne's
// root package alone, the assets' resource type, is let in.
func TestCoreExecutable(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "./internal/corecmd/elicitdesk-core").Output()
	if err != nil {
		t.Fatal(err)
	}
	for dep := range strings.Lines(string(out)) {
		dep = strings.TrimSpace(dep)
		for _, f := range notInTheCore {
			if target, ours := strings.CutPrefix(dep, module); ours && strings.HasPrefix(target, f) || !ours && strings.Contains(f, ".") && strings.HasPrefix(dep, f) {
				t.Errorf("elicitdesk-core links %s", dep)
			}
		}
	}
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
					allowed := slices.ContainsFunc(l.allow, func(a string) bool { return strings.HasPrefix(target, a) })
					if strings.HasPrefix(target, f) && !allowed {
						t.Errorf("%s imports %s: %s", pkg, imp, l.why)
					}
				}
			}
		}
	}
}
