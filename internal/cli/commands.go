package cli

import (
	"io"
	"strings"

	"github.com/elicitdesk/elicitdesk/internal/base/term"
	"github.com/elicitdesk/elicitdesk/internal/corecmd"
)

// command is one of elicitdesk's commands: how it is called, what it does,
// and the function that runs it. The overall usage, `help CMD`, `CMD -h`
// and the usage printed on misuse all come from here.
type command struct {
	name     string
	synopsis []string // after "elicitdesk ", one line for each form
	summary  string
	run      func(args []string, s stdio) int
}

// stdio is what a command reads and writes.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

// terminals are s's outputs as terminals, through which commands print.
func (s stdio) terminals() (stdout, stderr terminal) { return term.To(s.out), term.To(s.err) }

// appCommand is the name under which the app itself, elicitdesk with no
// command, has its help.
const appCommand = "elicitdesk"

// uiCommand runs the windows' process, which the app starts itself.
const uiCommand = corecmd.UICommand

// commands lists every command in the order the usage shows them.
func commands() []command {
	both := func(f func([]string, terminal, terminal) int) func([]string, stdio) int {
		return func(args []string, s stdio) int {
			out, errs := s.terminals()
			return f(args, out, errs)
		}
	}
	// read is both for a command that may read standard input too.
	read := func(f func([]string, io.Reader, terminal, terminal) int) func([]string, stdio) int {
		return func(args []string, s stdio) int {
			out, errs := s.terminals()
			return f(args, s.in, out, errs)
		}
	}
	app := command{appCommand, []string{"[-config FILE] [-ui-idle DURATION] [-v]"},
		"Start the app: tray, request windows, history.", both(runApp)}
	return []command{
		app,
		{uiCommand, []string{"[-config FILE] [-idle DURATION] [-tray] [-v]"},
			"The app's windows, which it starts while one is needed (not for use by hand).", both(runUI)},
		{"lint", []string{"[-json] [-hosts] SCHEMA.json"},
			"List the problems of a requestedSchema (- reads standard input). Exit 1 when one is fatal.\nWith -hosts, also say what each MCP host does with the form (renders it, turns it into an\napprove-or-decline prompt, drops it), as recorded with its version, date and source.", read(runLint)},
		{"validate", []string{"-schema SCHEMA.json CONTENT.json"},
			"Check content against a requestedSchema (- reads standard input). Exit 1 when invalid.", read(runValidate)},
		{"preview", []string{"[-message TEXT] [SCHEMA.json]"},
			"Open a schema (the demo form without one; - reads standard input) as a form window; print the answer.", read(runPreview)},
		{"servers", []string{"[-json] [-v] [-config FILE]"},
			"List the configured MCP servers and, while the app runs, where each connection stands.", both(runServers)},
		{"tools", []string{"[-v] TARGET"},
			"List a server's tools as JSON.", both(runTools)},
		{"call", []string{"-tool NAME [-args JSON] [-answer " + answerModes + "] [-v] TARGET"},
			"Call a tool, answering its elicitations as -answer says; print the result.", read(runCall)},
		{"login", []string{"TARGET"},
			"Sign in to a remote server that asks for it (tools and call sign in when needed, too).", both(runLogin)},
		{"logout", []string{"TARGET"},
			"Forget a remote server's sign-in.", both(runLogout)},
		{"bridge", []string{"[-name NAME] [-listen ADDR] [-v] [-header 'NAME: VALUE' | -header-env NAME]... [-transport T] TARGET"},
			"Be a host's MCP server: pass everything to TARGET, answer its elicitations in the app's windows.",
			func(args []string, s stdio) int {
				return runBridge(args, s.in, writeCloser(s.out), term.To(s.err)) // stdout speaks MCP
			}},
		{"remote", []string{"[-name NAME] [-uid N | -remote-path PATH] [USER@]HOST", "-list", "-forget NAME"},
			"Have this desktop's Elicit Desk serve another machine, whose bridge may then ask\nyou, and print the ssh command line and ~/.ssh/config block that forward it there\n(it runs no ssh); list the machines served, or stop serving one.", both(runRemote)},
		{"hosts", []string{"[-json]", "route|unroute HOST [-project DIR | -profile NAME] [SERVER...]"},
			"List the MCP hosts found here (Claude, Cursor, VS Code…) and their servers,\nor run a host's servers through the bridge, or not.", both(runHosts)},
		{"demo-server", nil,
			"Run the built-in demo MCP server on standard input and output.",
			func(args []string, s stdio) int {
				return runDemoServer(args, s.in, s.out, s.err) // stdout speaks MCP
			}},
		{"traffic", []string{"[-json] [-follow] [FILTER...]", "-captured [-json] [FILTER...]", "[-captured] -har FILE|- [FILTER...]", "[-captured] -stats [-json] [FILTER...]"},
			"Print what passed on the app's connections to its servers and bridged sessions: each\nmessage's method, id, size, latency and outcome. With -captured, the messages themselves,\nredacted, as the capture kept them (Settings, Traffic). Filter with words such as\nmethod:tools/call or status:error; a word it does not know lists them all.", both(runTraffic)},
		{"history", []string{"[-json] [-search TEXT] [-server NAME [-machine NAME]] [-outcome OUTCOME] [-limit N] [-db FILE]"},
			"Print the request history, newest first. Another machine's server is one of its own:\n-server demo -machine devbox.", both(runHistory)},
		{"version", nil,
			"Print the version of this build (--version does too).", both(runVersion)},
		{"help", []string{"[COMMAND]"},
			"Print this help, or a command's with all its flags.", runHelp},
	}
}

// notBuilt says, on a line of its own, that the command is one of the
// windows', which this build lacks; "" where it has them.
func (c command) notBuilt() string {
	if windowsBuilt || (c.name != appCommand && c.name != uiCommand && c.name != "preview") {
		return ""
	}
	return "\nNot in this build, which has no windows."
}

// lookup returns the command called name.
func lookup(name string) (command, bool) {
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// usageLines are the command's usage lines, each starting "elicitdesk".
func (c command) usageLines() []string {
	prefix := "elicitdesk "
	if c.name != appCommand {
		prefix += c.name + " "
	}
	if len(c.synopsis) == 0 {
		return []string{strings.TrimSpace(prefix)}
	}
	lines := make([]string, len(c.synopsis))
	for i, s := range c.synopsis {
		lines[i] = prefix + s
	}
	return lines
}

// usage is the whole command line's help: every command, then what a
// TARGET is and the exit codes.
func usage() string {
	var b strings.Builder
	b.WriteString("Usage:\n")
	for _, c := range commands() {
		for _, l := range c.usageLines() {
			b.WriteString("  " + l + "\n")
		}
		for l := range strings.Lines(c.summary + c.notBuilt()) {
			b.WriteString("      " + strings.TrimSuffix(l, "\n") + "\n")
		}
	}
	b.WriteString("\n" + targetHelp + "\n\n")
	b.WriteString("Run `elicitdesk help COMMAND` or `elicitdesk COMMAND -h` for a command's flags.\n\n")
	b.WriteString(exitCodes)
	return b.String()
}

// targetHelp says what a TARGET is.
const targetHelp = "A TARGET is -server NAME (from servers.json), -url URL [-sse], or -- COMMAND ARGS..."

// exitCodes is what every command's exit code means.
const exitCodes = "Exit codes: 0 fine, 1 the input has problems or a name is unknown, 2 the input could not be read or the command line is wrong."
