package hostsview

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/a11y/a11ytest"
	"github.com/elicitdesk/elicitdesk/app/cmdtext"
	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/app/modal"
	"github.com/elicitdesk/elicitdesk/app/wheel"
	"github.com/elicitdesk/elicitdesk/internal/desktop/screen"
	"github.com/elicitdesk/elicitdesk/internal/hosts"
	"github.com/elicitdesk/elicitdesk/internal/testkit/uitest"
)

// newWindow is the Hosts window over Cursor with f's config, shown.
func newWindow(t *testing.T, f hosts.Found) *Window {
	t.Helper()
	servers := filepath.Join(t.TempDir(), "servers.json")
	if err := os.WriteFile(servers, []byte(`{"mcpServers": {}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	w := New(test.NewTempApp(t), Deps{Hosts: []hosts.Host{f.Host}, Bridge: bin, ConfigPath: servers, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	w.Show()
	return w
}

// all finds every T in o and below it, through containers and widgets'
// renderers, in order.
func all[T fyne.CanvasObject](o fyne.CanvasObject) []T {
	var out []T
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if x, ok := o.(T); ok {
			out = append(out, x)
			return
		}
		switch o := o.(type) {
		case *fyne.Container:
			for _, c := range o.Objects {
				walk(c)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(o).Objects() {
				walk(c)
			}
		}
	}
	walk(o)
	return out
}

// checks are the window's switches, in order.
func checks(w *Window) []*routeSwitch { return all[*routeSwitch](w.body) }

// tapDialog taps the button called label in the dialog on top.
func tapDialog(t *testing.T, w *Window, label string) {
	t.Helper()
	top := w.win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatalf("no dialog to tap %q in", label)
	}
	for _, b := range all[*look.Button](top) {
		if b.Text == label {
			test.Tap(b)
			return
		}
	}
	t.Fatalf("the dialog has no %q button: %v", label, uitest.Texts(top))
}

// dialogText is every text of the dialog on top, joined.
func dialogText(w *Window) string {
	var b strings.Builder
	for _, s := range uitest.Texts(w.win.Canvas().Overlays().Top()) {
		b.WriteString(s.Text + "\n")
	}
	return b.String()
}

func TestSwitchRoutes(t *testing.T) {
	f := sample(t)
	w := newWindow(t, f)
	if n := len(checks(w)); n != 6 {
		t.Fatalf("%d switches, want one per server that can be read", n)
	}
	a11ytest.Check(t, ".", checks(w)[0])
	if got := checks(w)[0].AccessibilityLabel(); got != "github through Elicit Desk: not checked" {
		t.Errorf("a screen reader calls the first switch %q, want it named with its server", got)
	}
	before, _ := os.ReadFile(f.Config.Path)

	// Cancel leaves the file and puts the switch back.
	test.Tap(checks(w)[0])
	if text := dialogText(w); !strings.Contains(text, "Route “github” through Elicit Desk?") || !strings.Contains(text, "/opt/elicitdesk bridge -name=github -- /usr/local/lib/node/bin/npx") {
		t.Errorf("the plan shows:\n%s", text)
	}
	tapDialog(t, w, "Cancel")
	if now, _ := os.ReadFile(f.Config.Path); string(now) != string(before) || checks(w)[0].Checked {
		t.Error("Cancel changed the file or left the switch on")
	}

	test.Tap(checks(w)[0])
	tapDialog(t, w, "Change Cursor's config")
	if text := dialogText(w); !strings.Contains(text, "Restart Cursor so it picks up the change.") || !strings.Contains(text, hosts.BackupSuffix) {
		t.Errorf("after writing:\n%s", text)
	}
	tapDialog(t, w, "OK")
	c, err := hosts.Read(f.Host, bin)
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := c.Server("github"); !s.Routed() || s.Command != exe {
		t.Errorf("github = %+v, want routed through %s", s, exe)
	}
	if !checks(w)[0].Checked {
		t.Error("the switch does not show github routed")
	}

	// The host writes its config while the plan is shown: nothing is
	// written, and the window reads the file again.
	test.Tap(checks(w)[1])
	if err := os.WriteFile(f.Config.Path, []byte(`{"mcpServers": {"only": {"command": "x"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tapDialog(t, w, "Change Cursor's config")
	if text := dialogText(w); !strings.Contains(text, "Cursor's config changed while you were looking, so nothing was written") {
		t.Errorf("a changed file says:\n%s", text)
	}
	tapDialog(t, w, "OK")
	if n := len(checks(w)); n != 1 {
		t.Errorf("%d switches after the change, want the file's one", n)
	}
}

// TestSwitchKeepsTheKeyboard: the switch the person used keeps the
// keyboard once the rows are made again (after Cancel, and after a route
// is written), so Space and Escape reach what shows, not a switch gone.
func TestSwitchKeepsTheKeyboard(t *testing.T) {
	f := sample(t)
	w := newWindow(t, f)
	canvas := w.win.Canvas()
	for _, confirm := range []string{"Cancel", "Change Cursor's config"} {
		canvas.Focus(checks(w)[0])
		test.Tap(checks(w)[0])
		tapDialog(t, w, confirm)
		if confirm != "Cancel" {
			tapDialog(t, w, "OK")
		}
		if now := checks(w)[0]; canvas.Focused() != now {
			t.Errorf("after %s the keyboard is with %v, not the new switch of the same server", confirm, canvas.Focused())
		}
	}

	// The configs read again while the dialog shows (the tray, Welcome).
	canvas.Focus(checks(w)[1])
	test.Tap(checks(w)[1])
	w.reload()
	tapDialog(t, w, "Cancel")
	if now := checks(w)[1]; canvas.Focused() != now {
		t.Errorf("read again under the dialog: the keyboard is with %v, not the new switch", canvas.Focused())
	}

	// A host's button keeps it too when the configs are read again. (A
	// button pressed drops the keyboard: Fyne's.)
	routeAll := func() *look.Button {
		for _, b := range all[*look.Button](w.body) {
			if b.Text == "Route all through Elicit Desk…" {
				return b
			}
		}
		t.Fatal("no Route all button")
		return nil
	}
	canvas.Focus(routeAll())
	w.reload()
	if canvas.Focused() != routeAll() {
		t.Errorf("read again: the keyboard is with %v, not the new Route all button", canvas.Focused())
	}
}

func TestCopyButton(t *testing.T) {
	w := newWindow(t, sample(t))
	w.offerCopy(w.found[0])
	tapDialog(t, w, "Copy")
	if text := dialogText(w); !strings.Contains(text, "Copied from Cursor into Elicit Desk") {
		t.Errorf("copy says:\n%s", text)
	}
	data, _ := os.ReadFile(w.deps.ConfigPath)
	if !strings.Contains(string(data), `"github"`) {
		t.Errorf("servers.json:\n%s", data)
	}
}

// TestHostileHosts shows a host whose config names, runs and fails in each
// hostile string: none may show a hidden character raw, in the window or
// in the plan.
func TestHostileHosts(t *testing.T) {
	for _, hs := range uitest.HostileStrings(t) {
		t.Run(hs.Name, func(t *testing.T) {
			s := hs.Text
			q := func(v string) string { b, _ := json.Marshal(v); return string(b) }
			path := filepath.Join(t.TempDir(), "mcp.json")
			data := `{"mcpServers": {` + q(s) + `: {"command": ` + q(s) + `, "args": [` + q(s) + `]}, ` +
				q(s+" remote") + `: {"url": ` + q("https://x.example/"+s) + `}, ` + q(s+" broken") + `: {"command": 5}}}`
			if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
				t.Fatal(err)
			}
			h := hosts.Host{ID: "cursor", Name: "Cursor", Config: path, Key: "mcpServers", Format: hosts.JSON}
			found := hosts.Find([]hosts.Host{h}, bin)
			if len(found) != 1 || found[0].Err != nil {
				t.Fatalf("found %+v", found)
			}
			w := newWindow(t, found[0])
			uitest.Check(t, "Hosts", uitest.WindowTexts(w.win))
			uitest.CheckWidth(t, "Hosts", w.win.Content(), 1040)
			RouteAll(w.win, w.deps.Screen, found[0].Config, w.deps.Log, w.reload)
			uitest.Check(t, "Route all", uitest.WindowTexts(w.win))
			tapDialog(t, w, "Cancel")

			// A config that cannot be read, in the file's words.
			if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
				t.Fatal(err)
			}
			w.reload()
			uitest.Check(t, "Hosts, unreadable", uitest.WindowTexts(w.win))
		})
	}
}

// TestSwitchRoutesRemote: a remote server's switch offers the bridge that
// signs in for the host, Now its URL and After the bridge's command line,
// and once routed the switch is on and the row still shows the URL.
func TestSwitchRoutesRemote(t *testing.T) {
	f := sample(t)
	w := newWindow(t, f)
	notion := checks(w)[4]
	test.Tap(notion)
	text := dialogText(w)
	for _, want := range []string{"Route “notion” through Elicit Desk?", "https://mcp.notion.com/mcp", "/opt/elicitdesk bridge -name=notion -url https://mcp.notion.com/mcp", "Elicit Desk signs in for it, in your browser"} {
		if !strings.Contains(text, want) {
			t.Errorf("the plan lacks %q:\n%s", want, text)
		}
	}
	tapDialog(t, w, "Change Cursor's config")
	tapDialog(t, w, "OK")
	if !checks(w)[4].Checked || !strings.Contains(fmt.Sprint(uitest.Texts(w.body)), "https://mcp.notion.com/mcp") {
		t.Errorf("after routing notion the window shows:\n%s", uitest.Texts(w.body))
	}
}

// TestRouteAllFitsAShortWindow opens Route all in a window made short:
// the window grows, here to the screen's height as the plan is long, and
// the plan shows above its buttons; no command line is cut inside a word.
func TestRouteAllFitsAShortWindow(t *testing.T) {
	f := sample(t)
	w := newWindow(t, f)
	w.win.Resize(fyne.NewSize(windowWidth, 300))
	for _, b := range all[*look.Button](w.win.Content()) {
		if b.Text == "Route all through Elicit Desk…" {
			test.Tap(b)
			break
		}
	}
	top := w.win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("Route all showed nothing")
	}
	room := w.win.Canvas().Size()
	if room.Height <= 300 {
		t.Errorf("the window stayed %v", room)
	}
	pops := all[*widget.PopUp](top)
	if len(pops) != 1 {
		t.Fatalf("%d pop-ups", len(pops))
	}
	pop := pops[0]
	if got := pop.Content.Size(); got.Height+modal.Margin > room.Height+1 {
		t.Errorf("the dialog is %v in a window of %v", got, room)
	}
	if room.Height < screen.Fallback().Size().Height-1 { // the window could grow for all of it
		t.Errorf("the window grew to %v, less than the screen's %v", room, screen.Fallback().Size())
	}
	for _, s := range all[*container.Scroll](pop.Content) {
		if s.Content != nil && s.Size().Height < 200 {
			t.Errorf("the plan shows %v of %v", s.Size().Height, s.Content.MinSize().Height)
		}
	}
	for _, l := range all[*cmdtext.Label](pop.Content) {
		for _, line := range strings.Split(l.Label.Text, "\n") {
			if !strings.Contains(" "+l.Text()+" ", line) {
				t.Errorf("%q is not a part of %q", line, l.Text())
			}
		}
	}
}

// TestSwitchScrollsIntoView: a switch that takes the keyboard below the
// window's edge is scrolled into view, so a keyboard user sees the box
// Space would tick.
func TestSwitchScrollsIntoView(t *testing.T) {
	w := newWindow(t, sample(t))
	w.win.Resize(fyne.NewSize(windowWidth, 300))
	last := checks(w)[len(checks(w))-1]
	w.win.Canvas().Focus(last)
	top, bottom := wheel.Span(w.scroll, last)
	if top < w.scroll.Offset.Y || bottom > w.scroll.Offset.Y+w.scroll.Size().Height {
		t.Errorf("the last switch spans %v to %v; the scroll shows %v to %v", top, bottom, w.scroll.Offset.Y, w.scroll.Offset.Y+w.scroll.Size().Height)
	}
}
