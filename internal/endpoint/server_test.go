package endpoint

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
	"github.com/elicitdesk/elicitdesk/servers/link"
)

// helloLine is a client's handshake, as sent on the wire.
func helloLine() string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":0,"method":"endpoint/hello","params":{"version":%d}}`, Version)
}

// raw is a connection that speaks the protocol by hand.
type raw struct {
	t *testing.T
	c net.Conn
	r *bufio.Reader
}

// dialRaw connects to path without a handshake.
func dialRaw(t *testing.T, path string) *raw {
	t.Helper()
	c, err := dialAt(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &raw{t: t, c: c, r: bufio.NewReader(c)}
}

// send writes lines.
func (r *raw) send(lines ...string) {
	r.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(r.c, l+"\n"); err != nil {
			r.t.Fatal(err)
		}
	}
}

// response is a message the server sends, as the tests read it.
type response struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *jsonrpc.Error  `json:"error"`
}

// next reads the next message, or fails.
func (r *raw) next() response {
	r.t.Helper()
	r.c.SetReadDeadline(time.Now().Add(10 * time.Second))
	line, err := r.r.ReadBytes('\n')
	if err != nil {
		r.t.Fatalf("no message: %v (read %q)", err, line)
	}
	var m response
	if err := json.Unmarshal(line, &m); err != nil {
		r.t.Fatalf("%q: %v", line, err)
	}
	return m
}

// hungUp fails unless the server closes the connection next.
func (r *raw) hungUp() {
	r.t.Helper()
	r.c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if line, err := r.r.ReadBytes('\n'); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		r.t.Fatalf("the server did not hang up: read %q %v", line, err)
	}
}

// closeWrite stops sending: a half-close, which only a socket has.
func (r *raw) closeWrite() {
	r.t.Helper()
	if err := r.c.(interface{ CloseWrite() error }).CloseWrite(); err != nil {
		r.t.Fatal(err)
	}
}

// callLine is a tools/call request.
func callLine(id int, tool string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"server":"demo","tool":%q}}`, id, tool)
}

// TestProtocolErrors sends what a peer must not and checks the error it
// gets and whether the connection stays.
func TestProtocolErrors(t *testing.T) {
	tests := []struct {
		name  string
		send  []string
		code  int
		stays bool
	}{
		{"garbage", []string{"{not json"}, jsonrpc.CodeParseError, false},
		{"garbage after the handshake", []string{helloLine(), "\x00\x01binary"}, jsonrpc.CodeParseError, false},
		{"no handshake", []string{callLine(1, "echo")}, jsonrpc.CodeInvalidRequest, false},
		{"wrong version", []string{`{"jsonrpc":"2.0","id":0,"method":"endpoint/hello","params":{"version":99}}`}, codeVersion, false},
		{"oversized", []string{helloLine(), `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"server":"` + strings.Repeat("x", MaxMessage) + `"}}`}, codeTooLarge, false},
		{"notification first", []string{`{"jsonrpc":"2.0","method":"endpoint/hello","params":{"version":1}}`}, jsonrpc.CodeInvalidRequest, false},
		{"oversized before the handshake", []string{`{"jsonrpc":"2.0","id":0,"method":"endpoint/hello","params":{"pad":"` + strings.Repeat("x", MaxMessage) + `"}}`}, codeTooLarge, false},
		{"unknown method", []string{helloLine(), `{"jsonrpc":"2.0","id":1,"method":"app/quit"}`}, jsonrpc.CodeMethodNotFound, true},
		{"bad params", []string{helloLine(), `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"tool":7}}`}, jsonrpc.CodeInvalidParams, true},
		{"elicit without a session", []string{helloLine(), `{"jsonrpc":"2.0","id":1,"method":"bridge/elicit","params":{"params":{"message":"hi"}}}`}, jsonrpc.CodeInvalidParams, true},
		{"elicit without params", []string{helloLine(), `{"jsonrpc":"2.0","id":1,"method":"bridge/elicit","params":{"session":{"id":"1","server":"echo"}}}`}, jsonrpc.CodeInvalidParams, true},
		{"session without an id", []string{helloLine(), `{"jsonrpc":"2.0","id":1,"method":"bridge/session","params":{"server":"s"}}`}, jsonrpc.CodeInvalidParams, true},
		{"session whose id holds a space", []string{helloLine(), `{"jsonrpc":"2.0","id":1,"method":"bridge/session","params":{"id":"a b","server":"s"}}`}, jsonrpc.CodeInvalidParams, true},
		{"session whose id is too long", []string{helloLine(), `{"jsonrpc":"2.0","id":1,"method":"bridge/session","params":{"id":"` + strings.Repeat("a", 65) + `","server":"s"}}`}, jsonrpc.CodeInvalidParams, true},
		{"session of another shape", []string{helloLine(), `{"jsonrpc":"2.0","id":1,"method":"bridge/session","params":[1]}`}, jsonrpc.CodeInvalidParams, true},
		{"unreadable complete, then a request", []string{helloLine(), `{"jsonrpc":"2.0","method":"bridge/complete","params":7}`, callLine(1, "fail")}, jsonrpc.CodeServer, true},
		{"traffic after no number", []string{helloLine(), `{"jsonrpc":"2.0","id":1,"method":"traffic/list","params":{"after":"x"}}`}, jsonrpc.CodeInvalidParams, true},
		{"second handshake", []string{helloLine(), helloLine()}, jsonrpc.CodeInvalidRequest, true},
		{"failing tool", []string{helloLine(), callLine(1, "fail")}, jsonrpc.CodeServer, true},
	}
	_, path, _ := startServer(t, defaultLimits())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := dialRaw(t, path)
			go func() { // the oversized line is more than a socket buffer holds
				for _, l := range tt.send {
					io.WriteString(r.c, l+"\n")
				}
			}()
			if tt.send[0] == helloLine() {
				if m := r.next(); m.Error != nil {
					t.Fatalf("handshake: %v", m.Error)
				}
			}
			m := r.next()
			if m.Error == nil || m.Error.Code != tt.code {
				t.Fatalf("got %+v, want error code %d", m, tt.code)
			}
			if m.Error.Message == "" {
				t.Error("the error says nothing")
			}
			if !tt.stays {
				r.hungUp()
				return
			}
			r.send(`{"jsonrpc":"2.0","id":"next","method":"app/front"}`)
			if m := r.next(); m.Error != nil || string(m.ID) != `"next"` {
				t.Errorf("after the error: %+v", m)
			}
		})
	}
}

// TestClient calls through Client: results, the app's errors as sent (a
// surface neutralises them when it shows them), and bringing the app
// forward.
func TestClient(t *testing.T) {
	_, path, h := startServer(t, defaultLimits())
	c, err := Dial(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	res, err := c.CallTool(t.Context(), ToolCall{Server: "demo", Tool: "echo", Arguments: map[string]any{"n": 1.0}})
	if err != nil || string(res) != `{"server":"demo","tool":"echo","arguments":{"n":1}}` {
		t.Errorf("echo = %s, %v", res, err)
	}
	_, err = c.CallTool(t.Context(), ToolCall{Server: "demo", Tool: "fail"})
	var e *jsonrpc.Error
	if !errors.As(err, &e) || e.Code != jsonrpc.CodeServer || e.Message != "no such tool \u202egnp.exe\x1b[2J" {
		t.Errorf("fail = %q, want the app's message as sent: the surface that shows it neutralises it", err)
	}
	if _, err = c.CallTool(t.Context(), ToolCall{Server: "demo", Tool: "huge"}); !errors.As(err, &e) || e.Code != codeTooLarge {
		t.Errorf("huge = %v, want the app to say its answer is over MaxMessage", err)
	}
	if err := c.Front(t.Context()); err != nil {
		t.Fatal(err)
	}
	await(t, h.fronts, "Front")
	want, _ := h.Servers(t.Context(), ServersQuery{})
	if got, err := c.Servers(t.Context(), ServersQuery{}); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Servers = %+v, %v; want %+v", got, err, want)
	}
}

// TestTraffic lists what the app's connections passed, and follows it: a
// query that waits is answered with the next entry.
func TestTraffic(t *testing.T) {
	_, path, h := startServer(t, defaultLimits())
	c, err := Dial(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	toServer, fromDesk := io.Pipe()
	defer toServer.Close()
	go io.Copy(io.Discard, toServer)
	conn := h.traffic.Tap("demo", link.NewLines(strings.NewReader(""), fromDesk))
	say := func(raw string) {
		t.Helper()
		m, err := link.Parse([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		if err := conn.Write(t.Context(), m); err != nil {
			t.Fatal(err)
		}
	}
	say(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	list, err := c.Traffic(t.Context(), TrafficQuery{})
	if err != nil || len(list) != 1 || list[0].Method != "tools/list" || list[0].Server != "demo" {
		t.Fatalf("Traffic = %+v, %v", list, err)
	}
	followed := make(chan []traffic.Entry, 1)
	go func() {
		list, err := c.Traffic(t.Context(), TrafficQuery{After: list[0].Seq, Wait: true})
		if err != nil {
			t.Error(err)
		}
		followed <- list
	}()
	say(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if got := <-followed; len(got) != 1 || got[0].Method != "notifications/initialized" {
		t.Errorf("followed %+v", got)
	}
}

// TestDialWithoutApp: no endpoint is "not running".
func TestDialWithoutApp(t *testing.T) {
	if _, err := Dial(t.Context(), socketPath(t)); !errors.Is(err, ErrNotRunning) {
		t.Errorf("no endpoint: %v", err)
	}
}

// TestConcurrentRequests has requests of one connection in flight at
// once: a slow one does not hold up the others, and each answer finds its
// caller.
func TestConcurrentRequests(t *testing.T) {
	_, path, h := startServer(t, defaultLimits())
	c, err := Dial(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	slow := make(chan error, 1)
	go func() {
		_, err := c.CallTool(t.Context(), ToolCall{Server: "demo", Tool: "wait"})
		slow <- err
	}()
	await(t, h.started, "the slow call")
	var wg sync.WaitGroup
	for n := range 20 {
		wg.Go(func() {
			want := fmt.Sprintf("s%d", n)
			res, err := c.CallTool(t.Context(), ToolCall{Server: want, Tool: "echo"})
			var got ToolCall
			if err == nil {
				err = json.Unmarshal(res, &got)
			}
			if err != nil || got.Server != want {
				t.Errorf("call %d = %s, %v", n, res, err)
			}
		})
	}
	wg.Wait()
	close(h.release)
	if err := await(t, slow, "the slow call's answer"); err != nil {
		t.Errorf("slow call: %v", err)
	}
}

// TestHangUps checks how a client's leaving ends its call: stopping to
// send (half-close), hanging up or cancelling cancels the call in the
// app. A cancelled call gets no answer; the connection serves on.
func TestHangUps(t *testing.T) {
	tests := []struct {
		name  string
		leave func(r *raw)
	}{
		{"half-close", func(r *raw) { r.closeWrite() }},
		{"full close", func(r *raw) { r.c.Close() }},
		{"cancelled notification", func(r *raw) {
			r.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "half-close" && runtime.GOOS == "windows" {
				t.Skip("a named pipe has no half-close")
			}
			_, path, h := startServer(t, defaultLimits())
			r := dialRaw(t, path)
			r.send(helloLine(), callLine(1, "wait"))
			r.next()
			await(t, h.started, "the call")
			tt.leave(r)
			if err := await(t, h.ended, "the end of the call"); !errors.Is(err, context.Canceled) {
				t.Errorf("the call ended with %v, want it cancelled", err)
			}
			if tt.name == "cancelled notification" {
				r.send(`{"jsonrpc":"2.0","id":2,"method":"app/front"}`)
				if m := r.next(); m.Error != nil || string(m.ID) != "2" {
					t.Errorf("after the cancel: %+v, want app/front's answer and none for the cancelled call", m)
				}
			}
		})
	}
}

// TestClientCancels checks that a Client whose context ends tells the app,
// which cancels the call while the connection stays usable.
func TestClientCancels(t *testing.T) {
	_, path, h := startServer(t, defaultLimits())
	c, err := Dial(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := c.CallTool(ctx, ToolCall{Server: "demo", Tool: "wait"})
		done <- err
	}()
	await(t, h.started, "the call")
	cancel()
	if err := await(t, done, "CallTool's return"); !errors.Is(err, context.Canceled) {
		t.Errorf("CallTool = %v", err)
	}
	if err := await(t, h.ended, "the end of the call in the app"); !errors.Is(err, context.Canceled) {
		t.Errorf("the app's call ended with %v", err)
	}
	if err := c.Front(t.Context()); err != nil {
		t.Errorf("the connection after a cancel: %v", err)
	}
}

// TestSilentConnections checks that connections that say nothing are
// closed after the first-message deadline and free their slot.
func TestSilentConnections(t *testing.T) {
	_, path, _ := startServer(t, limits{conns: 2, firstMessage: 200 * time.Millisecond})
	idle := []*raw{dialRaw(t, path), dialRaw(t, path)}
	c, err := Dial(t.Context(), path) // waits in the backlog for a slot
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Front(t.Context()); err != nil {
		t.Fatal(err)
	}
	for _, r := range idle {
		r.hungUp()
	}
}

// TestNoGoroutineOutlivesClose closes a server with connections in every
// state and checks that all its goroutines have ended.
func TestNoGoroutineOutlivesClose(t *testing.T) {
	// A process's first pipe starts go-winio's reader of I/O completions,
	// which lives as long as the process: let that happen before counting.
	warm := socketPath(t)
	w, err := Listen(t.Context(), warm, newHandler(), quiet())
	if err != nil {
		t.Fatal(err)
	}
	if err := askFront(t.Context(), warm); err != nil {
		t.Fatal(err)
	}
	w.Close()
	before := runtime.NumGoroutine()
	path, h := socketPath(t), newHandler()
	s, err := listen(t.Context(), path, h, quiet(), defaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	dialRaw(t, path) // silent
	busy := dialRaw(t, path)
	busy.send(helloLine(), callLine(1, "wait"))
	half := dialRaw(t, path)
	half.send(helloLine(), callLine(1, "wait"))
	await(t, h.started, "a call")
	await(t, h.started, "a call")
	if runtime.GOOS != "windows" { // a named pipe has no half-close
		half.closeWrite()
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := await(t, h.ended, "the calls' end"); !errors.Is(err, context.Canceled) {
			t.Errorf("a call ended with %v, want it cancelled by Close", err)
		}
	}
	// Goroutines that Close waited for are gone; the runtime may take a
	// moment to count them out.
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines before, %d after Close:\n%s", before, n, buf[:runtime.Stack(buf, true)])
	}
}

// TestCallToAnAppThatStopsReading: the app answers the handshake, then
// reads nothing more. A call with large arguments fills the socket's
// buffers, and still returns when its context ends.
func TestCallToAnAppThatStopsReading(t *testing.T) {
	path := socketPath(t)
	ln, err := listenAt(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		var hello response
		line, _ := bufio.NewReader(c).ReadBytes('\n')
		json.Unmarshal(line, &hello)
		io.WriteString(c, `{"jsonrpc":"2.0","id":`+string(hello.ID)+`,"result":{"version":1}}`+"\n")
		<-t.Context().Done() // and read nothing more
	}()
	c, err := Dial(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tooBig := map[string]any{"blob": strings.Repeat("<", MaxMessage)}
	if _, err := c.CallTool(t.Context(), ToolCall{Server: "demo", Tool: "echo", Arguments: tooBig}); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("CallTool over MaxMessage = %v, want it refused before sending", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	big := map[string]any{"blob": strings.Repeat("<", MaxMessage-1024)} // sent as it is, not as \u003c
	if _, err := c.CallTool(ctx, ToolCall{Server: "demo", Tool: "echo", Arguments: big}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("CallTool = %v, want the context's deadline", err)
	}
}

// TestUIMethodsRefused: a process of the user that calls the windows'
// methods on the public endpoint (testdata/ui-methods.jsonl: attaching,
// reading what is pending, answering, pruning History) is refused in
// words, each time, and the connection serves on.
func TestUIMethodsRefused(t *testing.T) {
	data, err := os.ReadFile("testdata/ui-methods.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	_, path, h := startServer(t, defaultLimits())
	r := dialRaw(t, path)
	r.send(helloLine())
	r.next()
	id := 0
	for line := range strings.Lines(string(data)) {
		var call struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal([]byte(line), &call); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		id++
		req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": call.Method, "params": call.Params})
		r.send(string(req))
		m := r.next()
		if string(m.ID) != fmt.Sprint(id) || m.Error == nil || m.Error.Code != jsonrpc.CodeMethodNotFound {
			t.Errorf("%s: got %+v, want a refusal", call.Method, m)
			continue
		}
		if !strings.Contains(m.Error.Message, "windows' process") || !strings.Contains(m.Error.Message, "private connection") {
			t.Errorf("%s: refused with %q, which does not say where the method is served", call.Method, m.Error.Message)
		}
	}
	r.send(`{"jsonrpc":"2.0","id":"front","method":"app/front"}`)
	if m := r.next(); m.Error != nil || string(m.ID) != `"front"` {
		t.Errorf("after the refusals: %+v", m)
	}
	await(t, h.fronts, "Front")
}

// TestReleasesDiffer: a peer of another protocol (a bridge on another
// machine, of another release) is told which release each side is and
// the protocol each speaks, the peer's words through untrusted.
func TestReleasesDiffer(t *testing.T) {
	_, path, _ := startServer(t, defaultLimits())
	r := dialRaw(t, path)
	r.send(`{"jsonrpc":"2.0","id":0,"method":"endpoint/hello","params":{"version":99,"release":"9.9.9\u202e"}}`)
	m := r.next()
	want := fmt.Sprintf("the app is Elicit Desk %s (endpoint protocol %d) and this elicitdesk is 9.9.9⟨U+202E⟩ (protocol 99): use the same release on both", release(), Version)
	if m.Error == nil || m.Error.Code != codeVersion || m.Error.Message != want {
		t.Errorf("an old bridge was told %+v, want %q", m.Error, want)
	}

}
