package servers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/servers/config"
	"github.com/elicitdesk/elicitdesk/servers/demo"
	"github.com/elicitdesk/elicitdesk/servers/rpc"
)

// demoEnv makes the test binary, re-run as a child, serve the demo server:
// a real stdio server process without building the app.
const demoEnv = "ELICITDESK_TEST_DEMO_SERVER"

// slowExitEnv makes the child demo server slow to exit: it ignores its
// stdin closing and SIGTERM, and ends only when killed.
const slowExitEnv = "ELICITDESK_TEST_SLOW_EXIT"

// crashEnv makes the child demo server crash as it asks: it writes why
// on stderr and exits 3 once an elicitation is on its way.
const crashEnv = "ELICITDESK_TEST_CRASH_ON_ASK"

// crashOnceEnv names a file the child demo server makes on its first
// run, which crashes as crashEnv's; a run that finds it serves on.
const crashOnceEnv = "ELICITDESK_TEST_CRASH_ONCE"

// deafEnv makes the child demo server stop reading its stdin once it
// has read initialize and initialized: what is written to it then fills
// the pipe and blocks.
const deafEnv = "ELICITDESK_TEST_DEAF"

// deafAfterStart reads r's first two lines, then nothing ever again.
type deafAfterStart struct {
	r     io.Reader
	lines int
}

func (d *deafAfterStart) Read(p []byte) (int, error) {
	if d.lines >= 2 {
		select {}
	}
	n, err := d.r.Read(p[:1]) // a byte at a time: nothing past the second line is taken
	if n == 1 && p[0] == '\n' {
		d.lines++
	}
	return n, err
}

// crashOnAsk passes what the demo server writes, and ends the process
// once it has written an elicitation.
type crashOnAsk struct{ w io.Writer }

func (c crashOnAsk) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	if bytes.Contains(p, []byte(`"elicitation/create"`)) {
		fmt.Fprintln(os.Stderr, "FATAL: booking db connection lost, exiting")
		os.Exit(3)
	}
	return n, err
}

func TestMain(m *testing.M) {
	if os.Getenv(demoEnv) == "1" {
		var out io.Writer = os.Stdout
		var in io.Reader = os.Stdin
		if os.Getenv(deafEnv) == "1" {
			in = &deafAfterStart{r: os.Stdin}
		}
		if once := os.Getenv(crashOnceEnv); once != "" {
			if _, err := os.Stat(once); err != nil { // the first run
				os.WriteFile(once, nil, 0o600)
				out = crashOnAsk{os.Stdout}
			}
			fmt.Fprintln(os.Stderr, "booking server started")
		}
		if os.Getenv(crashEnv) == "1" {
			out = crashOnAsk{os.Stdout}
		}
		term := make(chan os.Signal, 1)
		if os.Getenv(slowExitEnv) == "1" {
			signal.Notify(term, syscall.SIGTERM)
		}
		if err := demo.Serve(context.Background(), in, out); err != nil {
			os.Exit(1)
		}
		if os.Getenv(slowExitEnv) == "1" {
			for range term { // until SIGKILL
			}
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// demoStdio is the configuration of the demo server as a child process.
func demoStdio(t testing.TB) config.Server {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return config.Server{Name: "demo", Command: exe, Args: []string{"-test.run=^$"}, Env: map[string]string{demoEnv: "1"}, Transport: config.TransportStdio}
}

// dialDemo connects to the demo server, in process or as a child.
func dialDemo(t testing.TB, child bool) (*Conn, *queued) {
	t.Helper()
	r := newQueued(DefaultLimits)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var c *Conn
	var err error
	if child {
		c, err = Dial(ctx, demoStdio(t), r.Router, quietLog())
	} else {
		toServerR, toServerW := io.Pipe()
		toClientR, toClientW := io.Pipe()
		served := make(chan struct{})
		srvCtx, stop := context.WithCancel(context.Background())
		go func() {
			defer close(served)
			demo.Serve(srvCtx, toServerR, toClientW)
			toClientW.Close()
		}()
		t.Cleanup(func() { stop(); toServerR.Close(); <-served })
		c, err = DialPipe(ctx, config.Server{Name: "demo", Command: "(in process)", Transport: config.TransportStdio}, toClientR, toServerW, r.Router, quietLog())
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, r
}

// call calls a tool in the background.
func call(c *Conn, name string, args map[string]any) <-chan toolResult {
	out := make(chan toolResult, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		res, err := c.CallTool(ctx, name, args)
		out <- toolResult{res, err}
	}()
	return out
}

type toolResult struct {
	res *ToolResult
	err error
}

func (r toolResult) text() string {
	if r.res == nil {
		return ""
	}
	var b strings.Builder
	for _, c := range r.res.Content {
		if c.Type == "text" {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

// firstKeys returns the property names of a raw schema in written order.
func firstKeys(t *testing.T, schema json.RawMessage) []string {
	t.Helper()
	s, err := forms.Parse(schema)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range s.Fields {
		names = append(names, f.Name)
	}
	return names
}

func TestDemoServer(t *testing.T) {
	for _, child := range []bool{false, true} {
		name := "in process"
		if child {
			name = "child process"
		}
		t.Run(name, func(t *testing.T) {
			c, r := dialDemo(t, child)
			who := c.Identity()
			if who.Name != "demo" || who.Reported.Name != demo.Name || who.Reported.Title != demo.Title {
				t.Fatalf("identity %+v", who)
			}
			tools, err := c.Tools(context.Background())
			if err != nil || len(tools) < 7 {
				t.Fatalf("tools %v %v", tools, err)
			}
			t.Run("every field, accepted", func(t *testing.T) {
				got := call(c, demo.ToolAskEveryField, nil)
				e := next(t, r)
				if e.Mode != ModeForm || e.Server.Name != "demo" || e.Server.Reported.Name != demo.Name {
					t.Fatalf("elicitation %+v", e)
				}
				schema, err := forms.Parse(e.Schema)
				if err != nil {
					t.Fatal(err)
				}
				// The demo writes its fields out of alphabetical order on purpose.
				keys := firstKeys(t, e.Schema)
				if slices.IsSorted(keys) {
					t.Fatalf("field order lost: %v", keys)
				}
				res, errs, err := forms.NewForm(schema).Accept()
				if err != nil || len(errs) > 0 {
					t.Fatalf("defaults do not validate: %v %v", errs, err)
				}
				if err := e.Reply(res); err != nil {
					t.Fatal(err)
				}
				out := <-got
				if out.err != nil || !strings.Contains(out.text(), `"action":"accept"`) {
					t.Fatalf("result %q %v", out.text(), out.err)
				}
			})
			for _, action := range []forms.Action{forms.Decline, forms.Cancel} {
				t.Run("confirm, "+string(action), func(t *testing.T) {
					got := call(c, demo.ToolAskConfirm, nil)
					next(t, r).Reply(forms.Result{Action: action})
					if out := <-got; out.err != nil || !strings.Contains(out.text(), `"action":"`+string(action)+`"`) {
						t.Fatalf("result %q %v", out.text(), out.err)
					}
				})
			}
			t.Run("asks twice", func(t *testing.T) {
				got := call(c, demo.ToolAskTwice, nil)
				first := next(t, r)
				first.Reply(forms.Result{Action: forms.Accept, Content: json.RawMessage(`{"name":"Ada"}`)})
				second := next(t, r)
				if !strings.Contains(string(second.Message), "Ada") {
					t.Errorf("second message %q", second.Message)
				}
				s, _ := forms.Parse(second.Schema)
				res, _, _ := forms.NewForm(s).Accept()
				second.Reply(res)
				if out := <-got; out.err != nil || !strings.Contains(out.text(), "Ada") {
					t.Fatalf("result %q %v", out.text(), out.err)
				}
			})
			t.Run("server gives up", func(t *testing.T) {
				got := call(c, demo.ToolAskThenGiveUp, map[string]any{"seconds": 0.5})
				e := next(t, r)
				select {
				case <-e.Context().Done():
				case <-time.After(20 * time.Second):
					t.Fatal("the request did not go stale when the server cancelled it")
				}
				if !errors.Is(context.Cause(e.Context()), rpc.ErrCancelled) {
					t.Errorf("cause %v", context.Cause(e.Context()))
				}
				if err := e.Reply(forms.Result{Action: forms.Accept, Content: json.RawMessage(`{}`)}); err == nil {
					t.Error("a late answer was accepted")
				}
				if out := <-got; out.err != nil || !strings.Contains(strings.ToLower(out.text()), "gave up") {
					t.Fatalf("result %q %v", out.text(), out.err)
				}
			})
			t.Run("url mode", func(t *testing.T) {
				got := call(c, demo.ToolOpenLink, map[string]any{"seconds": 0})
				e := next(t, r)
				if e.Mode != ModeURL || !strings.HasPrefix(string(e.URL), "https://") {
					t.Fatalf("elicitation %+v", e)
				}
				e.Reply(forms.Result{Action: forms.Accept})
				if out := <-got; out.err != nil {
					t.Fatal(out.err)
				}
				select {
				case <-e.Completed():
				case <-time.After(10 * time.Second):
					t.Fatal("notifications/elicitation/complete did not reach the elicitation")
				}
			})
			t.Run("input required", func(t *testing.T) {
				got := call(c, demo.ToolInputRequired, nil)
				e := next(t, r)
				s, err := forms.Parse(e.Schema)
				if err != nil {
					t.Fatal(err)
				}
				res, errs, err := forms.NewForm(s).Accept()
				if err != nil || len(errs) > 0 {
					t.Fatalf("%v %v", errs, err)
				}
				e.Reply(res)
				if out := <-got; out.err != nil || !strings.Contains(out.text(), "accept") {
					t.Fatalf("result %q %v", out.text(), out.err)
				}
			})
		})
	}
}

// TestCrashWhileAsking: a stdio server that exits while its question
// waits has the question end saying why, in its own last words, as the
// Servers window says it.
func TestCrashWhileAsking(t *testing.T) {
	cfg := demoStdio(t)
	cfg.Env[crashEnv] = "1"
	r := newQueued(DefaultLimits)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := Dial(ctx, cfg, r.Router, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	go c.CallTool(ctx, demo.ToolAskConfirm, nil)
	e := next(t, r)
	<-e.Context().Done()
	if got, want := context.Cause(e.Context()).Error(), "The server stopped: “booking db connection lost, exiting”"; got != want {
		t.Errorf("the question ended with %q, want %q", got, want)
	}
}

// TestCallToAServerThatStoppedReading: a call whose arguments a server no
// longer reads ends when its context does, rather than for ever.
func TestCallToAServerThatStoppedReading(t *testing.T) {
	cfg := demoStdio(t)
	cfg.Env[deafEnv] = "1"
	r := newQueued(DefaultLimits)
	c, err := Dial(t.Context(), cfg, r.Router, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithCancelCause(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := c.CallTool(ctx, demo.ToolAskConfirm, map[string]any{"message": strings.Repeat("x", 4<<20)})
		done <- err
	}()
	quit := errors.New("quitting")
	time.AfterFunc(100*time.Millisecond, func() { cancel(quit) }) // the person gives up, the app quits
	if err := <-done; !errors.Is(err, quit) {
		t.Errorf("the call ended with %v, want the context's cause", err)
	}
}
