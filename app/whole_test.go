package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/a11y"
	"github.com/elicitdesk/elicitdesk/app/hostsview"
	"github.com/elicitdesk/elicitdesk/app/trafficview"
	"github.com/elicitdesk/elicitdesk/app/wheel"
	"github.com/elicitdesk/elicitdesk/assets"
	"github.com/elicitdesk/elicitdesk/internal/core"
	"github.com/elicitdesk/elicitdesk/internal/desktop/screen"
	"github.com/elicitdesk/elicitdesk/internal/hosts"
	"github.com/elicitdesk/elicitdesk/internal/testkit/uitest"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/demo"
)

// TestEveryWindowWhole opens every window and dialog of the app on the
// screens of testdata/screens.json, each with content in it, and fails
// when a person could not see all of one: the window larger than the
// screen, a widget with no size or outside its window, or a scroll too
// short to show what it holds (Add server once showed only its Name row).
func TestEveryWindowWhole(t *testing.T) {
	raw, err := os.ReadFile("testdata/screens.json")
	if err != nil {
		t.Fatal(err)
	}
	var screens []struct {
		Name          string
		Width, Height int
		Scale         float32
	}
	if err := json.Unmarshal(raw, &screens); err != nil {
		t.Fatal(err)
	}
	for _, sc := range screens {
		t.Run(sc.Name, func(t *testing.T) {
			room := screen.Screen{Work: screen.Area{Width: sc.Width, Height: sc.Height}, Scale: sc.Scale}.Size()
			// The test driver draws at scale 1, and Fyne lays out in its
			// units at any scale: the same room at scale 1, with the
			// window manager's frame (8×40 px) around it.
			s := screen.Screen{Work: screen.Area{Width: int(room.Width) + 8, Height: int(room.Height) + 40}, Scale: 1}
			h := startWith(t, "", func(o *Options, _ *core.Options) {
				o.Screen = func() (screen.Screen, bool) { return s, true }
			})
			walkWindows(t, h, room)
		})
	}
}

// walkWindows opens each window and dialog in turn and checks it whole.
func walkWindows(t *testing.T, h *harness, room fyne.Size) {
	cursor := cursorHost(t)
	h.eventually("the demo server", func() bool {
		s := h.core.Statuses()
		return len(s) == 1 && s[0].Identity.Reported.Name != ""
	})
	who := servers.Identity{Name: "demo", Target: "elicitdesk demo-server",
		Reported: servers.ServerInfo{Name: demo.Name, Title: demo.Title, Version: demo.Version}}
	h.ask(context.Background(), who, servers.Params{Message: "Every kind of field a form can have, each with a default. Change what you like, then accept, decline or cancel.",
		Mode: servers.ModeForm, Schema: assets.DemoForm})
	form := h.request(0)
	h.ask(context.Background(), servers.Identity{Name: "shop", Target: "https://shop.example/mcp"}, servers.Params{
		Message: "Sign in to pay", Mode: servers.ModeURL, ElicitationID: "e1", URL: "https://shop.example/login?next=1"})
	link := h.request(1)
	props := map[string]any{}
	for i := range 200 {
		props[fmt.Sprintf("field%03d", i)] = map[string]any{"type": "string", "title": fmt.Sprintf("Field %d", i+1)}
	}
	many, err := json.Marshal(map[string]any{"type": "object", "properties": props})
	if err != nil {
		t.Fatal(err)
	}
	h.ask(context.Background(), servers.Identity{Name: "survey", Target: "survey-server"}, servers.Params{
		Message: "Two hundred questions.", Mode: servers.ModeForm, Schema: many})
	long := h.request(2)
	h.ui(func() {
		h.d.opts.Hosts = []hosts.Host{cursor}
		h.d.hostsWin = hostsview.New(h.d.fyne, hostsview.Deps{Hosts: h.d.opts.Hosts, Bridge: hosts.Binaries{Exe: "/opt/elicitdesk"}, ConfigPath: h.d.opts.ConfigPath, Log: h.d.log, Screen: h.d.screen})
	})
	serversWin := func() fyne.Window { h.d.serversWin.Show(); return h.d.serversWin.Window() }
	hostsWin := func() fyne.Window { h.d.hostsWin.Show(); return windowTitled("Hosts — Elicit Desk") }
	for _, c := range []struct {
		name string
		open func() fyne.Window
		// dismiss closes a dialog the window shows over its content.
		dismiss string
	}{
		{"Welcome", func() fyne.Window { h.d.showWelcome(); return windowTitled("Welcome — Elicit Desk") }, ""},
		{"Servers", serversWin, ""},
		{"Add server", func() fyne.Window { h.d.serversWin.AddServer(); return h.d.serversWin.Window() }, "Cancel"},
		{"Edit server", func() fyne.Window { w := serversWin(); tap(t, w, "Edit…"); return w }, "Cancel"},
		{"Remove server", func() fyne.Window { w := serversWin(); tap(t, w, "Remove…"); return w }, "Cancel"},
		{"Settings", func() fyne.Window { h.d.showSettings(); return windowTitled("Settings — Elicit Desk") }, ""},
		{"Traffic", func() fyne.Window { h.d.showTraffic(trafficview.Of{}); return windowTitled("Traffic — Elicit Desk") }, ""},
		{"About", func() fyne.Window { h.d.showAbout(); return windowTitled("About — Elicit Desk") }, ""},
		{"Help", func() fyne.Window { h.d.showHelp(); return windowTitled("Help — Elicit Desk") }, ""},
		{"Hosts", hostsWin, ""},
		{"Route all", func() fyne.Window { w := hostsWin(); tap(t, w, "Route all through Elicit Desk…"); return w }, "Cancel"},
		{"Copy servers", func() fyne.Window { w := hostsWin(); tap(t, w, "Copy servers to Elicit Desk…"); return w }, "Cancel"},
		{"a form request", func() fyne.Window { return form.win.(*formWindow).w }, ""}, // its header checked below
		{"a form of 200 fields", func() fyne.Window { return long.win.(*formWindow).w }, ""},
		{"a link request", func() fyne.Window { return link.win.(*linkWindow).w }, ""},
		{"an error", func() fyne.Window {
			h.d.showError("Something went wrong", "The file cannot be read.")
			return windowTitled("Something went wrong — Elicit Desk")
		}, ""},
		{"the quit question", func() fyne.Window { h.d.ask(must(quitQuestion(12)), true, nil, func() {}); return h.question() }, ""},
		{"the background question", func() fyne.Window { h.d.ask(backgroundQuestion, false, nil, func() {}); return h.question() }, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			h.ui(func() {
				w := c.open()
				if w == nil {
					t.Error("no window") // not Fatal: this is the UI goroutine
					return
				}
				for _, p := range unseen(w, room) {
					t.Error(p)
				}
				if c.dismiss != "" {
					tapOverlay(t, w, c.dismiss)
				}
			})
		})
	}
	t.Run("a form request's header", func(t *testing.T) {
		h.ui(func() { headerAThird(t, form.win.(*formWindow).w) })
	})
	// History lists what was asked, and replays it.
	h.ui(func() { test.Tap(shownButton(content(form), "Cancel")) })
	h.ui(h.d.showHistory)
	h.eventually("the history's Replay", func() bool {
		if l := firstList(h.d.historyWin.Window().Content()); l != nil && l.Length() > 0 {
			l.Select(0)
		}
		return visibleButton(h.d.historyWin.Window(), "Replay") != nil
	})
	t.Run("History", func(t *testing.T) {
		h.ui(func() {
			for _, p := range unseen(h.d.historyWin.Window(), room) {
				t.Error(p)
			}
		})
	})
	t.Run("Replay", func(t *testing.T) {
		h.ui(func() {
			test.Tap(visibleButton(h.d.historyWin.Window(), "Replay"))
			w := replayWindow()
			if w == nil {
				t.Error("no replay window")
				return
			}
			for _, p := range unseen(w, room) {
				t.Error(p)
			}
			headerAThird(t, w)
		})
	})
}

// headerAThird fails when what the window of a form too long to show
// whole shows above its fields takes more than a third of it: the
// fields need the rest.
func headerAThird(t *testing.T, w fyne.Window) {
	var fields fyne.CanvasObject
	eachShown(w.Content(), func(o fyne.CanvasObject) bool {
		if _, ok := o.(*wheel.Scroll); ok && fields == nil {
			fields = o
		}
		return fields == nil
	})
	if fields == nil {
		t.Error("no fields")
		return
	}
	top := fyne.CurrentApp().Driver().AbsolutePositionForObject(fields).Y
	if h := w.Canvas().Size().Height; top > h/3+theme.Padding() {
		t.Errorf("the fields start %.0f units down a window %.0f tall", top, h)
	}
}

// tap taps the button labelled label in w. It runs on the UI goroutine,
// so it reports errors and goes on.
func tap(t *testing.T, w fyne.Window, label string) {
	t.Helper()
	b := visibleButton(w, label)
	if b == nil {
		t.Errorf("no button %q", label)
		return
	}
	test.Tap(b)
}

// tapOverlay taps the button labelled label on a dialog over w.
func tapOverlay(t *testing.T, w fyne.Window, label string) {
	t.Helper()
	if b := shownButton(w.Canvas().Overlays().Top(), label); b != nil {
		test.Tap(b)
	} else {
		t.Errorf("no button %q", label)
	}
}

// visibleButton is w's shown button labelled label, in its content or a
// dialog over it, or nil.
func visibleButton(w fyne.Window, label string) *widget.Button {
	for _, o := range append([]fyne.CanvasObject{w.Content()}, w.Canvas().Overlays().List()...) {
		if b := shownButton(o, label); b != nil {
			return b
		}
	}
	return nil
}

// shownButton is the first shown button labelled label in o, or nil.
func shownButton(o fyne.CanvasObject, label string) (found *widget.Button) {
	eachShown(o, func(o fyne.CanvasObject) bool {
		if b, ok := uitest.Button(o); ok && b.Text == label && found == nil {
			found = b
		}
		return found == nil
	})
	return found
}

// firstList is the first shown list in o, or nil.
func firstList(o fyne.CanvasObject) (found *widget.List) {
	eachShown(o, func(o fyne.CanvasObject) bool {
		if l, ok := o.(*a11y.List); ok && found == nil {
			found = l.Rows()
		}
		return found == nil
	})
	return found
}

// replayWindow is the open Replay window, or nil.
func replayWindow() fyne.Window {
	for _, w := range fyne.CurrentApp().Driver().AllWindows() {
		if strings.HasPrefix(w.Title(), "Replay: ") {
			return w
		}
	}
	return nil
}

// eachShown calls f on o and every object it holds that is shown, parents
// first, as far as f returns true.
func eachShown(o fyne.CanvasObject, f func(fyne.CanvasObject) bool) {
	if o == nil || !o.Visible() || !f(o) {
		return
	}
	for _, c := range children(o) {
		eachShown(c, f)
	}
}

// children are the objects o holds: a container's, a scroll's content, or
// a widget's renderer's.
func children(o fyne.CanvasObject) []fyne.CanvasObject {
	switch x := o.(type) {
	case *fyne.Container:
		return x.Objects
	case *container.Scroll:
		return []fyne.CanvasObject{x.Content}
	case fyne.Widget:
		return test.WidgetRenderer(x).Objects()
	}
	return nil
}

// scrollFloor is the least a scroll that hides some of what it holds
// must show, in Fyne units: two lines of text. Less, and it is a slot to
// peer through one row at a time, as Add server's form once was.
const scrollFloor = 48

// tolerance absorbs rounding in layouts, in Fyne units.
const tolerance = 0.5

// area is a rectangle in a window, in Fyne units.
type area struct {
	pos  fyne.Position
	size fyne.Size
}

// holds reports whether o lies within a.
func (a area) holds(o area) bool {
	return o.pos.X >= a.pos.X-tolerance && o.pos.Y >= a.pos.Y-tolerance &&
		o.pos.X+o.size.Width <= a.pos.X+a.size.Width+tolerance &&
		o.pos.Y+o.size.Height <= a.pos.Y+a.size.Height+tolerance
}

func (a area) String() string {
	return fmt.Sprintf("%.0f×%.0f at (%.0f, %.0f)", a.size.Width, a.size.Height, a.pos.X, a.pos.Y)
}

// inset is the part of a text widget its text is drawn in, within its
// inner padding, which layouts may let overlap their edges; a's whole for
// anything else.
func (a area) inset(o fyne.CanvasObject) area {
	switch o.(type) {
	case *widget.Label, *widget.RichText:
		p := theme.InnerPadding()
		return area{a.pos.AddXY(p, p), a.size.SubtractWidthHeight(2*p, 2*p).Max(fyne.Size{})}
	}
	return a
}

// unseen lists what a person cannot see of w on a screen that has room
// for a window's content of room: the window larger than that, a widget
// with no size or outside the window (or, in a scroll, outside what it
// scrolls), and a scroll too short to show what it holds.
func unseen(w fyne.Window, room fyne.Size) []string {
	c := w.Canvas()
	// A real window grows to its content's minimum size.
	if size := c.Size().Max(needs(w)); size != c.Size() {
		w.Resize(size)
	}
	size := c.Size()
	var out []string
	if size.Width > room.Width+tolerance || size.Height > room.Height+tolerance {
		out = append(out, fmt.Sprintf("the window is %v, more than the screen's room of %v", size, room))
	}
	whole := area{size: size}
	for _, o := range append([]fyne.CanvasObject{c.Content()}, c.Overlays().List()...) {
		check(o, fyne.Position{}, whole, &out)
	}
	return out
}

// check notes what of o, whose parent is at origin in its window, a
// person cannot see within clip, the part of the window it can show in.
func check(o fyne.CanvasObject, origin fyne.Position, clip area, out *[]string) {
	if o == nil || !o.Visible() {
		return
	}
	at := area{origin.Add(o.Position()), o.Size()}
	name, leaf := seen(o)
	if name != "" {
		switch text := at; {
		case at.size.Width < 1 || at.size.Height < 1:
			*out = append(*out, fmt.Sprintf("%s has no size (%v)", name, at.size))
		case !clip.holds(text.inset(o)):
			*out = append(*out, fmt.Sprintf("%s at %v lies outside %v", name, at, clip))
		}
	}
	if leaf {
		return
	}
	if w, ok := o.(*wheel.Scroll); ok {
		o = &w.Scroll
	}
	if s, ok := o.(*container.Scroll); ok && s.Content != nil {
		inner := s.Content.Size()
		if inner.Height > at.size.Height+tolerance && at.size.Height < min(inner.Height, scrollFloor) {
			*out = append(*out, fmt.Sprintf("a scroll %v shows %.0f of the %.0f units it holds", at, at.size.Height, inner.Height))
		}
		// What it holds may lie anywhere it scrolls to.
		check(s.Content, at.pos, area{at.pos.Add(s.Content.Position()), inner}, out)
		return
	}
	for _, c := range children(o) {
		check(c, at.pos, clip, out)
	}
}

// seen names o when a person must see it (what they read or use), and
// says whether it is a leaf: a widget whose insides are its own concern,
// such as the lines a list or a multi-line entry scrolls itself.
func seen(o fyne.CanvasObject) (name string, leaf bool) {
	short := func(s string) string {
		if r := []rune(s); len(r) > 40 {
			s = string(r[:40]) + "…"
		}
		return fmt.Sprintf("%q", s)
	}
	if b, ok := uitest.Button(o); ok {
		return "button " + short(b.Text), true
	}
	switch x := o.(type) {
	case *container.Scroll, *wheel.Scroll:
		return "", false // checked as a scroll
	case *widget.Label:
		if x.Text == "" {
			return "", true
		}
		return "label " + short(x.Text), true
	case *widget.RichText:
		return "text " + short(x.String()), true
	case *widget.Hyperlink:
		return "link " + short(x.Text), true
	case *widget.Check:
		return "check box " + short(x.Text), true
	case fyne.Focusable: // an input, whatever wraps it
		return fmt.Sprintf("a %T", o), true
	}
	return "", false
}
