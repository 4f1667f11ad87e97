package cli

import (
	"cmp"
	"context"
	"errors"
	"os"
	"strconv"
	"strings"

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
	if code, done := parseMixed(fs, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() != 1 {
		return misuse(fs, stderr, "takes one machine, [USER@]HOST, not %d", fs.NArg())
	}
	dest := fs.Arg(0)
	user, host, hasUser := strings.Cut(dest, "@")
	if !hasUser {
		host, user = dest, ""
	}
	machine := strings.ToLower(cmp.Or(*name, host)) // host names ignore case, and so do some disks
	if !endpoint.MachineName(machine) {
		stderr.Linef("elicitdesk remote: %q cannot name the machine: give one of letters, digits, '.', '_' or '-' with -name", machine)
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
	if err := core.AddMachine(core.MachinesPath(*cfgPath), machine); err != nil {
		stderr.Linef("elicitdesk remote: %s", err)
		return 1
	}
	serving := "It will when it starts."
	if c, err := endpoint.Dial(context.Background(), endpoint.AppPath()); err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), askWait)
		err = c.Forward(ctx, machine)
		cancel()
		c.Close()
		if err != nil {
			stderr.Linef("elicitdesk remote: the running app cannot serve %s: %s", machine, err)
			return 1
		}
		serving = "It does now."
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
	if guessed {
		stdout.Linef("%s is a guess: your user id there taken to be %d, as here, and its runtime folder to exist (a login session makes it). If `id -u` there says otherwise, add -uid; or choose the path with -remote-path and set ELICITDESK_ENDPOINT to it there.", remote, *uid)
	}
	stdout.Linef("A forward that ended leaves its socket there, and sshd binds no other over it unless that machine's sshd_config says StreamLocalBindUnlink yes (ssh's own option of that name is for -L alone). Remove it first:\n")
	stdout.Linef("  ssh %s rm -f %s\n", shellWord(dest), shellWord(shellWord(remote))) // the shell there reads it once more
	stdout.Ours("sshd makes the socket there for you alone (StreamLocalBindMask 0177, its default). To stop answering the machine, block it in the Servers window, beside its sessions.\n")
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
