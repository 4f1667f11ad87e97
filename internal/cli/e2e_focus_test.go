package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTypingElsewhere is a person typing in a terminal while requests
// arrive: every keystroke reaches the terminal, no request is answered,
// and once the person clicks a request window its form answers as usual.
func TestTypingElsewhere(t *testing.T) {
	t.Parallel()
	d := startDesktopWith(t, "", true)
	d.window("Servers") // the app is up
	if _, err := exec.LookPath("xterm"); err != nil {
		t.Fatalf("xterm is needed (make test-deps installs it): %v", err)
	}
	typed := filepath.Join(t.TempDir(), "typed")
	term := exec.Command("xterm", "-title", "terminal", "-e", "sh", "-c", `exec cat >"$0"`, typed)
	term.Env = d.env
	if err := term.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		term.Process.Kill()
		term.Wait()
	})
	xt := d.window("^terminal$")
	if _, err := d.run("xdotool", "windowactivate", "--sync", xt, "mousemove", "--window", xt, "40", "40"); err != nil {
		t.Fatal(err)
	}

	// The person types a long line while four requests arrive, one of
	// them a form whose first field has a default.
	const line = "git status && git log --oneline -5 && echo all keys reached the terminal"
	typing := exec.Command("xdotool", "type", "--delay", "40", line+"\n")
	typing.Env = d.env
	if err := typing.Start(); err != nil {
		t.Fatal(err)
	}
	var calls []*exec.Cmd
	var outs []*bytes.Buffer
	var ended []chan error // each call's Wait, once it returns
	start := func(tool, args string) {
		c, out := d.callArgs(tool, args)
		end := make(chan error, 1)
		go func() { end <- c.Wait() }()
		calls, outs, ended = append(calls, c), append(outs, out), append(ended, end)
	}
	start("ask_every_field", "{}")
	for i := 1; i <= 3; i++ {
		start("ask_confirm", fmt.Sprintf(`{"message": "Delete database %d?"}`, i))
	}
	t.Cleanup(func() {
		for i, c := range calls {
			c.Process.Kill()
			<-ended[i]
		}
	})
	if err := typing.Wait(); err != nil {
		t.Fatal(err)
	}
	d.waitFile(typed, line+"\n")
	if focus, err := d.run("xdotool", "getwindowfocus"); err != nil || strings.TrimSpace(focus) != xt {
		t.Errorf("the keyboard left the terminal: %q %v", focus, err)
	}
	for i := range calls {
		select {
		case err := <-ended[i]:
			ended[i] <- err // for the cleanup
			t.Errorf("request %d was answered while the person typed elsewhere: %v\n%s", i, err, outs[i])
		default:
		}
	}

	// The person clicks a request window (whichever of the three has one:
	// they arrive in any order), moves to its check box, ticks it and
	// presses Enter.
	w := d.window("^demo: Delete database")
	name, err := d.run("xdotool", "getwindowname", w)
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if _, err := fmt.Sscanf(strings.TrimPrefix(name, "demo: Delete database "), "%d", &n); err != nil || n < 1 || n > 3 {
		t.Fatalf("window %q: %v", name, err)
	}
	// The windows overlap, and a click goes to the one on top: the person
	// brings it forward first (and clicks again if the first try missed).
	var answered bool
	for try := 1; try <= 3 && !answered; try++ {
		if _, err := d.run("xdotool", "windowactivate", "--sync", w, "mousemove", "--window", w, "12", "12", "click", "1"); err != nil {
			t.Fatal(err)
		}
		if _, err := d.run("xdotool", "key", "Tab", "space", "Return"); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-ended[n]:
			ended[n] <- err // for the cleanup
			if err != nil {
				t.Fatalf("call: %v\n%s", err, outs[n])
			}
			answered = true
		case <-time.After(20 * time.Second):
			t.Logf("try %d: the clicked request %d was not answered", try, n)
		}
	}
	if !answered {
		shot := filepath.Join(os.TempDir(), "TestTypingElsewhere.png")
		d.run("import", "-window", "root", shot)
		t.Fatalf("the clicked request %d was not answered (the screen: %s)", n, shot)
	}
	if !strings.Contains(outs[n].String(), `{\"action\":\"accept\",\"content\":{\"confirm\":true}}`) {
		t.Errorf("the clicked request did not answer the person's choice:\n%s", outs[n])
	}
}

// callArgs starts `elicitdesk call -answer desk` of a demo tool with args.
func (d *desktop) callArgs(tool, args string) (*exec.Cmd, *bytes.Buffer) {
	d.t.Helper()
	c := exec.Command(d.bin, "call", "-server", "demo", "-tool", tool, "-args", args, "-answer", "desk")
	c.Env = d.env
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	if err := c.Start(); err != nil {
		d.t.Fatal(err)
	}
	return c, &out
}

// waitFile waits for the file at path to hold want.
func (d *desktop) waitFile(path, want string) {
	d.t.Helper()
	var got []byte
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if got, _ = os.ReadFile(path); string(got) == want {
			return
		}
	}
	d.t.Fatalf("the terminal got %q, not %q", got, want)
}
