//go:build linux

package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// realHost is a host people run, installed from npm into testdata/peers:
// where it keeps its servers, and how it runs one prompt against the mock
// model API at api.
type realHost struct {
	name   string // as `elicitdesk hosts` calls it
	bin    string // in node_modules/.bin
	config func(home, node, entry string) (path string, content []byte)
	args   func(api, prompt string) []string
	env    func(api string) []string
}

// realHosts run server-everything's elicitation from a prompt, each as its
// own docs say to run it without a person at the terminal.
var realHosts = []realHost{{
	name: "claude-code",
	bin:  "claude",
	config: func(home, node, entry string) (string, []byte) {
		// As `claude mcp add -s user` writes it, and as Claude Code writes
		// the whole file back on each start (JSON.stringify, two spaces):
		// the entry's bytes stay as they are.
		return filepath.Join(home, ".claude.json"), []byte(`{
  "mcpServers": {
    "everything": {
      "type": "stdio",
      "command": ` + jsonString(node) + `,
      "args": [
        ` + jsonString(entry) + `,
        "stdio"
      ],
      "env": {}
    }
  }
}`)
	},
	args: func(_, prompt string) []string {
		// -p prints the last reply; only the server's tools may run, and
		// without asking, as no one is at the terminal.
		return []string{"-p", prompt, "--allowedTools", "mcp__everything"}
	},
	env: func(api string) []string {
		return []string{"ANTHROPIC_BASE_URL=" + api, "ANTHROPIC_API_KEY=test", "DISABLE_TELEMETRY=1",
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1",
			"ENABLE_TOOL_SEARCH=false",         // the server's tools in the request itself, not behind a search
			"MCP_CONNECTION_NONBLOCKING=false"} // its first request waits for the server's tools: on a busy machine it did not have them yet
	},
}, {
	name: "codex",
	bin:  "codex",
	config: func(home, node, entry string) (string, []byte) {
		// required: since 0.147 Codex gives an optional server a second to
		// start, then runs the turn without its tools; on a loaded machine
		// server-everything's node took longer (its model was offered none).
		return filepath.Join(home, ".codex", "config.toml"), []byte("# Codex's servers\n[mcp_servers.everything]\ncommand = " +
			jsonString(node) + "\nargs = [" + jsonString(entry) + ", \"stdio\"]\nrequired = true\n")
	},
	args: func(api, prompt string) []string {
		return []string{"exec", "--skip-git-repo-check", "-m", "mock-model",
			"-c", `model_providers.mock={name="mock",base_url="` + api + `/v1",wire_api="responses",env_key="MOCK_API_KEY"}`,
			"-c", "model_provider=mock", prompt}
	},
	env: func(string) []string { return []string{"MOCK_API_KEY=test"} },
}, {
	name: "gemini",
	bin:  "gemini",
	config: func(home, node, entry string) (string, []byte) {
		// The sign-in Gemini CLI asks for once, kept where it keeps it.
		return filepath.Join(home, ".gemini", "settings.json"), []byte(`{
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "mcpServers": {
    "everything": {"command": ` + jsonString(node) + `, "args": [` + jsonString(entry) + `, "stdio"]}
  }
}
`)
	},
	args: func(_, prompt string) []string {
		// A model named is asked as is, with no classifier choosing one.
		return []string{"-p", prompt, "--yolo", "-m", "gemini-2.5-flash"}
	},
	env: func(api string) []string {
		return []string{"GOOGLE_GEMINI_BASE_URL=" + api, "GEMINI_API_KEY=test",
			"GEMINI_CLI_TRUST_WORKSPACE=true"} // else --yolo is refused in a folder not trusted yet
	},
}}

// jsonString is s as a JSON (and TOML basic) string literal.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestRealHosts runs each real host with server-everything routed through
// the bridge by `elicitdesk hosts route`, the app running on a virtual
// display: the mock model asks for the server's elicitation tool, the
// request window opens, a person types a name and accepts, and the host's
// last reply, which quotes the tool's result, carries the name. `hosts
// unroute` then takes back exactly what route wrote. Each host runs its
// servers with its own environment (Codex passes only HOME, LANG, PATH,
// SHELL and TERM), so the app runs where a session's does, in
// /run/user/UID, in a mount namespace of the test's own.
func TestRealHosts(t *testing.T) {
	// Not beside the others: Codex asks the model as its servers start, and
	// under load the bridged server's tools came too late for the turn.
	for _, h := range realHosts {
		t.Run(h.name, func(t *testing.T) {
			// What would skip the test is looked at here, as the run in the
			// mount namespace must pass.
			if os.Getenv(binEnv) == "" {
				t.Skip(binEnv + " is not set: make test builds the app and sets it")
			}
			node, entry := everything(t)
			hostBin := filepath.Join(filepath.Dir(node), h.bin)
			if _, err := os.Stat(hostBin); err != nil {
				t.Fatalf("%s is not installed in %s (make peers installs it from testdata/peers): %v", h.bin, peers(t), err)
			}
			runtime, inside := privateRun(t)
			if !inside {
				return
			}
			d := startDesktopWith(t, "", false, "XDG_RUNTIME_DIR="+runtime)
			d.window("Servers") // the app listens

			path, orig := h.config(d.home, node, entry)
			os.MkdirAll(filepath.Dir(path), 0o700)
			if err := os.WriteFile(path, orig, 0o600); err != nil {
				t.Fatal(err)
			}
			if out, err := d.run(d.bin, "hosts", "route", h.name); err != nil {
				t.Fatalf("route: %v\n%s", err, out)
			}
			routed, _ := os.ReadFile(path)

			api := startMockModel(t)
			cmd := exec.Command(hostBin, h.args(api.url, "Ask me for my name with the everything server's elicitation tool.")...)
			// A terminal's environment, less the display and runtime
			// directory: the bridge finds the app as a host's bare
			// environment leaves it to.
			cmd.Env = append([]string{"HOME=" + d.home, "PATH=" + filepath.Dir(node) + ":/usr/bin:/bin", "LANG=en_US.UTF-8",
				"SHELL=/bin/sh", "TERM=dumb"}, h.env(api.url)...)
			cmd.Dir = t.TempDir()
			start := time.Now()
			const name = "Ada Lovelace 1815"
			stdout := d.typeIntoHost(t, h, cmd, api, name)
			t.Logf("%s ran for %v", h.bin, time.Since(start).Round(time.Millisecond))
			if !strings.Contains(stdout, name) {
				t.Errorf("%s's output lacks the name typed, %q", h.bin, name)
			}

			// The host may write its config itself (Claude Code does on each
			// start): unroute must give back the host's file with exactly
			// the bytes route wrote taken back.
			left, _ := os.ReadFile(path)
			want, ok := takeBack(left, orig, routed)
			if !ok {
				t.Fatalf("%s rewrote the routed entry itself:\n%s", h.bin, left)
			}
			if out, err := d.run(d.bin, "hosts", "unroute", h.name); err != nil {
				t.Fatalf("unroute: %v\n%s", err, out)
			}
			if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
				t.Errorf("unroute did not give the config back:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// typeIntoHost runs cmd, host h asking the model at api for a name, and
// types name into the window its elicitation opens, as the person does;
// it returns what the host printed once it ended, within a minute of the
// answer.
func (d *desktop) typeIntoHost(t *testing.T, h realHost, cmd *exec.Cmd, api *mockModel, name string) string {
	t.Helper()
	var stdout, stderr logBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 10 * time.Second // its servers share its output, and may outlive it
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() { ended <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		if t.Failed() {
			t.Logf("%s printed:\n%s\n%s\nthe model API was asked:\n%s", h.bin, &stdout, &stderr, api.log)
		}
	})
	// "everything on devbox: …" for a host on another machine.
	w := d.hostWindow(ended, "^everything( on [^:]+)?(: | asks)")
	d.keys(w, name, "Return") // the name is the first field, and the only required one
	select {
	case err := <-ended:
		if err != nil {
			t.Fatalf("%s: %v", h.bin, err)
		}
	case <-time.After(time.Minute):
		t.Fatalf("%s did not end within a minute of the answer", h.bin)
	}
	return stdout.String()
}

// takeBack returns now, a host's config as the host left it, with the
// bytes route changed (routed against orig) put back as they were in orig:
// orig itself when the host did not write the file. It reports false when
// the routed bytes are not in now exactly once.
func takeBack(now, orig, routed []byte) ([]byte, bool) {
	p := 0
	for p < len(orig) && p < len(routed) && orig[p] == routed[p] {
		p++
	}
	s := 0
	for s < len(orig)-p && s < len(routed)-p && orig[len(orig)-1-s] == routed[len(routed)-1-s] {
		s++
	}
	was, is := orig[p:len(orig)-s], routed[p:len(routed)-s]
	if len(is) == 0 || bytes.Count(now, is) != 1 {
		return nil, false
	}
	return bytes.Replace(now, is, was, 1), true
}

// hostWindow is d.window for a request a host's tool call raises: it fails
// at once when the host ends first.
func (d *desktop) hostWindow(ended <-chan error, title string) string {
	d.t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		select {
		case err := <-ended:
			d.t.Fatalf("the host ended (%v) before a window %q appeared", err, title)
		default:
		}
		if out, _ := d.run("xdotool", "search", "--onlyvisible", "--name", title); out != "" {
			return strings.Fields(out)[0]
		}
	}
	d.t.Fatalf("no window %q appeared", title)
	return ""
}

// elicitationTool is server-everything's tool whose call raises the form.
const elicitationTool = "trigger-elicitation-request"

// mockModel is a model API of the test's own on loopback, speaking the
// wire format of each host (Anthropic's Messages API, OpenAI's Responses
// API, the Gemini API), streamed: its first reply in a conversation calls the elicitation
// tool, as the host names it among the tools it offers; the next quotes the
// tool's result. Anything else gets a short text reply.
type mockModel struct {
	url string
	log *logBuffer // each request, in short
}

func startMockModel(t *testing.T) *mockModel {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m := &mockModel{url: "http://" + ln.Addr().String(), log: &logBuffer{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/messages", m.messages)
	mux.HandleFunc("POST /v1/messages/count_tokens", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"input_tokens":1}`)
	})
	mux.HandleFunc("POST /v1/responses", m.responses)
	mux.HandleFunc("POST /v1beta/models/{call}", m.generate)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(m.log, "%s %s: not found\n", r.Method, r.URL)
		http.NotFound(w, r)
	})
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return m
}

// event writes one server-sent event.
func event(w http.ResponseWriter, name string, data any) {
	b, _ := json.Marshal(data)
	fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
}

// messages answers Anthropic's Messages API, as Claude Code asks it.
func (m *mockModel) messages(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Stream bool
		Tools  []struct{ Name string }
		// Messages' content is a string or blocks; a tool's result is a
		// block of the user's, its content a string or text blocks.
		Messages []struct {
			Role    string
			Content json.RawMessage
		}
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	tool := ""
	for _, t := range req.Tools {
		if strings.HasSuffix(t.Name, "__"+elicitationTool) {
			tool = t.Name
		}
	}
	result, answered := "", false
	if n := len(req.Messages); n > 0 && req.Messages[n-1].Role == "user" {
		var blocks []struct {
			Type    string
			Content json.RawMessage
		}
		json.Unmarshal(req.Messages[n-1].Content, &blocks)
		for _, b := range blocks {
			if b.Type == "tool_result" {
				result, answered = result+texts(b.Content), true
			}
		}
	}
	fmt.Fprintf(m.log, "messages: stream %v, tool %q, tool result %v\n", req.Stream, tool, answered)
	block := map[string]any{"type": "text", "text": ""}
	delta := map[string]any{"type": "text_delta", "text": "ok"}
	stop := "end_turn"
	switch {
	case answered:
		delta["text"] = "The server said: " + result
	case tool != "":
		block = map[string]any{"type": "tool_use", "id": "toolu_1", "name": tool, "input": map[string]any{}}
		delta = map[string]any{"type": "input_json_delta", "partial_json": "{}"}
		stop = "tool_use"
	}
	msg := map[string]any{"id": "msg_1", "type": "message", "role": "assistant", "model": "mock", "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": map[string]int{"input_tokens": 1, "output_tokens": 1}}
	if !req.Stream {
		if block["type"] == "text" {
			block["text"] = delta["text"]
		}
		msg["content"], msg["stop_reason"] = []any{block}, stop
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(msg)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	event(w, "message_start", map[string]any{"type": "message_start", "message": msg})
	event(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": block})
	event(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": delta})
	event(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	event(w, "message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]int{"output_tokens": 1}})
	event(w, "message_stop", map[string]any{"type": "message_stop"})
}

// responses answers OpenAI's Responses API, as Codex asks it. Codex
// offers a server's tools in a namespace of its own, with "-" in their
// names made "_".
func (m *mockModel) responses(w http.ResponseWriter, r *http.Request) {
	type tool struct {
		Type, Name string
		Tools      []struct{ Name string }
	}
	var req struct {
		Tools []tool
		Input []struct {
			Type   string
			Output json.RawMessage
		}
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	want := strings.ReplaceAll(elicitationTool, "-", "_")
	var call map[string]any
	for _, t := range req.Tools {
		if t.Type == "function" && strings.HasSuffix(t.Name, want) {
			call = map[string]any{"name": t.Name}
		}
		for _, in := range t.Tools {
			if in.Name == want {
				call = map[string]any{"name": in.Name, "namespace": t.Name}
			}
		}
	}
	result, answered := "", false
	for _, in := range req.Input {
		if in.Type == "function_call_output" {
			result, answered = result+texts(in.Output), true
		}
	}
	fmt.Fprintf(m.log, "responses: tool %v, tool result %v\n", call, answered)
	item := map[string]any{"type": "message", "role": "assistant", "id": "msg_1",
		"content": []any{map[string]any{"type": "output_text", "text": "ok"}}}
	switch {
	case answered:
		item["content"] = []any{map[string]any{"type": "output_text", "text": "The server said: " + result}}
	case call != nil:
		item = call
		item["type"], item["id"], item["call_id"], item["arguments"] = "function_call", "fc_1", "call_1", "{}"
	}
	w.Header().Set("Content-Type", "text/event-stream")
	event(w, "response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": "resp_1"}})
	event(w, "response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	event(w, "response.completed", map[string]any{"type": "response.completed", "response": map[string]any{"id": "resp_1",
		"usage": map[string]any{"input_tokens": 1, "output_tokens": 1, "total_tokens": 2}}})
}

// generate answers the Gemini API, as Gemini CLI asks it: MODEL:
// streamGenerateContent for the conversation, MODEL:generateContent for
// its side questions, which get a short text.
func (m *mockModel) generate(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Tools    []struct{ FunctionDeclarations []struct{ Name string } }
		Contents []struct {
			Role  string
			Parts []struct {
				FunctionResponse *struct{ Response json.RawMessage }
			}
		}
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	tool := ""
	for _, t := range req.Tools {
		for _, f := range t.FunctionDeclarations {
			if strings.HasSuffix(f.Name, "_"+elicitationTool) {
				tool = f.Name
			}
		}
	}
	result, answered := "", false
	if n := len(req.Contents); n > 0 {
		for _, p := range req.Contents[n-1].Parts {
			if p.FunctionResponse != nil {
				result, answered = result+string(p.FunctionResponse.Response), true
			}
		}
	}
	stream := strings.HasSuffix(r.PathValue("call"), ":streamGenerateContent")
	fmt.Fprintf(m.log, "%s: tool %q, tool result %v\n", r.PathValue("call"), tool, answered)
	part := map[string]any{"text": "ok"}
	switch {
	case answered:
		part["text"] = "The server said: " + result
	case stream && tool != "":
		part = map[string]any{"functionCall": map[string]any{"name": tool, "args": map[string]any{}}}
	}
	res := map[string]any{"candidates": []any{map[string]any{"index": 0, "finishReason": "STOP",
		"content": map[string]any{"role": "model", "parts": []any{part}}}},
		"usageMetadata": map[string]int{"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2}}
	b, _ := json.Marshal(res)
	if !stream {
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprintf(w, "data: %s\n\n", b)
}

// texts is the text in a tool's result as a host sends it back: a string,
// or content parts with text.
func texts(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct{ Text string }
	json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}
