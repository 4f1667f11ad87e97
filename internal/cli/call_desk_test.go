package cli

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestCallDeskRunsTheServer: `call -answer desk -- COMMAND`, a server's
// developer trying a server they have not configured, runs the server
// itself and asks its questions in the app's windows, in the order the
// server asked them, the app started for them; History records them as
// asked for `elicitdesk call`.
func TestCallDeskRunsTheServer(t *testing.T) {
	t.Parallel()
	d := startDesktopWith(t, "", true)
	d.window("Servers") // the app is up
	call := exec.Command(d.bin, "call", "-tool", "ask_twice", "-answer", "desk", "--", d.bin, "demo-server")
	call.Env = d.env
	var stdout, stderr bytes.Buffer
	call.Stdout, call.Stderr = &stdout, &stderr
	if err := call.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() { ended <- call.Wait() }()
	t.Cleanup(func() {
		call.Process.Kill()
		<-ended
	})
	first := d.window("First question: what is your name")
	d.keys(first, "Ada", "Return")
	second := d.window("Second question: thanks, Ada", first)
	d.keys(second, "", "ctrl+Return") // the choice's default, tea
	if err := <-ended; err != nil {
		t.Fatalf("call: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	ended <- nil // for the cleanup
	for _, want := range []string{`"first": {`, `"name": "Ada"`, `"drink": "tea"`} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the tool's result lacks %s:\n%s", want, stdout.String())
		}
	}
	hist := d.history(func(hist string) bool { return strings.Count(hist, "elicitdesk call") >= 2 })
	if strings.Count(hist, "elicitdesk call") < 2 || !strings.Contains(hist, "Ada") {
		t.Errorf("history:\n%s\nwant both answers, asked for elicitdesk call", hist)
	}
}

// TestCallDeskWithCommandWithoutDisplay: with nowhere to show a window,
// `call -answer desk -- COMMAND` answers its server's question cancel and
// says why, and that it could not answer.
func TestCallDeskWithCommandWithoutDisplay(t *testing.T) {
	noApp(t)
	code, stdout, stderr := run(append([]string{"call", "-tool", "ask_confirm", "-answer", "desk"}, demoCommand(t)...)...)
	if code != 1 || !strings.Contains(stdout, `\"action\":\"cancel\"`) || !strings.Contains(stderr, "no window can be shown") ||
		!strings.Contains(stderr, "1 request could not be asked in Elicit Desk's windows") {
		t.Errorf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
}

// TestCallDeskWithdrawn: a question its server withdraws while its window
// shows is said withdrawn on call's stderr, not answered, and the window
// goes stale: History records it so, in the words of a server's cancel,
// not of a bridge gone. The app's traffic has what passed.
func TestCallDeskWithdrawn(t *testing.T) {
	t.Parallel()
	d := startDesktopWith(t, "", true)
	d.window("Servers") // the app is up
	call := exec.Command(d.bin, "call", "-tool", "ask_then_give_up", "-args", `{"seconds":3}`, "-answer", "desk", "--", d.bin, "demo-server")
	call.Env = d.env
	var stdout, stderr bytes.Buffer
	call.Stdout, call.Stderr = &stdout, &stderr
	if err := call.Start(); err != nil {
		t.Fatal(err)
	}
	d.window("Answer within 3s")
	if err := call.Wait(); err != nil {
		t.Fatalf("call: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "withdrawn before an answer") || strings.Contains(stderr.String(), "answered") {
		t.Errorf("stderr:\n%s\nwant the question said withdrawn, unanswered", stderr.String())
	}
	hist := d.history(func(hist string) bool { return strings.Contains(hist, `"stale"`) })
	if !strings.Contains(hist, `"stale"`) || !strings.Contains(hist, "elicitdesk call") || !strings.Contains(hist, "cancelled the request, saying") {
		t.Errorf("history:\n%s\nwant the question stale, asked for elicitdesk call, as its server cancelled it", hist)
	}
	// The app's traffic has the session's messages, as a bridge's.
	var seen string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if seen, _ = d.run(d.bin, "traffic", "-json"); strings.Contains(seen, `"elicitation/create"`) && strings.Contains(seen, "ask_then_give_up") {
			return
		}
	}
	t.Errorf("traffic:\n%s\nwant the call's tools/call and its elicitation", seen)
}
