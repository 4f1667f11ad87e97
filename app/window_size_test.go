package app

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/app/wheel"
	"github.com/elicitdesk/elicitdesk/assets"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/desktop/screen"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/demo"
)

// TestLinkStaysInView gives a URL request a long serverInfo and message:
// the link, where it leads, its warnings and Open link stay inside the
// window, and the server's words scroll above the link, as in a form
// window.
func TestLinkStaysInView(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	long := untrusted.Text(strings.Repeat("words the server wrote ", 300))
	who := servers.Identity{Name: "shop", Target: "https://shop.example/mcp",
		Reported: servers.ServerInfo{Name: long, Title: long, Version: long}}
	h.ask(context.Background(), who, servers.Params{Message: long, Mode: servers.ModeURL, ElicitationID: "e",
		URL: "http://shop.example/" + untrusted.Text(strings.Repeat("path/", 600))})
	r := h.request(0)
	h.ui(func() {
		lw := r.win.(*linkWindow)
		size := lw.w.Canvas().Size()
		if m := lw.w.Content().MinSize(); m.Width > size.Width || m.Height > size.Height {
			t.Errorf("the content needs %v, more than the window's %v", m, size)
			return
		}
		inView := func(what string, o fyne.CanvasObject) {
			t.Helper()
			p := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
			if p.X < 0 || p.Y < 0 || p.X+o.Size().Width > size.Width+1 || p.Y+o.Size().Height > size.Height+1 || o.Size().Height == 0 {
				t.Errorf("%s at %v size %v, outside the window %v", what, p, o.Size(), size)
			}
		}
		inView("Open link", button(t, content(r), "Open link"))
		var leads, warn, said fyne.CanvasObject
		for _, x := range test.LaidOutObjects(content(r)) {
			if l, ok := x.(*widget.Label); ok && l.Visible() {
				switch {
				case strings.HasPrefix(l.Text, "It leads to"):
					leads = l
				case l.Importance == widget.WarningImportance && strings.Contains(strings.ToLower(l.Text), "https"):
					warn = l
				}
			}
			if t, ok := x.(*widget.RichText); ok && strings.Contains(t.String(), "Reported by the server") && said == nil {
				said = t
			}
		}
		if leads == nil || warn == nil || said == nil {
			t.Errorf("missing: leads %v, warning %v, serverInfo %v", leads, warn, said)
			return
		}
		inView("where the link leads", leads)
		inView("the link's warning", warn)
		d := fyne.CurrentApp().Driver()
		if d.AbsolutePositionForObject(said).Y > d.AbsolutePositionForObject(warn).Y {
			t.Error("the link's warning comes before who asks, unlike a form window")
		}
	})
}

// TestWindowSize sizes windows whose content is fixed parts and wrapped
// text (a height that grows as the width shrinks).
func TestWindowSize(t *testing.T) {
	raw, err := os.ReadFile("testdata/window_sizes.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name        string
		Work        screen.Area
		Scale       float32
		Width       float32
		Fixed, Text float32 // the content's height: Fixed + Text/width
		Want        [2]float32
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			s := screen.Screen{Work: c.Work, Scale: c.Scale}
			var laidOut fyne.Size
			got := windowSize(s, c.Width, func(w, h float32) float32 {
				laidOut = fyne.NewSize(w, h)
				return c.Fixed + c.Text/w
			})
			if math.Abs(float64(got.Width-c.Want[0])) > 0.01 || math.Abs(float64(got.Height-c.Want[1])) > 0.01 {
				t.Errorf("windowSize = %v, want %v", got, c.Want)
			}
			if room := s.Size(); got.Width > room.Width || got.Height > room.Height {
				t.Errorf("%v is larger than the work area's %v", got, room)
			}
			if laidOut.Width != got.Width {
				t.Errorf("measured at width %v, opened at %v", laidOut.Width, got.Width)
			}
		})
	}
}

// TestRequestWindowFitsItsContent opens real forms on screens of known
// work areas: a small form gets a small window showing all of it, a long
// one the work area's height, and the buttons are in view on every one.
func TestRequestWindowFitsItsContent(t *testing.T) {
	under := screen.Area{Y: 32, Width: 1440, Height: 868} // 1440×900 less a panel
	read := func(name string) json.RawMessage {
		raw, err := os.ReadFile("testdata/forms/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return raw
	}
	for _, c := range []struct {
		name    string
		schema  json.RawMessage
		scale   float32
		all     bool // everything shows without scrolling
		fillsUp bool // the window is as tall as the work area
	}{
		{"one checkbox", read("confirm.json"), 1, true, false},
		{"five fields", read("five.json"), 1, true, false},
		{"every kind of field", assets.DemoForm, 1, true, false},
		{"five fields at scale 2", read("five.json"), 2, true, false},
		{"every kind of field at scale 2", assets.DemoForm, 2, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := start(t, `{"mcpServers":{}}`)
			// The test driver draws at scale 1 only: a screen at scale
			// 2 is one of half the size.
			s := screen.Screen{Work: screen.Area{Y: under.Y, Width: int(float32(under.Width) / c.scale), Height: int(float32(under.Height) / c.scale)}, Scale: 1}
			h.ui(func() { h.d.opts.Screen = func() (screen.Screen, bool) { return s, true } })
			h.ask(context.Background(), servers.Identity{Name: "demo", Target: "elicitdesk demo-server"},
				servers.Params{Message: "Deploy to production now?", Mode: servers.ModeForm, Schema: c.schema})
			r := h.request(0)
			h.ui(func() {
				fw := r.win.(*formWindow)
				size, room := fw.w.Canvas().Size(), s.Size()
				if size.Width > room.Width || size.Height > room.Height {
					t.Errorf("window %v, larger than the work area's %v", size, room)
				}
				full := fw.view.FullHeight()
				if c.all && size.Height < full {
					t.Errorf("window %v tall, its content needs %v", size.Height, full)
				}
				if !c.all && size.Height < room.Height {
					t.Errorf("window %v tall, while its content (%v) would fill the work area (%v)", size.Height, full, room.Height)
				}
				if got := size.Height == room.Height; got != c.fillsUp {
					t.Errorf("window %v tall in a work area of %v", size.Height, room.Height)
				}
				// Inside the window's padding, as the fields are on the left.
				accept, pad := placedButton(t, content(r), "Accept"), theme.Padding()
				p := fyne.CurrentApp().Driver().AbsolutePositionForObject(accept)
				if p.Y+accept.Size().Height > size.Height-pad || p.X+accept.Size().Width > size.Width-pad {
					t.Errorf("Accept at %v, %v, past the padding of the window %v", p, accept.Size(), size)
				}
			})
		})
	}
}

// TestFiveFieldsWholeAtScale2 opens the five-field form in the room a
// 1440×900 screen at scale 2 leaves it under a 32 px panel: the work area
// 1440×868 less the frame screen allows for (4 px each side, a 36 px title
// bar, 4 px below), halved: 716×414 Fyne units for the window's content,
// its padding included. The test driver draws at scale 1, and Fyne lays
// out in its units at any scale, so a 716×414 canvas here is that window.
// Every field, its label and the buttons show, and nothing scrolls.
func TestFiveFieldsWholeAtScale2(t *testing.T) {
	at := screen.Screen{Work: screen.Area{Y: 32, Width: 1440, Height: 868}, Scale: 2}
	if room := at.Size(); room != fyne.NewSize(716, 414) {
		t.Fatalf("the room is %v, not the 716×414 this test assumes", room)
	}
	raw, err := os.ReadFile("testdata/forms/five.json")
	if err != nil {
		t.Fatal(err)
	}
	h := start(t, `{"mcpServers":{}}`)
	h.ask(context.Background(), servers.Identity{Name: "demo", Target: "elicitdesk demo-server",
		Reported: servers.ServerInfo{Name: demo.Name, Title: demo.Title, Version: demo.Version}},
		servers.Params{Message: "Book a table for the dinner?", Mode: servers.ModeForm, Schema: raw})
	r := h.request(0)
	h.ui(func() {
		fw := r.win.(*formWindow)
		fw.size.at.Screen = at
		size := fw.size.size()
		fw.w.Resize(size)
		if size.Width > 716 || size.Height > 414 {
			t.Fatalf("the window is %v, larger than the room", size)
		}
		if m := fw.w.Content().MinSize(); m.Width > size.Width || m.Height > size.Height {
			t.Errorf("the content needs at least %v, the window is %v", m, size)
		}
		if full := fw.view.FullHeight() + 2*theme.Padding(); full > size.Height {
			t.Errorf("the form needs %v to show whole, the window is %v tall", full, size.Height)
		}
		d := fyne.CurrentApp().Driver()
		inView := func(what string, o fyne.CanvasObject) {
			t.Helper()
			p := d.AbsolutePositionForObject(o)
			if o.Size().Height == 0 || p.Y < 0 || p.X < 0 || p.Y+o.Size().Height > size.Height || p.X+o.Size().Width > size.Width {
				t.Errorf("%s at %v size %v, outside the window %v", what, p, o.Size(), size)
			}
		}
		labels, controls := 0, 0
		for _, o := range test.LaidOutObjects(content(r)) {
			switch x := o.(type) {
			case *wheel.Scroll:
				if x.Content.MinSize().Height > x.Size().Height {
					t.Errorf("the fields scroll: %v tall in a view of %v", x.Content.MinSize().Height, x.Size().Height)
				}
			case *widget.Label:
				if x.TextStyle.Bold && slices.Contains([]string{"Name *", "Email *", "Guests *", "Budget", "Newsletter"}, x.Text) {
					labels++
					inView(x.Text, x)
				}
			case *look.Button: // the buttons below, and the hidden stale banner's
			case *keyHold: // at no size: it only holds the keyboard
			case fyne.Focusable:
				controls++
				inView(fmt.Sprintf("control %d", controls), o)
			}
		}
		if labels != 5 || controls < 5 {
			t.Errorf("%d field labels and %d controls shown, want 5 of each", labels, controls)
		}
		for _, b := range []string{"Decline", "Cancel", "Accept"} {
			inView(b, button(t, content(r), b))
		}
	})
}

// TestQuestionIsTheLargestText checks that nothing in a form's window is
// drawn larger than the question, the review's heading included.
func TestQuestionIsTheLargestText(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	h.askForm(context.Background(), "demo", "Deploy to production now?")
	r := h.request(0)
	h.ui(func() {
		var question float32
		var largest *canvas.Text
		for _, o := range test.LaidOutObjects(content(r)) {
			if x, ok := o.(*canvas.Text); ok && x.Visible() && x.Text != "" { // an empty text draws nothing
				if x.Text == "Deploy to production now?" {
					question = x.TextSize
				}
				if largest == nil || x.TextSize > largest.TextSize {
					largest = x
				}
			}
		}
		if question == 0 || largest.TextSize > question {
			t.Errorf("the question is drawn at %v, %q at %v", question, largest.Text, largest.TextSize)
		}
	})
}

// TestShortLinkRequestShowsWhole opens a URL request with a short message:
// what the server wrote shows without scrolling.
func TestShortLinkRequestShowsWhole(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	h.ask(context.Background(), servers.Identity{Name: "shop", Target: "https://shop.example/mcp"},
		servers.Params{Message: "Sign in to continue.", Mode: servers.ModeURL, ElicitationID: "e", URL: "https://shop.example/login"})
	r := h.request(0)
	h.ui(func() {
		var said *wheel.Scroll
		for _, o := range test.LaidOutObjects(content(r)) {
			if s, ok := o.(*wheel.Scroll); ok {
				said = s
			}
		}
		if said == nil {
			t.Error("no scroll for what the server wrote")
			return
		}
		if got, room := said.Content.Size().Height, said.Size().Height; got > room {
			t.Errorf("what the server wrote is %v tall in a view of %v", got, room)
		}
	})
}
