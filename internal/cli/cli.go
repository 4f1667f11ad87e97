// Package cli is the elicitdesk command line: the app when run with no
// arguments, and the commands developers and scripts use to lint schemas,
// reach servers and read the history. Every command prints through a
// terminal, which shows server text only through untrusted's views.
package cli

import "io"

const usage = `Usage:
  elicitdesk [-config FILE] [-v]                start the app: tray, request windows, history
  elicitdesk lint SCHEMA.json                   list the problems of a requestedSchema
  elicitdesk validate -schema SCHEMA.json CONTENT.json
                                                check content against a requestedSchema
  elicitdesk preview [-message TEXT] SCHEMA.json
                                                open a schema as a form; print the answer
  elicitdesk servers [-json] [-config FILE]     list the configured MCP servers
  elicitdesk tools TARGET                       list a server's tools as JSON
  elicitdesk call -tool NAME [-args JSON] [-answer defaults|decline|cancel|FILE] TARGET
                                                call a tool, answering its elicitations; print the result
  elicitdesk login TARGET                       sign in to a remote server that asks for it
                                                (tools and call sign in when needed, too)
  elicitdesk logout TARGET                      forget a remote server's sign-in
  elicitdesk bridge [-name NAME] [-listen ADDR] [-v] TARGET
                                                be a host's MCP server: pass everything to TARGET,
                                                answer its elicitations in the app's windows
  elicitdesk hosts [-json]                      list the MCP hosts found here (Claude, Cursor, VS Code…)
                                                and their servers
  elicitdesk hosts route|unroute HOST [SERVER...]
                                                run a host's servers through the bridge, or not
  elicitdesk demo-server                        run the built-in demo MCP server on stdin/stdout
  elicitdesk history [-json] [-search TEXT] [-server NAME] [-outcome OUTCOME] [-limit N]
                                                print the request history, newest first

A TARGET is -server NAME (from servers.json), -url URL [-sse], or -- COMMAND ARGS...

Exit codes: 0 fine, 1 the input has problems, 2 the input could not be read.`

// Run dispatches a command line and returns the exit code.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "demo-server" {
		return runDemoServer(stdin, stdout, stderr) // stdout speaks MCP
	}
	if len(args) > 0 && args[0] == "bridge" {
		return runBridge(args[1:], stdin, writeCloser(stdout), terminal{stderr}) // stdout speaks MCP
	}
	out, errs := terminal{stdout}, terminal{stderr}
	if len(args) == 0 || args[0] == "-config" || args[0] == "-v" {
		return runApp(args, out, errs)
	}
	switch args[0] {
	case "lint":
		return runLint(args[1:], out, errs)
	case "validate":
		return runValidate(args[1:], stdin, out, errs)
	case "preview":
		return runPreview(args[1:], out, errs)
	case "servers":
		return runServers(args[1:], out, errs)
	case "tools":
		return runTools(args[1:], out, errs)
	case "call":
		return runCall(args[1:], out, errs)
	case "login":
		return runLogin(args[1:], out, errs)
	case "logout":
		return runLogout(args[1:], out, errs)
	case "history":
		return runHistory(args[1:], out, errs)
	case "hosts":
		return runHosts(args[1:], out, errs)
	case "help", "-h", "-help", "--help":
		out.Linef(usage)
		return 0
	}
	errs.Linef("elicitdesk: unknown command %q\n\n"+usage, args[0])
	return 2
}

// writeCloser is w, closed if it can be: closing a bridge's stdout tells
// its host the conversation is over.
func writeCloser(w io.Writer) io.WriteCloser {
	if wc, ok := w.(io.WriteCloser); ok {
		return wc
	}
	return nopCloser{w}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
