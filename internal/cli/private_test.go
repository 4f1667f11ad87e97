package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/internal/testkit/proctest"
)

// askerEnv makes the test binary, re-run as a child, an MCP server over
// stdio that asks the person one elicitation of its own as soon as the
// handshake is done, and writes the answer to the file askerAnswerEnv
// names. askerNameEnv, if set, is which of what it says about itself is
// 7 MiB of U+2028, raw in a message under the 8 MiB limit: "name",
// "title" or "instructions".
const (
	askerEnv       = "ELICITDESK_TEST_ASKER"
	askerAnswerEnv = "ELICITDESK_TEST_ASKER_ANSWER"
	askerNameEnv   = "ELICITDESK_TEST_ASKER_NAME"
)

// serveAsker is the asking server: it speaks raw JSON-RPC, one message a
// line, as any stdio MCP server may.
func serveAsker() int {
	said := map[string]string{"name": "asker", "title": "Asker", "instructions": "Asks."}
	if huge := os.Getenv(askerNameEnv); huge != "" {
		said[huge] = strings.Repeat("\u2028", 7<<20/3)
	}
	out := json.NewEncoder(os.Stdout)
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 16<<20)
	for in.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal(in.Bytes(), &m) != nil {
			continue
		}
		switch {
		case m.Method == "initialize":
			// By hand: encoding/json would escape each U+2028 as six bytes.
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{},`+
				`"serverInfo":{"name":"%s","title":"%s","version":"1"},"instructions":"%s"}}`+"\n",
				m.ID, said["name"], said["title"], said["instructions"])
		case m.Method == "notifications/initialized":
			out.Encode(map[string]any{"jsonrpc": "2.0", "id": "ask", "method": "elicitation/create", "params": map[string]any{
				"message":         "What is your name?",
				"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}},
			}})
		case m.Method != "" && m.ID != nil:
			out.Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "no such method"}})
		case string(m.ID) == `"ask"`:
			// Whole or not at all: the test reads the file as soon as it exists.
			path := os.Getenv(askerAnswerEnv)
			if os.WriteFile(path+".part", m.Result, 0o600) == nil {
				os.Rename(path+".part", path)
			}
		}
	}
	return 0
}

// askers is a servers.json of asking servers, each named as given, with
// what names says of it huge (askerNameEnv), and the files their answers
// go to.
func askers(t *testing.T, names map[string]string) (config string, answers map[string]string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	answers = map[string]string{}
	servers := map[string]any{}
	for name, calls := range names {
		answers[name] = filepath.Join(dir, name+".json")
		servers[name] = map[string]any{"command": exe, "env": map[string]string{
			askerEnv: "1", askerAnswerEnv: answers[name], askerNameEnv: calls,
		}}
	}
	raw, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		t.Fatal(err)
	}
	return string(raw), answers
}

// answered waits for the answer a server got, written to path.
func answered(t *testing.T, path string) string {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(path); err == nil {
			return string(b)
		}
	}
	t.Fatalf("no answer reached the server (%s)", path)
	return ""
}

// TestOnlyTheCoreStartsTheWindows: another process of the person's, on the
// public endpoint, cannot be the windows: every method of the windows is
// refused in words, nothing it sends answers a request or changes
// History, and the request's window stays for the person, whose answer
// reaches the server.
func TestOnlyTheCoreStartsTheWindows(t *testing.T) {
	t.Parallel()
	config, answers := askers(t, map[string]string{"asker": ""})
	d := startDesktopWith(t, config, true)
	win := d.window("^asker: ")

	intruder, err := net.Dial("unix", filepath.Join(d.home, "xdg_runtime_dir", "elicitdesk.sock"))
	if err != nil {
		t.Fatalf("the endpoint: %v", err)
	}
	defer intruder.Close()
	intruder.SetDeadline(time.Now().Add(30 * time.Second))
	replies := bufio.NewScanner(intruder)
	replies.Buffer(nil, 1<<20)
	say := func(method, params string) string {
		fmt.Fprintf(intruder, `{"jsonrpc":"2.0","id":1,"method":%q,"params":%s}`+"\n", method, params)
		if !replies.Scan() {
			t.Fatalf("%s: no reply: %v", method, replies.Err())
		}
		return replies.Text()
	}
	say("endpoint/hello", fmt.Sprintf(`{"version":%d}`, endpoint.Version))
	for _, call := range []struct{ method, params string }{
		{"ui/attach", `{"token":"x"}`},
		{"ui/next", `{"token":"x","after":0}`},
		{"ui/answer", `{"id":"1","result":{"action":"accept","content":{"name":"mallory"}}}`},
		{"ui/history", `{}`},
		{"ui/quit", `{}`},
	} {
		if reply := say(call.method, call.params); !strings.Contains(reply, `"error"`) || !strings.Contains(reply, "windows") {
			t.Errorf("%s on the public endpoint: %s, want it refused in words", call.method, reply)
		}
	}
	if _, err := os.Stat(answers["asker"]); err == nil {
		t.Fatal("the server got an answer the person did not give")
	}
	d.keys(win, "Ada", "Return")
	if got := answered(t, answers["asker"]); !strings.Contains(got, `"accept"`) || !strings.Contains(got, "Ada") {
		t.Errorf("the server got %s, want the person's accept with Ada", got)
	}
	hist := d.history(func(hist string) bool { return strings.Contains(hist, "Ada") })
	if strings.Count(strings.TrimSpace(hist), "\n") != 0 || !strings.Contains(hist, "Ada") {
		t.Errorf("history:\n%s\nwant the one answer the person gave", hist)
	}
}

// TestWindowsWithoutEndpoint: with runtime and state folders that cannot
// be used (no endpoint, no History), the core still connects its servers
// and its windows still show their requests: the windows reach the core on
// their private connection, not the endpoint.
func TestWindowsWithoutEndpoint(t *testing.T) {
	t.Parallel()
	config, answers := askers(t, map[string]string{"asker": ""})
	unusable := filepath.Join(t.TempDir(), "not-a-folder")
	if err := os.WriteFile(unusable, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	d := startDesktopWith(t, config, true, "XDG_RUNTIME_DIR="+unusable, "XDG_DATA_HOME="+unusable, "XDG_STATE_HOME="+unusable)
	win := d.window("^asker: ")
	d.keys(win, "Grace", "Return")
	if got := answered(t, answers["asker"]); !strings.Contains(got, "Grace") {
		t.Errorf("the server got %s, want the person's answer", got)
	}
}

// TestHugeServerName: servers that say 7 MiB of U+2028 about themselves
// (a name, a title, instructions) hold back no other server's request,
// and get their own answered too.
func TestHugeServerName(t *testing.T) {
	t.Parallel()
	config, answers := askers(t, map[string]string{"plain": "", "bigname": "name", "bigtitle": "title", "biginstructions": "instructions"})
	d := startDesktopWith(t, config, true)
	var seen []string
	for i, name := range []string{"plain", "bigname", "bigtitle", "biginstructions"} {
		win := d.window("^"+name+": ", seen...)
		seen = append(seen, win)
		d.keys(win, "Alan", "Return")
		if got := answered(t, answers[name]); !strings.Contains(got, "Alan") {
			t.Errorf("%s got %s, want the person's answer", name, got)
		}
		// The next window's key hold counts GuardTime from this one's
		// closing as the app saw it, which a loaded machine's app may do
		// well after the server had the answer: the switch to the next
		// window waits for it, as a person's eyes would.
		d.waitLogged(`msg="request window closed"`, i+1)
	}
}

// TestQuitWithWindowsOpen: quitting (SIGTERM, as a session's end does)
// with a request's window open ends the core and its windows' process
// within 5 s, 50 times, the request answered cancel and in History as
// app-quit. The runs go in five lanes of ten in a row, each lane on a
// display of its own, side by side with the other tests: one lane of 50
// took 217 s, the longest of make test's tests.
func TestQuitWithWindowsOpen(t *testing.T) {
	t.Parallel()
	bin := os.Getenv(binEnv)
	if bin == "" {
		t.Skip(binEnv + " is not set: make test builds the app and sets it")
	}
	config, _ := askers(t, map[string]string{"asker": ""})
	const lanes, runs = 5, 10
	for lane := range lanes {
		t.Run(fmt.Sprintf("lane %d", lane+1), func(t *testing.T) {
			t.Parallel()
			quitWithWindowsOpen(t, bin, config, runs)
		})
	}
}

// quitWithWindowsOpen quits an app with a request's window open, runs
// times in a row on a display of its own.
func quitWithWindowsOpen(t *testing.T, bin, config string, runs int) {
	display, _ := startXvfb(t)
	const bound = 5 * time.Second
	for i := range runs {
		home, env := privateHome(t)
		d := &desktop{t: t, bin: bin, log: &logBuffer{}, home: home,
			env: append(append(os.Environ(), "DISPLAY="+display, "FYNE_PLATFORM=x11", "DBUS_SESSION_BUS_ADDRESS="), env...)}
		path := filepath.Join(home, "xdg_config_home", "elicitdesk", "servers.json")
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
		d.app = exec.Command(bin, "-v", "-background")
		d.app.Env, d.app.Stdout, d.app.Stderr = d.env, d.log, d.log
		if err := d.app.Start(); err != nil {
			t.Fatal(err)
		}
		d.window("^asker: ")
		windows := childrenOf(d.app.Process.Pid)
		d.app.Process.Signal(syscall.SIGTERM)
		ended := make(chan error, 1)
		go func() { ended <- d.app.Wait() }()
		select {
		case <-ended:
		case <-time.After(bound):
			d.app.Process.Kill()
			<-ended
			t.Fatalf("run %d: the core did not end within %v of quitting\n%s", i+1, bound, d.log)
		}
		for _, pid := range windows {
			if !proctest.Gone(pid) {
				t.Fatalf("run %d: process %d outlived the core", i+1, pid)
			}
		}
		if hist, err := d.run(bin, "history", "-json"); err != nil || !strings.Contains(hist, `"outcome":"app-quit"`) {
			t.Fatalf("run %d: History after the quit: %v\n%s", i+1, err, hist)
		}
	}
}
