//go:build linux

package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/elicitdesk/elicitdesk/internal/endpoint"
)

// holdingPerson is a person who, while hold is set, answers nothing: the
// question waits until its connection ends, which it reports on ended.
type holdingPerson struct {
	person
	hold  *atomic.Bool
	ended chan error
}

func (p holdingPerson) Elicit(ctx context.Context, q endpoint.Question) (json.RawMessage, error) {
	p.asked <- q
	if !p.hold.Load() {
		return p.answer, nil
	}
	<-ctx.Done()
	p.ended <- context.Cause(ctx)
	return nil, ctx.Err()
}

// sshBox is OpenSSH's server on 127.0.0.1 for one test, standing for a
// dev box: a throwaway user there, whose key the test holds.
type sshBox struct {
	port, user string
	uid        int
	key        string // the client's private key
	dir        string // the test's files, readable by the user
}

func startSSHBox(t testing.TB) *sshBox {
	t.Helper()
	for _, tool := range []string{"/usr/sbin/sshd", "ssh", "ssh-keygen", "runuser", "useradd", "usermod"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is missing: make test installs openssh-server and openssh-client", tool)
		}
	}
	cred := throwawayUser(t)
	u, err := user.LookupId(strconv.Itoa(int(cred.Uid)))
	if err != nil {
		t.Fatal(err)
	}
	// A password of "*" matches none, as "!" does, but leaves the account
	// unlocked: sshd lets no locked account in, even with a key.
	// A shell, for the command remote prints to remove a dropped forward's
	// socket.
	if out, err := exec.Command("usermod", "-p", "*", "-s", "/bin/sh", u.Username).CombinedOutput(); err != nil {
		t.Fatalf("usermod: %v: %s", err, out)
	}
	// Not t.TempDir: its parent lets no one else through.
	dir, err := os.MkdirTemp("", "elicitdesk-box-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	b := &sshBox{user: u.Username, uid: int(cred.Uid), dir: dir}
	b.key = filepath.Join(b.dir, "client_key")
	for _, key := range []string{filepath.Join(b.dir, "host_key"), b.key} {
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen: %v: %s", err, out)
		}
	}
	pub, _ := os.ReadFile(b.key + ".pub")
	os.WriteFile(filepath.Join(b.dir, "authorized_keys"), pub, 0o644)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, b.port, _ = net.SplitHostPort(ln.Addr().String())
	ln.Close()
	cfg := filepath.Join(b.dir, "sshd_config")
	os.WriteFile(cfg, fmt.Appendf(nil, "Port %s\nListenAddress 127.0.0.1\nHostKey %s\nAuthorizedKeysFile %s\nStrictModes no\n"+
		"PasswordAuthentication no\nKbdInteractiveAuthentication no\nUsePAM no\nAllowStreamLocalForwarding yes\nPidFile none\n",
		b.port, filepath.Join(b.dir, "host_key"), filepath.Join(b.dir, "authorized_keys")), 0o644)
	os.MkdirAll("/run/sshd", 0o755) // its privilege separation's empty root
	sshd := exec.Command("/usr/sbin/sshd", "-D", "-e", "-f", cfg)
	logFile, _ := os.Create(filepath.Join(b.dir, "sshd.log"))
	sshd.Stderr = logFile
	if err := sshd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		sshd.Process.Kill()
		sshd.Wait()
		if t.Failed() {
			log, _ := os.ReadFile(logFile.Name())
			t.Logf("sshd said:\n%s", log)
		}
	})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("tcp", "127.0.0.1:"+b.port); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("sshd did not listen within 10 s")
		}
	}
	// The user's runtime folder, as a login session makes it: where its
	// bridge looks for the desk.
	run := fmt.Sprintf("/run/user/%d", b.uid)
	os.MkdirAll(run, 0o700)
	os.Chown(run, b.uid, int(cred.Gid))
	t.Cleanup(func() { os.RemoveAll(run) })
	home := filepath.Join(b.dir, "home")
	os.Mkdir(home, 0o700)
	os.Chown(home, b.uid, int(cred.Gid))
	return b
}

// ssh is the ssh command line remote printed, with the options a test
// needs to reach the box (its port, key, no host check) before its
// destination, which comes first of its words not an option.
func (b *sshBox) ssh(printed []string) *exec.Cmd {
	dest := 1
	for strings.HasPrefix(printed[dest], "-") {
		dest++
		if printed[dest-1] != "-N" {
			dest++ // the option's value
		}
	}
	args := append([]string{}, printed[1:dest]...)
	args = append(args, "-p", b.port, "-i", b.key, "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
		"-o", "BatchMode=yes", "-o", "LogLevel=ERROR")
	return exec.Command("ssh", append(args, printed[dest:]...)...)
}

// forward starts the forward remote printed, and waits for its socket on
// the box.
func (b *sshBox) forward(t testing.TB, printed []string, remoteSock string) *exec.Cmd {
	t.Helper()
	cmd := b.ssh(printed)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("unix", remoteSock); err == nil {
			c.Close()
			return cmd
		}
		if time.Now().After(deadline) {
			t.Fatalf("no forward at %s within 10 s", remoteSock)
		}
	}
}

// remoteRig is a desktop's forwarded endpoint for a machine (OpenSSH's
// server on 127.0.0.1, as a second user), a person answering there, and
// what remote printed to forward it and to remove a dropped forward's
// socket.
type remoteRig struct {
	box             *sshBox
	bin             string // the build without windows, where the box's user may run it
	local, sock     string // the forwarded endpoint here, and its socket on the box
	printed, unlink []string
	p               holdingPerson
}

func newRemoteRig(t testing.TB) *remoteRig {
	t.Helper()
	bin := headlessAsRoot(t, "sshd and a second user")
	noApp(t)
	r := &remoteRig{box: startSSHBox(t)}
	r.bin = filepath.Join(r.box.dir, "elicitdesk")
	if err := copyFile(bin, r.bin); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(t.TempDir(), "servers.json")
	code, out, errs := run("remote", "-config", cfg, "-name", "loopback", "-uid", strconv.Itoa(r.box.uid), r.box.user+"@127.0.0.1")
	if code != 0 {
		t.Fatalf("remote: exit %d: %s", code, errs)
	}
	for line := range strings.Lines(out) {
		switch {
		case strings.HasPrefix(line, "  ssh -N "):
			r.printed = strings.Fields(line)
		case strings.HasPrefix(line, "  ssh ") && strings.Contains(line, " rm -f "):
			r.unlink = strings.Fields(line)
		}
	}
	if r.printed == nil || r.unlink == nil {
		t.Fatalf("remote printed no forward, or no way to remove a dropped one's socket:\n%s", out)
	}
	var err error
	if r.local, err = endpoint.ForwardedPath("loopback"); err != nil {
		t.Fatal(err)
	}
	r.sock = fmt.Sprintf("/run/user/%d/elicitdesk.sock", r.box.uid)
	if want := "-R " + r.sock + ":" + r.local; !strings.Contains(strings.Join(r.printed, " "), want) {
		t.Fatalf("remote printed %q, want it to forward %s", r.printed, want)
	}
	// The demo's input_required asks a colour, server-everything a name.
	r.p = holdingPerson{person: person{answer: json.RawMessage(`{"action":"accept","content":{"color":"green","name":"` + remoteName + `"}}`), asked: make(chan endpoint.Question, 4)},
		hold: new(atomic.Bool), ended: make(chan error, 4)}
	srv, err := endpoint.ListenForwarded(r.local, r.p, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return r
}

// remoteName is the name the person gives a real host's server on the
// box.
const remoteName = "Ada Lovelace 1815"

// TestRemoteRealHost is the whole check: the app runs on a
// virtual display here; `remote` has it serve the box and prints the
// forward, which ssh makes as printed; on the box (OpenSSH's server on
// 127.0.0.1, as a second user) Claude Code runs server-everything
// through the entry the build without windows' own `hosts route` wrote
// there, driven by the mock model API; the request window opens here,
// the person types a name, and Claude Code's reply on the box quotes it.
func TestRemoteRealHost(t *testing.T) {
	bin := headlessAsRoot(t, "sshd and a second user")
	node, entry := everything(t)
	h := realHosts[0]
	claude := filepath.Join(filepath.Dir(node), h.bin)
	if _, err := os.Stat(claude); err != nil {
		t.Fatalf("%s is not installed (make peers installs it from testdata/peers): %v", h.bin, err)
	}
	box := startSSHBox(t)
	remoteBin := filepath.Join(box.dir, "elicitdesk")
	if err := copyFile(bin, remoteBin); err != nil {
		t.Fatal(err)
	}
	// The peers, where the box's user can reach them whatever the
	// checkout's folders let others through: bound into the box's folder.
	modules := filepath.Join(box.dir, "node_modules")
	os.Mkdir(modules, 0o755)
	if out, err := exec.Command("mount", "--bind", peers(t), modules).CombinedOutput(); err != nil {
		t.Fatalf("mount --bind: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", modules).Run() })
	moved := func(path string) string { return filepath.Join(modules, strings.TrimPrefix(path, peers(t))) }
	node, entry, claude = moved(node), moved(entry), moved(claude)

	runtime := t.TempDir()
	os.Chmod(runtime, 0o700)
	d := startDesktopWith(t, "", false, "XDG_RUNTIME_DIR="+runtime)
	d.window("Servers") // the app listens
	out, err := d.run(d.bin, "remote", "-name", "loopback", "-uid", strconv.Itoa(box.uid), box.user+"@127.0.0.1")
	if err != nil || !strings.Contains(out, "It does now.") {
		t.Fatalf("remote with the app running: %v\n%s", err, out)
	}
	var printed []string
	for line := range strings.Lines(out) {
		if strings.HasPrefix(line, "  ssh -N ") {
			printed = strings.Fields(line)
		}
	}
	box.forward(t, printed, fmt.Sprintf("/run/user/%d/elicitdesk.sock", box.uid))

	home := filepath.Join(box.dir, "home")
	path, content := h.config(home, node, entry)
	if err := os.WriteFile(path, content, 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chown(path, box.uid, -1)
	asUser := []string{"runuser", "-u", box.user, "--", "env", "-i", "HOME=" + home, "PATH=" + filepath.Dir(node) + ":/usr/bin:/bin",
		"LANG=C.UTF-8", "SHELL=/bin/sh", "TERM=dumb"}
	if out, err := exec.Command(asUser[0], append(asUser[1:], remoteBin, "hosts", "route", h.name)...).CombinedOutput(); err != nil {
		t.Fatalf("hosts route on the box: %v: %s", err, out)
	}

	api := startMockModel(t)
	args := append(append(asUser[1:], h.env(api.url)...), claude)
	cmd := exec.Command(asUser[0], append(args, h.args(api.url, "Ask me for my name with the everything server's elicitation tool.")...)...)
	cmd.Dir = home
	stdout := d.typeIntoHost(t, h, cmd, api, remoteName)
	if !strings.Contains(stdout, remoteName) {
		t.Errorf("%s's reply on the box lacks the name typed here, %q", h.bin, remoteName)
	}
}

// caller is a host's call of the demo's input_required.
func caller(ctx context.Context, host *client.Client) func() (*mcp.CallToolResult, error) {
	return func() (*mcp.CallToolResult, error) {
		req := mcp.CallToolRequest{}
		req.Params.Name = "input_required"
		return host.CallTool(ctx, req)
	}
}

// TestRemoteOverSSH: a host on another machine (OpenSSH's server on
// 127.0.0.1, as a second user) runs its server through the build without
// windows; ssh forwards this desktop's endpoint there exactly as remote
// printed; the person is asked here and the host gets the answer, also
// through the entry `hosts route` wrote there, as at home. With
// the forward dropped while a request waits, the request ends here and the
// host gets an answer; forwarded again, the next request goes through.
func TestRemoteOverSSH(t *testing.T) {
	r := newRemoteRig(t)
	ssh := r.box.forward(t, r.printed, r.sock)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	call := caller(ctx, remoteHost(ctx, t, r.box, r.bin))
	res, err := call()
	if err != nil {
		t.Fatal(err)
	}
	if q := <-r.p.asked; q.Session.Server != "remote demo" || q.Session.Host.Name != "codex-mcp-client" {
		t.Errorf("the person was asked by %q for %+v", q.Session.Server, q.Session.Host)
	}
	if text := fmt.Sprint(res.Content); res.IsError || !strings.Contains(text, `"color":"green"`) {
		t.Errorf("the host on the box got %s, want the person's answer", text)
	}

	// hosts route on the box, as at home: Claude Code's entry there runs
	// its server through the bridge, and a host starting that entry as
	// written gets the person's answer.
	home := filepath.Join(r.box.dir, "home")
	claudeJSON := filepath.Join(home, ".claude.json")
	entry, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"demo": map[string]any{
		"type": "stdio", "command": r.bin, "args": []string{"demo-server"}, "env": map[string]string{}}}})
	if err := os.WriteFile(claudeJSON, entry, 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chown(claudeJSON, r.box.uid, -1)
	if out, err := exec.Command("runuser", "-u", r.box.user, "--", "env", "-i", "HOME="+home, "PATH=/usr/bin:/bin",
		r.bin, "hosts", "route", "claude-code").CombinedOutput(); err != nil {
		t.Fatalf("hosts route on the box: %v: %s", err, out)
	}
	var routed struct {
		MCPServers map[string]struct {
			Command string
			Args    []string
		}
	}
	data, _ := os.ReadFile(claudeJSON)
	if err := json.Unmarshal(data, &routed); err != nil {
		t.Fatal(err)
	}
	demo := routed.MCPServers["demo"]
	if demo.Command != r.bin || len(demo.Args) == 0 || demo.Args[0] != "bridge" {
		t.Fatalf("hosts route on the box wrote %s", data)
	}
	claude := bridgeHost(ctx, t, transport.NewStdio("runuser", nil, append([]string{"-u", r.box.user, "--", "env", "-i",
		"HOME=" + home, "PATH=/usr/bin:/bin", demo.Command}, demo.Args...)...))
	if res, err := caller(ctx, claude)(); err != nil || res.IsError || !strings.Contains(fmt.Sprint(res.Content), `"color":"green"`) {
		t.Errorf("through the entry route wrote on the box the host got %v, %v", res, err)
	}
	if q := <-r.p.asked; q.Session.Server != "demo" {
		t.Errorf("the routed entry asked as %q", q.Session.Server)
	}

	// The forward drops while a request waits.
	r.p.hold.Store(true)
	done := make(chan error, 1)
	go func() { _, err := call(); done <- err }()
	<-r.p.asked
	ssh.Process.Kill()
	ssh.Wait()
	select {
	case <-r.p.ended: // the request ended here: the bridge that asked is gone
	case <-time.After(30 * time.Second):
		t.Fatal("the request still waits here after its forward dropped")
	}
	select {
	case <-done: // the host got an answer, whichever
	case <-time.After(30 * time.Second):
		t.Fatal("the host still waits after the forward dropped")
	}

	// Forwarded again, as remote printed, once the socket the last left is
	// removed as it says.
	if out, err := r.box.ssh(r.unlink).CombinedOutput(); err != nil {
		t.Fatalf("removing the dropped forward's socket: %v: %s", err, out)
	}
	r.p.hold.Store(false)
	r.box.forward(t, r.printed, r.sock)
	if res, err := call(); err != nil || res.IsError || !strings.Contains(fmt.Sprint(res.Content), `"color":"green"`) {
		t.Errorf("after the forward came back the host got %v, %v", res, err)
	}
}

// BenchmarkRemoteAsk: a host's tool call whose server asks the person,
// answered at once, through the bridge without windows: "local" reaches
// the desktop's endpoint directly, "forwarded" from the box's user through
// ssh -R as remote prints it. The figure: forwarded within 100 ms
// of local (the difference of the medians of -count runs).
func BenchmarkRemoteAsk(b *testing.B) {
	r := newRemoteRig(b)
	ctx := context.Background()
	for _, way := range []string{"local", "forwarded"} {
		b.Run(way, func(b *testing.B) {
			var host *client.Client
			if way == "local" {
				host = bridgeHost(ctx, b, transport.NewStdio(r.bin, []string{"HOME=" + b.TempDir(), "PATH=/usr/bin:/bin", "ELICITDESK_ENDPOINT=" + r.local},
					"bridge", "-name=remote demo", "--", r.bin, "demo-server"))
			} else {
				// Each run of the bench forwards anew: the last one's socket
				// goes first, as remote says.
				if out, err := r.box.ssh(r.unlink).CombinedOutput(); err != nil {
					b.Fatalf("%v: %s", err, out)
				}
				r.box.forward(b, r.printed, r.sock)
				host = remoteHost(ctx, b, r.box, r.bin)
			}
			call := caller(ctx, host)
			for b.Loop() {
				if res, err := call(); err != nil || res.IsError {
					b.Fatal(res, err)
				}
				<-r.p.asked
			}
		})
	}
}

// remoteHost starts a host on the box, as its user with Codex's bare
// environment, whose server runs through the bridge without windows.
func remoteHost(ctx context.Context, t testing.TB, box *sshBox, bin string) *client.Client {
	t.Helper()
	return bridgeHost(ctx, t, transport.NewStdio("runuser", nil, "-u", box.user, "--", "env", "-i", "HOME="+filepath.Join(box.dir, "home"), "LANG=C.UTF-8",
		"PATH=/usr/bin:/bin", "SHELL=/bin/sh", "TERM=dumb", bin, "bridge", "-name=remote demo", "--", bin, "demo-server"))
}

// bridgeHost is a 2026-07-28 host, Codex by its name, over tr.
func bridgeHost(ctx context.Context, t testing.TB, tr *transport.Stdio) *client.Client {
	t.Helper()
	host := client.NewClient(tr, client.WithProtocolVersion(mcp.ProtocolVersion20260728))
	if err := host.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.ProtocolVersion20260728
	init.Params.ClientInfo = mcp.Implementation{Name: "codex-mcp-client"}
	if _, err := host.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	return host
}
