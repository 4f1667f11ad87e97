package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/config"
)

// peersEnv names the node_modules folder holding the real peers and hosts
// (the conformance suite, server-everything, Claude Code, Codex, Gemini CLI
// and Node 22); make test installs them from testdata/peers and sets it.
const peersEnv = "ELICITDESK_PEERS"

func peers(t testing.TB) string {
	t.Helper()
	dir := os.Getenv(peersEnv)
	if dir == "" {
		t.Skip(peersEnv + " is not set: make test installs the peers and sets it")
	}
	return dir
}

// asElicitdesk returns the path of a command that behaves as elicitdesk:
// this test binary, told so through the environment its children inherit.
func asElicitdesk(t testing.TB) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(cliEnv, "1")
	return exe
}

// elicitdeskEnv is the environment that has testdata/conformance/client.sh
// run elicitdesk: the app make test built (binEnv), as people run it,
// else this test binary, as asElicitdesk has it for one command's
// children rather than the whole test. A test in parallel with others may
// set no environment of its own. The built app also spares each of the
// suite's hundreds of commands the cost of -race.
func elicitdeskEnv(t testing.TB) []string {
	t.Helper()
	if bin := os.Getenv(binEnv); bin != "" {
		return []string{"ELICITDESK=" + bin}
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{"ELICITDESK=" + exe, cliEnv + "=1"}
}

// clientScenario is a client scenario of the conformance suite, run at
// spec (the suite's default when ""), with the checks that may end SKIPPED
// or WARNING, by name, and why.
type clientScenario struct {
	name, spec string
	explained  map[string]string
}

// id names the case: the scenario, at its revision when it has one.
func (sc clientScenario) id() string {
	if sc.spec == "" {
		return sc.name
	}
	return sc.name + "@" + sc.spec
}

// clientScenarios are the client scenarios testdata/conformance/client.sh
// maps: every one the suite lists that is neither auth/* nor an extension,
// some at more than one revision.
var clientScenarios = []clientScenario{
	{name: "initialize"},
	{name: "tools_call"},
	{name: "tools_call", spec: "2026-07-28"},
	{name: "elicitation-sep1034-client-defaults"},
	{name: "sep-2322-client-request-state", spec: "2026-07-28"},
	{name: "sse-retry"},
	{name: "request-metadata", spec: "2026-07-28", explained: map[string]string{
		"ClientDeclaresRootsCapability":    "Elicit Desk offers no roots, so declares none",
		"ClientDeclaresSamplingCapability": "Elicit Desk does no sampling, so declares none",
	}},
	{name: "http-standard-headers", spec: "2026-07-28", explained: map[string]string{
		"ClientMcpMethodHeader_initialize":                "a 2026-07-28 session starts with server/discover, not initialize",
		"ClientMcpMethodHeader_notifications_initialized": "a 2026-07-28 session has no initialize handshake",
		"ClientMcpMethodHeader_resources_list":            "the CLI has no command for resources",
		"ClientMcpMethodHeader_resources_read":            "the CLI has no command for resources",
		"ClientMcpNameHeader_resources_read":              "the CLI has no command for resources",
		"ClientMcpMethodHeader_prompts_list":              "the CLI has no command for prompts",
		"ClientMcpMethodHeader_prompts_get":               "the CLI has no command for prompts",
		"ClientMcpNameHeader_prompts_get":                 "the CLI has no command for prompts",
	}},
	{name: "http-custom-headers", spec: "2026-07-28"},
	{name: "http-invalid-tool-headers", spec: "2026-07-28"},
	{name: "json-schema-ref-no-deref", spec: "2026-07-28"},
	{name: "json-schema-2020-12-preservation", spec: "2025-11-25"},
	{name: "json-schema-2020-12-preservation", spec: "2026-07-28"},
}

// suiteCheck is one check of a scenario's checks.json.
type suiteCheck struct {
	ID, Name, Status, ErrorMessage string
}

// clientMode is a way the conformance suite's client scenarios reach the
// suite's server: with arg "", through the CLI's own client; with
// "bridge", through `elicitdesk bridge -url URL`, the CLI its host over
// stdio, so that the bridge's client (headers, _meta, sign-in, SSE
// resumption) is the one checked.
type clientMode struct{ name, arg string }

var clientModes = []clientMode{{"direct", ""}, {"bridged", "bridge"}}

// runClient runs the suite's client side with args against
// testdata/conformance/client.sh in mode, where no app can be reached:
// no display, no session bus, a HOME of its own. It returns what the
// suite printed.
func runClient(t *testing.T, dir string, mode clientMode, args ...string) (string, error) {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("..", "..", "testdata", "conformance", "client.sh"))
	if err != nil {
		t.Fatal(err)
	}
	command := "'" + script + "'" // the suite runs it through the shell
	if mode.arg != "" {
		command += " " + mode.arg
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := conformance(ctx, dir, append([]string{"client", "--command", command, "--timeout", "60000"}, args...)...)
	_, home := privateHome(t)
	cmd.Env = append(append(append(cmd.Env, "DISPLAY=", "WAYLAND_DISPLAY=", "DBUS_SESSION_BUS_ADDRESS="), home...), elicitdeskEnv(t)...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestConformance runs the official conformance suite's client scenarios
// against the CLI (testdata/conformance/client.sh maps each to commands),
// directly and through the bridge: every check must succeed, or end as
// its scenario's explanations allow, both ways.
func TestConformance(t *testing.T) {
	t.Parallel() // mostly waiting on the suite's servers
	dir := peers(t)
	t.Run("every scenario mapped", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		out, err := conformance(ctx, dir, "list").CombinedOutput()
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		_, client, _ := strings.Cut(string(out), "Client scenarios")
		client, _, _ = strings.Cut(client, "\n\n")
		listed := map[string][]string{} // the revisions of each
		for _, m := range regexp.MustCompile(`(?m)^\s*- (\S+) \[(.*)\]`).FindAllStringSubmatch(client, -1) {
			if name := m[1]; !strings.HasPrefix(name, "auth/") && m[2] != "extension" {
				listed[name] = strings.Split(m[2], ",")
			}
		}
		if len(listed) == 0 {
			t.Fatalf("the suite lists no client scenarios outside auth/* and the extensions:\n%s", out)
		}
		for name, specs := range listed {
			if !slices.ContainsFunc(clientScenarios, func(sc clientScenario) bool { return sc.name == name }) {
				t.Errorf("the suite has client scenario %s %v: map it in client.sh and list it here", name, specs)
			}
		}
		for _, sc := range clientScenarios {
			if specs, ok := listed[sc.name]; !ok || sc.spec != "" && !slices.Contains(specs, sc.spec) {
				t.Errorf("%s is not a client scenario the suite lists: %v", sc.id(), specs)
			}
		}
	})
	for _, mode := range clientModes {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			for _, sc := range clientScenarios {
				t.Run(sc.id(), func(t *testing.T) {
					t.Parallel() // each run has its own suite server, port and home
					checkClientScenario(t, dir, mode, sc)
				})
			}
			t.Cleanup(func() { // once every run ended
				t.Logf("%d scenarios in %v", len(clientScenarios), time.Since(start).Round(time.Millisecond))
			})
		})
	}
}

// checkClientScenario runs sc in mode and checks the checks it wrote.
func checkClientScenario(t *testing.T, dir string, mode clientMode, sc clientScenario) {
	results := t.TempDir()
	args := []string{"--scenario", sc.name, "-o", results}
	if sc.spec != "" {
		args = append(args, "--spec-version", sc.spec)
	}
	out, err := runClient(t, dir, mode, args...)
	if err != nil || !strings.Contains(out, "OVERALL: PASSED") {
		t.Fatalf("%v\n%s", err, out)
	}
	found, _ := filepath.Glob(filepath.Join(results, sc.name+"-*", "checks.json"))
	if len(found) != 1 {
		t.Fatalf("want one checks.json in %s, found %v", results, found)
	}
	b, err := os.ReadFile(found[0])
	var checks []suiteCheck
	if err == nil {
		err = json.Unmarshal(b, &checks)
	}
	if err != nil {
		t.Fatal(err)
	}
	passed := 0
	for _, c := range checks {
		switch why, ok := sc.explained[c.Name]; {
		case c.Status == "SUCCESS":
			passed++
		case c.Status == "INFO":
		case ok && (c.Status == "SKIPPED" || c.Status == "WARNING"):
			t.Logf("%s %s: %s", c.Status, c.Name, why)
		default:
			t.Errorf("%s %s (%s): %s", c.Status, c.Name, c.ID, c.ErrorMessage)
		}
	}
	if passed == 0 {
		t.Errorf("no check passed:\n%s", lastLines(out, 20))
	}
	t.Logf("%d checks passed", passed)
}

// TestServerEverything answers the 13-field trigger-elicitation-request of
// @modelcontextprotocol/server-everything over stdio and Streamable HTTP.
func TestServerEverything(t *testing.T) {
	node, entry := everything(t)
	answer := filepath.Join(t.TempDir(), "answer.json")
	os.WriteFile(answer, []byte(`{"name": "Ada Lovelace", "email": "ada@example.com", "integer": 7, "titledMultipleSelectEnum": ["fish-2", "fish-3"]}`), 0o600)
	call := []string{"call", "-tool", "trigger-elicitation-request", "-answer", answer}

	t.Run("stdio", func(t *testing.T) {
		checkEverything(t, append(call, "--", node, entry, "stdio"))
	})
	t.Run("streamable HTTP", func(t *testing.T) {
		url := startEverythingHTTP(t)
		checkEverything(t, append(call, "-url", url))
	})
}

// TestTypeScriptServerFailures: the TypeScript SDK answers a tool it
// lacks, and arguments its tool refuses, with a result that is an error,
// not a JSON-RPC error: call says which in its words and exits 1; a form
// the spec forbids is refused in words, not in a log line.
func TestTypeScriptServerFailures(t *testing.T) {
	node, entry := everything(t)
	everything := []string{node, entry, "stdio"}
	for _, tt := range []struct {
		name   string
		server []string
		args   []string
		stderr string
	}{
		{"a tool it lacks", everything, []string{"-tool", "nope"}, `the server has no tool "nope"; it has: echo, `},
		{"arguments it refuses", everything, []string{"-tool", "get-sum", "-args", `{"a":"x"}`}, "the tool failed (its result, printed above, is an error)"},
		{"a form it may not ask", []string{node, "testdata/nested-form.mjs"}, []string{"-tool", "nested"},
			"elicitation from nested-form refused, not asked: requested schema cannot be shown: #/properties/addr/type: nested objects"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Run(slices.Concat([]string{"call"}, tt.args, []string{"--"}, tt.server), nil, &stdout, &stderr)
			if code != 1 || !strings.Contains(stderr.String(), tt.stderr) || !strings.Contains(stdout.String(), `"isError": true`) {
				t.Errorf("exit %d, want 1 with %q on stderr and the result on stdout\nstdout: %s\nstderr: %s", code, tt.stderr, stdout.String(), stderr.String())
			}
		})
	}
}

func checkEverything(t *testing.T, args []string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := Run(args, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stderr.String(), `"properties":{"name":{"title":"String"`) {
		t.Errorf("the schema did not arrive in the server's order:\n%s", stderr.String())
	}
	echoed := everythingReceived(t, stdout.Bytes())
	want := map[string]any{
		"action": "accept", "name": "Ada Lovelace", "integer": 7.0, "number": 3.14,
		"firstLine": "It was a dark and stormy night.", "titledMultipleSelectEnum": []any{"fish-2", "fish-3"},
	}
	got := map[string]any{"action": echoed.Action}
	for k := range want {
		if k != "action" {
			got[k] = echoed.Content[k]
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the server received %v, want %v", got, want)
	}
}

// everything returns the pinned Node 22 and server-everything's entry
// point, to run as `node entry stdio|streamableHttp`.
func everything(t testing.TB) (node, entry string) {
	t.Helper()
	dir := peers(t)
	return filepath.Join(dir, ".bin", "node"), filepath.Join(dir, "@modelcontextprotocol", "server-everything", "dist", "index.js")
}

// everythingReceived reads, from the CallToolResult of server-everything's
// trigger-elicitation-request, the answer the server received: it echoes
// it after "Raw result:".
func everythingReceived(t testing.TB, result []byte) (echoed struct {
	Action  string
	Content map[string]any
}) {
	t.Helper()
	var res struct {
		Content []struct{ Text string } `json:"content"`
	}
	if err := json.Unmarshal(result, &res); err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Content {
		if raw, ok := strings.CutPrefix(strings.TrimSpace(c.Text), "Raw result:"); ok {
			if err := json.Unmarshal([]byte(raw), &echoed); err != nil {
				t.Fatal(err)
			}
			return echoed
		}
	}
	t.Fatalf("no raw result in %s", result)
	return echoed
}

// startEverythingHTTP starts server-everything's Streamable HTTP transport
// on a free loopback port and returns its URL once it answers.
func startEverythingHTTP(t testing.TB) string {
	t.Helper()
	node, entry := everything(t)
	addr := freeAddr(t)
	cmd := exec.Command(node, entry, "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT="+addr[strings.LastIndexByte(addr, ':')+1:])
	startListener(t, cmd, addr)
	return "http://" + addr + "/mcp"
}

// startListener starts cmd, which is to listen on addr, and returns once it
// does, with what cmd prints; it fails the test, with what cmd printed, if
// cmd exits or 30 s pass first. The test's end stops cmd.
func startListener(t testing.TB, cmd *exec.Cmd, addr string) *logBuffer {
	t.Helper()
	log := &logBuffer{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() { cmd.Process.Kill(); <-exited })
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		select {
		case <-exited:
			t.Fatalf("%s exited (%v) before listening on %s:\n%s", cmd.Path, cmd.ProcessState, addr, log)
		default:
		}
		if listening(addr, 100*time.Millisecond) {
			return log
		}
	}
	t.Fatalf("%s did not listen on %s:\n%s", cmd.Path, addr, log)
	return nil
}

// freeAddr returns a loopback address with a port nobody listens on now.
func freeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// listening dials addr until it answers or within has passed.
func listening(addr string, within time.Duration) bool {
	for deadline := time.Now().Add(within); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return true
		}
	}
	return false
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// lateBy is how long the person takes: longer than the 30 s mcp-go allows alone.
const lateBy = 61 * time.Second

// TestLateAnswerOverHTTP answers an elicitation 61 s after it arrived over
// Streamable HTTP, where mcp-go v1.2.1 alone gives up after 30 s: people
// take their time. Skipped with -short; make test runs it.
func TestLateAnswerOverHTTP(t *testing.T) {
	if testing.Short() {
		t.Skip("waits 61 s")
	}
	t.Parallel() // the others run while the person takes their time
	url := startEverythingHTTP(t)
	router := servers.NewRouter(servers.DefaultLimits, slog.Default())
	asked := make(chan *servers.Elicitation, 1)
	router.OnAsked(func(e *servers.Elicitation) { asked <- e })
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	conn, err := servers.Dial(ctx, config.Server{Name: "everything", URL: url, Transport: config.TransportHTTP}, router, slog.Default())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	done := make(chan error, 1)
	var result string
	go func() {
		res, err := conn.CallTool(ctx, "trigger-elicitation-request", map[string]any{})
		if err == nil {
			out, _ := json.Marshal(res)
			result = string(out)
		}
		done <- err
	}()
	var e *servers.Elicitation
	select {
	case e = <-asked:
	case err := <-done:
		t.Fatalf("the call ended without asking: %v", err)
	}
	time.Sleep(lateBy) // the person taking their time: the scenario, not a wait
	if err := e.Context().Err(); err != nil {
		t.Fatalf("the request went stale while the person was typing: %v", context.Cause(e.Context()))
	}
	if err := e.Reply(forms.Result{Action: forms.Accept, Content: json.RawMessage(`{"name":"Slow Sam"}`)}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(result, "Slow Sam") {
		t.Fatalf("the server did not get the late answer: %s", result)
	}
}
