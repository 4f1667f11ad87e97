//go:build linux

package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/testkit/dbustest"
)

// pyatspi is Debian's Python, which has python3-pyatspi; launcher is the
// at-spi bus launcher at-spi2-core installs.
const (
	pyatspi  = "/usr/bin/python3"
	launcher = "/usr/libexec/at-spi-bus-launcher"
)

// a11yNode is one node as testdata/atspi/client.py prints it.
type a11yNode struct {
	Depth       int      `json:"depth"`
	Role        string   `json:"role"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Text        *string  `json:"text"`
	States      []string `json:"states"`
	Actions     []string `json:"actions"`
}

func (n a11yNode) has(state string) bool {
	for _, s := range n.States {
		if s == state {
			return true
		}
	}
	return false
}

// a11yRead is what client.py read prints.
type a11yRead struct {
	Window string     `json:"window"`
	Tree   []a11yNode `json:"tree"`
	ReadMS int        `json:"read_ms"`
	Steps  []struct {
		OK      *bool     `json:"ok"`
		Read    *a11yNode `json:"read"`
		Answers []string  `json:"answers"` // calls on a node of a closed window
	} `json:"steps"`
}

// startA11ySession starts a session bus of the test's own on which the
// at-spi bus launcher starts when first asked, as on a desktop, and
// returns its address. GSettings keep to memory: turning accessibility on
// must not write the person's dconf database. The launcher and what it
// starts leave the session's process tree (their parent is init): they
// end with the test.
func startA11ySession(t testing.TB) string {
	t.Helper()
	for _, tool := range []string{"dbus-send", pyatspi, launcher} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed (make test-deps installs dbus-daemon, at-spi2-core and python3-pyatspi): %v", tool, err)
		}
	}
	if out, err := exec.Command(pyatspi, "-c", "import pyatspi").CombinedOutput(); err != nil {
		t.Fatalf("python3-pyatspi is needed (make test-deps installs it): %v\n%s", err, out)
	}
	_, env := privateHome(t)
	address := dbustest.SessionBus(t, append(env, "GSETTINGS_BACKEND=memory", "DISPLAY=")...)
	t.Cleanup(func() {
		for _, pid := range a11yProcesses(address) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return address
}

// activationDisplay tells the session bus the desktop's display, for
// what it starts from now on, as a desktop session does at login: the
// at-spi registry exits when it has no display.
func (d *desktop) activationDisplay() {
	d.t.Helper()
	for _, e := range d.env {
		if display, ok := strings.CutPrefix(e, "DISPLAY="); ok && display != "" {
			if out, err := d.run("dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
				"org.freedesktop.DBus.UpdateActivationEnvironment", "dict:string:string:DISPLAY,"+display); err != nil {
				d.t.Fatalf("%v\n%s", err, out)
			}
		}
	}
}

// screenReader says, as Orca does when it starts, that a screen reader
// runs (the launcher then says that assistive technology is on too), or,
// as when the last assistive technology quits, that none runs.
func (d *desktop) screenReader(on bool) {
	d.t.Helper()
	props := []string{"ScreenReaderEnabled"}
	if !on {
		props = append(props, "IsEnabled")
	}
	for _, p := range props {
		if out, err := d.run("dbus-send", "--session", "--print-reply", "--dest=org.a11y.Bus", "/org/a11y/bus",
			"org.freedesktop.DBus.Properties.Set", "string:org.a11y.Status", "string:"+p, "variant:boolean:"+strconv.FormatBool(on)); err != nil {
			d.t.Fatalf("%v\n%s", err, out)
		}
	}
}

// atspi runs testdata/atspi/client.py on the desktop and decodes what it
// printed into v.
func (d *desktop) atspi(v any, args ...string) {
	d.t.Helper()
	script, err := filepath.Abs(filepath.Join("..", "..", "testdata", "atspi", "client.py"))
	if err != nil {
		d.t.Fatal(err)
	}
	out, err := d.run(pyatspi, append([]string{script}, args...)...)
	if err != nil {
		d.t.Fatalf("client.py %v: %v\n%s", args, err, out)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		d.t.Fatalf("client.py %v printed %q: %v", args, out, err)
	}
}

// TestScreenReaderAnswers answers the demo's every-field form as a person
// with a screen reader does, through AT-SPI alone: a real AT-SPI client
// (libatspi) finds the app, reads the request window in order with each
// field's name, role, states and value, fills some fields, ticks a box,
// picks an option and presses Accept; the server gets exactly that. The
// screen reader starts only once the window is open, and when it quits
// the app leaves the accessibility bus.
func TestScreenReaderAnswers(t *testing.T) {
	t.Parallel()
	bus := startA11ySession(t)
	d := startDesktopWith(t, "", false, "DBUS_SESSION_BUS_ADDRESS="+bus)
	d.window("Servers")
	d.activationDisplay()
	call, out := d.callArgs("ask_every_field", "{}")
	id := d.window("^demo: ")
	title, err := d.run("xdotool", "getwindowname", id)
	if err != nil {
		t.Fatal(err)
	}

	d.screenReader(true)
	// The person switches to the window: a screen reader follows the
	// focus in the active window only.
	if _, err := d.run("xdotool", "windowfocus", "--sync", id); err != nil {
		t.Fatal(err)
	}
	var r a11yRead
	d.atspi(&r, "read", appName, "demo: ", `[
		{"set": "Name (required)", "text": "Grace Hopper"},
		{"set": "Guests (required)", "text": "7"},
		{"do": "Newsletter", "role": "check box"},
		{"do": "Large", "role": "radio button"},
		{"do": "Toppings, mushroom", "role": "check box"},
		{"read": "Name (required)"},
		{"focus": "Website", "role": "entry"},
		{"expect": "object:state-changed:focused", "name": "Website"},
		{"set": "Email (required)", "text": "nope"},
		{"expect": "object:state-changed:invalid-entry", "name": "Email (required)"},
		{"expect": "object:property-change:accessible-description", "name": "Email (required)"},
		{"read": "Email (required)"},
		{"set": "Email (required)", "text": "grace@example.com"},
		{"do": "Accept", "role": "push button"},
		{"stale": "Name (required)", "role": "entry"}
	]`)
	if r.Window != strings.TrimSpace(title) {
		t.Errorf("the window reads %q; its title is %q", r.Window, title)
	}
	if !r.Tree[0].has("active") {
		t.Errorf("the window with the keyboard is not active: %v", r.Tree[0].States)
	}
	checkEveryFieldTree(t, r.Tree)
	var reads []*a11yNode
	for i, s := range r.Steps {
		if s.OK != nil && !*s.OK {
			t.Errorf("step %d was refused", i)
		}
		if s.Read != nil {
			reads = append(reads, s.Read)
		}
	}
	if len(reads) != 2 {
		t.Fatalf("%d reads of nodes, want 2", len(reads))
	}
	// Calls on the objects of a closed window fail, or answer nothing:
	// libatspi makes an empty name of the error, and no child of none.
	// None changes anything, and the app goes on (it reads below).
	stale := r.Steps[len(r.Steps)-1].Answers
	if len(stale) != 6 {
		t.Errorf("calls on a closed window's entry answered %q", stale)
	}
	for _, a := range stale {
		if a != "''" && a != "None" && a != "['defunct']" && !strings.HasPrefix(a, "error: ") {
			t.Errorf("a call on a closed window's entry answered %s (all: %q)", a, stale)
		}
	}
	if n := reads[0]; n == nil || n.Text == nil || *n.Text != "Grace Hopper" {
		t.Errorf("the name field after setting it: %+v", n)
	}
	// A new error is told: the field's state and description change; the
	// error shows in the hint's place, and the description says it.
	if n := reads[1]; n == nil || !n.has("invalid entry") || n.Description == "An email address." || !strings.Contains(n.Description, "email address") {
		t.Errorf("the email field with a wrong address: %+v", n)
	}

	if err := call.Wait(); err != nil {
		t.Fatalf("call: %v\n%s", err, out)
	}
	want := map[string]any{
		"name": "Grace Hopper", "email": "grace@example.com", "website": "https://example.com/ada",
		"birthday": "1815-12-10", "meeting": "2025-11-25T09:30:00Z", "guests": 7.0, "budget": 99.5,
		"newsletter": false, "color": "green", "size": "l", "plan": "pro",
		"toppings": []any{"cheese", "mushroom", "olive"}, "days": []any{"mon", "fri"},
	}
	if got := callAnswer(t, out.String()); !reflect.DeepEqual(got, map[string]any{"action": "accept", "content": want}) {
		t.Errorf("the server got %v\nwant accept with %v", got, want)
	}

	// The accessibility bus goes away, launcher and all: the app goes
	// on, and is back on the desktop once a screen reader starts again.
	launcherGone := dbustest.WatchOwner(t, bus, "org.a11y.Bus")
	for _, pid := range a11yProcesses(bus) {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	launcherGone(10 * time.Second) // else the bus hands the next call to the dying launcher
	d.screenReader(true)
	var servers a11yRead
	d.atspi(&servers, "read", appName, "Servers", `[{"do": "History…", "role": "menu item"}]`)
	if !hasNode(servers.Tree, "list item", "demo, Ready") {
		t.Errorf("the Servers window after the bus came back does not list demo, Ready: %+v", servers.Tree)
	}
	// History, opened from the Servers window's menu, lists the answer.
	var hist a11yRead
	d.atspi(&hist, "read", appName, "History", `[{"wait": "demo, Accepted, Every kind of field a form can have", "role": "list item"}]`)
	if !hasNode(hist.Tree, "combo box", "Server") || !hasNode(hist.Tree, "push button", "Export all") {
		t.Errorf("History reads:\n%+v", hist.Tree)
	}
	// Said before the app's next log line, which may still be on its way.
	for deadline := time.Now().Add(10 * time.Second); strings.Count(d.log.String(), "a screen reader runs") < 2; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the app did not go on the accessibility bus again after it went away")
		}
	}

	// The screen reader quits: the app leaves the accessibility bus.
	d.screenReader(false)
	var gone struct{ Gone string }
	d.atspi(&gone, "gone", appName)
}

// a11yProcesses are the at-spi processes of the session bus at addr: the
// bus launcher, the accessibility bus and its registry.
func a11yProcesses(addr string) []int {
	var pids []int
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		env, _ := os.ReadFile(p + "/environ")
		if !bytes.Contains(append(env, 0), []byte("\x00DBUS_SESSION_BUS_ADDRESS="+addr+"\x00")) {
			continue
		}
		exe, _ := os.Readlink(p + "/exe")
		cmd, _ := os.ReadFile(p + "/cmdline")
		if exe == launcher || strings.HasSuffix(exe, "/at-spi2-registryd") || bytes.Contains(cmd, []byte("at-spi2/accessibility.conf")) {
			if pid, err := strconv.Atoi(filepath.Base(p)); err == nil {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}

// hasNode reports whether tree has a node of role whose name holds name.
func hasNode(tree []a11yNode, role, name string) bool {
	for _, n := range tree {
		if n.Role == role && strings.Contains(n.Name, name) {
			return true
		}
	}
	return false
}

// callAnswer is the answer the demo server reports in a call's result.
func callAnswer(t *testing.T, out string) map[string]any {
	t.Helper()
	start := strings.Index("\n"+out, "\n{")
	if start < 0 {
		t.Fatalf("no result in %q", out)
	}
	var result struct {
		StructuredContent map[string]any `json:"structuredContent"`
	}
	if err := json.Unmarshal([]byte(out[start:]), &result); err != nil {
		t.Fatalf("result: %v\n%s", err, out)
	}
	return result.StructuredContent
}

// checkEveryFieldTree checks the request window's nodes as a screen reader
// reads them: who asks, the message, each field with its name, role,
// hint, value and states, then the Review and the buttons, in that order.
func checkEveryFieldTree(t *testing.T, tree []a11yNode) {
	t.Helper()
	type want struct{ role, name, desc, text string }
	wants := []want{
		{"heading", "demo", "", ""},
		{"label", os.Getenv(binEnv) + " demo-server", "", ""},
		{"label", "Reported by the server: Elicit Desk demo server (elicitdesk-demo) 0.1.0", "", ""},
		{"label", "Every kind of field a form can have, each with a default. Change what you like, then accept, decline or cancel.", "", ""},
		{"entry", "Name (required)", "Text between 2 and 40 characters.", "Ada Lovelace"},
		{"entry", "Email (required)", "An email address.", "ada@example.com"},
		{"entry", "Website", "A URI.", "https://example.com/ada"},
		{"entry", "Birthday", "A date.", "12/10/1815"},
		{"entry", "Meeting, date", "A date and time.", "11/25/2025"},
		{"entry", "Meeting, time of day", "A date and time.", "09:30"},
		{"entry", "Guests (required)", "A whole number from 1 to 12.", "2"},
		{"entry", "Budget", "Any number from 0 to 1000.", "99.5"},
		{"check box", "Newsletter", "Yes or no.", ""},
		{"panel", "Color", "One choice, untitled (enum).", ""},
		{"radio button", "green", "", ""},
		{"panel", "Size", "One choice, titled (oneOf).", ""},
		{"radio button", "Medium", "", ""},
		{"check box", "Toppings, cheese", "Several choices, untitled (items.enum).", ""},
		{"check box", "Days, Friday", "One or two choices, titled (items.anyOf).", ""},
		{"label", "Review", "", ""},
		{"push button", "Decline", "", ""},
		{"push button", "Cancel", "", ""},
		{"push button", "Accept", "", ""},
	}
	next := 0
	for _, n := range tree {
		if next == len(wants) {
			break
		}
		w := wants[next]
		if n.Role != w.role || n.Name != w.name {
			continue
		}
		next++
		if n.Description != w.desc {
			t.Errorf("%s %q: description %q, want %q", n.Role, n.Name, n.Description, w.desc)
		}
		if w.text != "" && (n.Text == nil || *n.Text != w.text) {
			t.Errorf("%s %q: text %v, want %q", n.Role, n.Name, n.Text, w.text)
		}
		switch n.Role {
		case "entry":
			for _, s := range []string{"editable", "focusable", "enabled", "showing", "single line"} {
				if !n.has(s) {
					t.Errorf("entry %q is not %s: %v", n.Name, s, n.States)
				}
			}
		case "check box", "radio button":
			if !n.has("checked") || len(n.Actions) == 0 {
				t.Errorf("%s %q, a default, is not checked or has no action: %+v", n.Role, n.Name, n)
			}
		case "push button":
			if len(n.Actions) != 1 || n.Actions[0] != "click" {
				t.Errorf("button %q: actions %v", n.Name, n.Actions)
			}
		}
	}
	if next < len(wants) {
		var read []string
		for _, n := range tree {
			read = append(read, n.Role+" "+strings.ReplaceAll(n.Name, "\n", " / "))
		}
		t.Errorf("the window does not read, in order, %s %q; it reads:\n%s", wants[next].role, wants[next].name, strings.Join(read, "\n"))
	}
}
