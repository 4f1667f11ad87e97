package cli

import (
	"errors"
	"flag"
	"slices"
	"strings"
)

// parseFlags parses a command's flags from args. Asked for help (-h,
// -help, --help), it prints the command's help to stdout and is done with
// exit 0; given a flag it does not know or a bad value, it prints the
// usage to stderr and is done with exit 2.
func parseFlags(fs *flag.FlagSet, args []string, stdout, stderr terminal) (code int, done bool) {
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		stdout.Ours(helpText(fs))
		return 0, true
	case err != nil: // the flag package said which flag and why
		return misuse(fs, stderr, ""), true
	}
	return 0, false
}

// parseMixed is parseFlags for a command whose flags may also follow its
// arguments (hosts route HOST SERVER -project DIR): fs.Args() are then its
// arguments, in order, and everything after "--" is one.
func parseMixed(fs *flag.FlagSet, args []string, stdout, stderr terminal) (code int, done bool) {
	var positional []string
	for {
		if code, done := parseFlags(fs, args, stdout, stderr); done {
			return code, true
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if i := len(args) - len(rest) - 1; i >= 0 && args[i] == "--" {
			positional = append(positional, rest...)
			break
		}
		positional, args = append(positional, rest[0]), rest[1:]
	}
	fs.Parse(append([]string{"--"}, positional...)) // cannot fail: only arguments
	return 0, false
}

// misuse prints why a command line does not make sense (format, with args
// shown safely; the flag package says it of a flag), then the command's
// help, to stderr, and returns exit code 2.
func misuse(fs *flag.FlagSet, stderr terminal, format string, args ...any) int {
	if format != "" {
		prefix := "elicitdesk " + fs.Name()
		if fs.Name() == appCommand {
			prefix = appCommand
		}
		stderr.Linef(prefix+": "+format, args...)
	}
	stderr.Ours(helpText(fs))
	return 2
}

// noArgs refuses the arguments of a command that takes none.
func noArgs(fs *flag.FlagSet, stderr terminal) int {
	return misuse(fs, stderr, "takes no arguments, not %q", fs.Arg(0))
}

// helpText is the help of the command whose flags fs holds: its usage
// lines, what it does, and every flag with its meaning and default.
func helpText(fs *flag.FlagSet) string {
	name, _, _ := strings.Cut(fs.Name(), " ") // hosts route's are hosts'
	c, _ := lookup(name)
	var b strings.Builder
	for i, l := range c.usageLines() {
		if i == 0 {
			b.WriteString("usage: " + l + "\n")
		} else {
			b.WriteString("       " + l + "\n")
		}
	}
	b.WriteString("\n" + c.summary + c.notBuilt() + "\n")
	if slices.ContainsFunc(c.synopsis, func(s string) bool { return strings.Contains(s, "TARGET") }) {
		b.WriteString("\n" + targetHelp + "\n")
	}
	hasFlags := false
	fs.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		b.WriteString("\nFlags:\n")
		out := fs.Output()
		fs.SetOutput(&b)
		fs.PrintDefaults()
		fs.SetOutput(out)
	}
	if c.name == appCommand { // the bare command: a first try's help, so it names the rest
		b.WriteString("\nRun `elicitdesk help` for the other commands (call, hosts, history, bridge…).\n")
	}
	return b.String()
}

// runHelp prints the whole usage, or the help of one command.
func runHelp(args []string, s stdio) int {
	stdout, stderr := s.terminals()
	fs := stderr.FlagSet("help")
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	switch fs.NArg() {
	case 0:
		stdout.Ours(usage() + "\n")
		return 0
	case 1:
		c, ok := lookup(fs.Arg(0))
		if !ok {
			stderr.Linef("elicitdesk help: no command %q; `elicitdesk help` lists them", fs.Arg(0))
			return 2
		}
		if c.notBuilt() != "" { // its run says only that
			stdout.Ours(helpText(stderr.FlagSet(c.name)))
			return 0
		}
		return c.run([]string{"-h"}, s)
	}
	return misuse(fs, stderr, "takes one command at most, not %d", fs.NArg())
}
