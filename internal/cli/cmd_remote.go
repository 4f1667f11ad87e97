package cli

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/core"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/servers/config"
)

// remoteSocket is where the build without windows looks on a Linux
// machine, for user uid, when ELICITDESK_ENDPOINT is unset: its XDG
// runtime directory's socket, as at home.
func remoteSocket(uid int) string {
	return "/run/user/" + strconv.Itoa(uid) + "/elicitdesk.sock"
}

// runRemote prints how to forward this desktop's Elicit Desk to another
// machine over SSH, and has the app serve that machine: a socket of its
// own, where the machine may only ask. It never runs ssh: the person keeps
// their keys, host checking and jump hosts, as mcpsnoop's remote does.
func runRemote(args []string, stdout, stderr terminal) int {
	fs := stderr.FlagSet("remote")
	cfgPath := config.Flag(fs)
	name := fs.String("name", "", "the machine's `name` in the windows (\"on NAME, for Claude Code\"); the host's by default")
	uid := fs.Int("uid", os.Getuid(), "your user `id` on the machine, for the socket's path there")
	remotePath := fs.String("remote-path", "", "the socket's `path` on the machine, where its bridge looks (ELICITDESK_ENDPOINT there)")
	list := fs.Bool("list", false, "list the machines served")
	forget := fs.Bool("forget", false, "stop serving the machine NAME, as Block in the Servers window does")
	if code, done := parseMixed(fs, args, stdout, stderr); done {
		return code
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	machines := core.MachinesPath(*cfgPath)
	switch {
	case *list && *forget:
		return misuse(fs, stderr, "-list or -forget, not both")
	case *list:
		if fs.NArg() != 0 {
			return misuse(fs, stderr, "-list takes no machine")
		}
		return listMachines(machines, stdout, stderr)
	case *forget:
		if fs.NArg() != 1 {
			return misuse(fs, stderr, "-forget takes one machine's name, not %d", fs.NArg())
		}
		return forgetMachine(machines, fs.Arg(0), stdout, stderr)
	case fs.NArg() != 1:
		return misuse(fs, stderr, "takes one machine, [USER@]HOST, not %d", fs.NArg())
	case given["uid"] && *remotePath != "":
		return misuse(fs, stderr, "-uid or -remote-path, not both: -uid says where the bridge looks by default, -remote-path elsewhere")
	case *uid < 0:
		return misuse(fs, stderr, "-uid %d is no user id", *uid)
	case *remotePath != "" && !strings.HasPrefix(*remotePath, "/"):
		return misuse(fs, stderr, "-remote-path %q is not a whole path from /", *remotePath)
	}
	dest := fs.Arg(0)
	user, host, hasUser := strings.Cut(dest, "@")
	if !hasUser {
		host, user = dest, ""
	}
	if hasUser && user == "" {
		return misuse(fs, stderr, "%q names no user before the @: give USER@HOST, or HOST alone", dest)
	}
	typed := cmp.Or(*name, host)
	machine := strings.ToLower(typed) // host names ignore case, and so do some disks
	if !endpoint.MachineName(machine) {
		stderr.Linef("elicitdesk remote: %q cannot name the machine: a name is letters, digits, '.', '_' and '-', not starting with '.'; give one with -name", typed)
		return 2
	}
	local, err := endpoint.ForwardedPath(machine)
	if errors.Is(err, endpoint.ErrNoUnixForward) {
		stderr.Linef("elicitdesk remote: %s. Run Elicit Desk on a Linux or macOS desktop to answer another machine's requests.", err)
		return 1
	}
	if err != nil {
		stderr.Linef("elicitdesk remote: %s", err)
		return 1
	}
	guessed := *remotePath == ""
	remote := *remotePath
	if guessed {
		remote = remoteSocket(*uid)
	}
	if err := core.AddMachine(machines, machine); err != nil {
		stderr.Linef("elicitdesk remote: %s", err)
		return 1
	}
	serving := "It will when it starts."
	var served string // where the running app serves it: its environment, not this command's, says
	running, err := askRunningApp(func(ctx context.Context, c *endpoint.Client) (err error) {
		served, err = c.Forward(ctx, machine)
		return err
	})
	if err != nil {
		stderr.Linef("elicitdesk remote: the running app cannot serve %s: %s", machine, err)
		return 1
	}
	if running {
		serving = "It does now."
	}
	if served != "" {
		local = served
	}

	stdout.Linef("Elicit Desk serves %s at %s: what comes there may only ask you, as a bridge does, and is shown \"on %s\". %s", machine, local, machine, serving)
	stdout.Ours("\nForward it for one session (ssh runs nothing there; the host's own sessions use the forward while it lasts):\n\n")
	stdout.Linef("  ssh -N -o ExitOnForwardFailure=yes -R %s %s", shellWord(remote+":"+local), shellWord(dest))
	stdout.Linef("\nOr for every ssh to %s, in ~/.ssh/config:\n", host)
	stdout.Linef("  Host %s", host)
	if hasUser {
		stdout.Linef("      User %s", user)
	}
	stdout.Linef("      RemoteForward %s %s", configWord(remote), configWord(local))
	stdout.Linef("\nOn %s, install Elicit Desk's build without windows (elicitdesk-headless) and route a host's servers through its bridge, as here:\n", host)
	stdout.Ours("  elicitdesk hosts route claude-code\n\n")
	switch {
	case guessed && !given["uid"]:
		stdout.Linef("%s is a guess: your user id there taken to be %d, as here, and its runtime folder to exist (a login session makes it). If `id -u` there says otherwise, add -uid; or choose the path with -remote-path.", remote, *uid)
	case guessed:
		stdout.Linef("%s is where the bridge there looks: your runtime folder there, which a login session makes.", remote)
	default:
		stdout.Linef("There, set ELICITDESK_ENDPOINT=%s where the bridge runs (in the env of each server entry a host runs through it: hosts pass their servers little else), and keep the socket's folder yours alone (mode 0700): the bridge refuses a socket others may reach.", remote)
	}
	stdout.Linef("A forward that ended leaves its socket there, and sshd binds no other over it unless that machine's sshd_config says StreamLocalBindUnlink yes (ssh's own option of that name is for -L alone). Remove it first:\n")
	stdout.Linef("  ssh %s rm -f %s\n", shellWord(dest), shellWord(shellWord(remote))) // the shell there reads it once more
	stdout.Ours("sshd makes the socket there for you alone (StreamLocalBindMask 0177, its default). To stop answering the machine, block it in the Servers window, beside its sessions, or run `elicitdesk remote -forget " + machine + "`.\n")
	return 0
}

// askRunningApp runs ask with the running app, within askWait, and
// reports whether one runs. An app that runs and cannot be asked (older
// than this command, or not answering) is an error.
func askRunningApp(ask func(context.Context, *endpoint.Client) error) (running bool, err error) {
	c, err := endpoint.Dial(context.Background(), endpoint.AppPath())
	if errors.Is(err, endpoint.ErrNotRunning) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), askWait)
	defer cancel()
	if err := ask(ctx, c); err != nil {
		if e := jsonrpc.As(err); e != nil && e.Code == jsonrpc.CodeMethodNotFound {
			return true, errors.New("the running Elicit Desk is older than this command: quit it and start it again")
		}
		return true, err
	}
	return true, nil
}

// listMachines prints the machines listed at path, which the app serves,
// each with the socket its forward reaches.
func listMachines(path string, stdout, stderr terminal) int {
	list, err := core.Machines(path)
	if err != nil {
		stderr.Linef("elicitdesk remote: %s", err)
		return 1
	}
	if len(list) == 0 {
		stdout.Linef("No machine is served: `elicitdesk remote [USER@]HOST` serves one.")
		return 0
	}
	table, flush := stdout.Table()
	table.Linef("MACHINE\tSOCKET")
	for _, m := range list {
		sock, _ := endpoint.ForwardedPath(m)
		table.Linef("%s\t%s", m, sock)
	}
	flush()
	return 0
}

// forgetMachine stops serving machine: through the running app, which
// ends its connections, else in the list at path alone.
func forgetMachine(path, typed string, stdout, stderr terminal) int {
	machine := strings.ToLower(typed)
	list, err := core.Machines(path)
	if err != nil {
		stderr.Linef("elicitdesk remote: %s", err)
		return 1
	}
	if !slices.Contains(list, machine) {
		stderr.Linef("elicitdesk remote: %q is not served (`elicitdesk remote -list` lists those that are)", typed)
		return 1
	}
	running, err := askRunningApp(func(ctx context.Context, c *endpoint.Client) error { return c.Unforward(ctx, machine) })
	if err != nil {
		stderr.Linef("elicitdesk remote: the running app cannot stop serving %s: %s", machine, err)
		return 1
	}
	if !running {
		if err := core.RemoveMachine(path, machine); err != nil {
			stderr.Linef("elicitdesk remote: %s", err)
			return 1
		}
	}
	stdout.Linef("Elicit Desk no longer serves %s: its connections, if any, ended, and no start serves it again until `elicitdesk remote` for it.", machine)
	return 0
}

// shellWord is s as one word of a POSIX shell's command line: as it is
// when it holds nothing the shell reads, else single-quoted (macOS's
// folder is "Application Support").
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// configWord is s as one argument in ~/.ssh/config: double-quoted when
// it holds a space.
func configWord(s string) string {
	if strings.ContainsAny(s, " \t") {
		return `"` + s + `"`
	}
	return s
}
