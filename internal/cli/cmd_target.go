package cli

import (
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"

	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/config"
)

// target is where a developer command connects: a configured server, a
// URL, or a command line after "--".
type target struct {
	server string
	url    string
	sse    bool
	config *string
}

func addTargetFlags(fs *flag.FlagSet) *target {
	t := &target{config: config.Flag(fs)}
	fs.StringVar(&t.server, "server", "", "a server `name` from servers.json")
	fs.StringVar(&t.url, "url", "", "a Streamable HTTP server `URL` (SSE with -sse)")
	fs.BoolVar(&t.sse, "sse", false, "-url speaks the older HTTP+SSE transport")
	return t
}

// misTarget is resolve's error for a command line whose target cannot be
// one: none or several named, a -url that is no http or https URL.
type misTarget struct{ error }

// errTarget is resolve's error for a command line that names no target,
// or more than one.
var errTarget = misTarget{errors.New("name exactly one target: -server NAME, -url URL, or a command line after --")}

// targetExit is the exit code of a command whose target did not open: 2
// when its command line's target cannot be one, as for any other wrong
// command line, else 1.
func targetExit(err error) int {
	if errors.As(err, new(misTarget)) {
		return 2
	}
	return 1
}

// resolve turns the flags and what follows "--" into a server configuration.
func (t *target) resolve(command []string) (config.Server, error) {
	given := 0
	for _, set := range []bool{t.server != "", t.url != "", len(command) > 0} {
		if set {
			given++
		}
	}
	if given != 1 {
		return config.Server{}, errTarget
	}
	switch {
	case t.server != "":
		cfg, _, err := readConfig(*t.config)
		if err != nil {
			return config.Server{}, err
		}
		s, err := findServer(cfg, t.server)
		if err != nil {
			return config.Server{}, err
		}
		return s, s.Err
	case t.url != "":
		if !config.IsRemoteURL(t.url) {
			return config.Server{}, misTarget{fmt.Errorf("-url needs an http or https URL, got %q", t.url)}
		}
		u, _ := url.Parse(t.url)
		tr := config.TransportHTTP
		if t.sse {
			tr = config.TransportSSE
		}
		return config.Server{Name: u.Host, URL: t.url, Transport: tr}, nil
	}
	dir, _ := os.Getwd() // where the command runs, and a script it names is found
	return config.Server{Name: commandName(command, dir), Command: command[0], Args: command[1:], Transport: config.TransportStdio}, nil
}

// splitCommand separates flags from a stdio command after "--".
func splitCommand(args []string) (flags, command []string) {
	for i, a := range args {
		if a == "--" {
			return args[:i], args[i+1:]
		}
	}
	return args, nil
}

// describe prints an elicitation for a person watching the terminal: who
// asks, the message, and the link or the schema.
func describe(e *servers.Elicitation, out terminal) {
	claim := ""
	if r := e.Server.Reported.String(); r != "" {
		claim = "; reports itself as " + r
	}
	out.Linef("elicitation %s from %s (%s%s), %s mode:", e.ID, e.Server.Name, e.Server.Target, claim, e.Mode)
	out.Block(e.Message)
	if e.Mode == servers.ModeURL {
		out.Linef("  url: %s", e.URL)
	} else {
		out.Linef("  schema: %s", e.Schema)
		// As lint says them: a default of the wrong type, say, is left
		// out of the answer, which the author should hear of here.
		for _, w := range e.Form.Warnings {
			out.Linef("  %s", w)
		}
	}
}
