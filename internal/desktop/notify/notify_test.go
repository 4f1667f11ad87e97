package notify

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/godbus/dbus/v5"

	"github.com/elicitdesk/elicitdesk/internal/testkit/dbustest"
)

// call is one Notify the fake server received.
type call struct {
	app, icon, summary, body string
	replaces                 uint32
	actions                  []string
	hints                    map[string]dbus.Variant
	timeout                  int32
}

// server is a fake notification server: it records what it is asked.
type server struct {
	caps     []string
	notified chan call
	closed   chan uint32
	next     uint32
}

func (s *server) GetCapabilities() ([]string, *dbus.Error) { return s.caps, nil }

func (s *server) Notify(app string, replaces uint32, icon, summary, body string, actions []string, hints map[string]dbus.Variant, timeout int32) (uint32, *dbus.Error) {
	s.next++
	s.notified <- call{app, icon, summary, body, replaces, actions, hints, timeout}
	return s.next, nil
}

func (s *server) CloseNotification(id uint32) *dbus.Error {
	s.closed <- id
	return nil
}

// serve runs a fake server with caps on a private bus and returns the
// bus's address and the server's connection.
func serve(t *testing.T, caps []string) (string, *server, *dbus.Conn) {
	t.Helper()
	addr := dbustest.Bus(t)
	s, conn := serveOn(t, addr, caps)
	return addr, s, conn
}

// serveOn runs a fake server with caps on the bus at addr.
func serveOn(t *testing.T, addr string, caps []string) (*server, *dbus.Conn) {
	t.Helper()
	conn := dbustest.Own(t, addr, service)
	s := &server{caps: caps, notified: make(chan call, 1), closed: make(chan uint32, 1)}
	if err := conn.Export(s, path, iface); err != nil {
		t.Fatal(err)
	}
	return s, conn
}

func TestClientAgainstAServer(t *testing.T) {
	addr, s, serverConn := serve(t, []string{"actions", "body"})
	clicked, gone := make(chan uint32, 1), make(chan uint32, 1)
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(context.Background(), conn, Options{
		AppName: "Elicit Desk", Icon: "file:///icon.png", DesktopEntry: "io.github.elicitdesk",
		OnClick:  func(id uint32) { clicked <- id },
		OnClosed: func(id uint32) { gone <- id },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	id, err := c.Notify(context.Background(), Notice{Summary: "demo asks", Body: "<b>Deploy</b>?", Urgency: Critical})
	if err != nil {
		t.Fatal(err)
	}
	got := <-s.notified
	if got.app != "Elicit Desk" || got.icon != "file:///icon.png" || got.summary != "demo asks" || got.replaces != 0 || got.timeout != -1 {
		t.Errorf("Notify got %+v", got)
	}
	if got.body != "<b>Deploy</b>?" {
		t.Errorf("a server without body-markup got the body %q", got.body)
	}
	if len(got.actions) != 2 || got.actions[0] != defaultAction {
		t.Errorf("actions %q: clicking the body does nothing", got.actions)
	}
	if e := got.hints["desktop-entry"].Value(); e != "io.github.elicitdesk" {
		t.Errorf("desktop-entry hint %v", e)
	}
	if u := got.hints["urgency"].Value(); u != byte(Critical) {
		t.Errorf("urgency hint %v", u)
	}

	if err := serverConn.Emit(path, iface+".ActionInvoked", id, "other"); err != nil {
		t.Fatal(err)
	}
	if err := serverConn.Emit(path, iface+".ActionInvoked", id, defaultAction); err != nil {
		t.Fatal(err)
	}
	if got := <-clicked; got != id {
		t.Errorf("clicked %d, want %d", got, id)
	}

	if err := c.Withdraw(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	if got := <-s.closed; got != id {
		t.Errorf("CloseNotification(%d), want %d", got, id)
	}
	if err := serverConn.Emit(path, iface+".NotificationClosed", id, uint32(3)); err != nil {
		t.Fatal(err)
	}
	if got := <-gone; got != id {
		t.Errorf("closed %d, want %d", got, id)
	}
	select {
	case id := <-clicked:
		t.Errorf("an action other than the default was a click on %d", id)
	default:
	}
}

func TestMarkupIsEscapedWhereTheServerReadsIt(t *testing.T) {
	addr, s, _ := serve(t, []string{"body", "body-markup"})
	c, err := New(context.Background(), dbustest.Conn(t, addr), Options{AppName: "Elicit Desk"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Notify(context.Background(), Notice{Summary: "<i>s</i>", Body: "<a href='x'>A & B</a>"}); err != nil {
		t.Fatal(err)
	}
	got := <-s.notified
	if got.body != "&lt;a href='x'&gt;A &amp; B&lt;/a&gt;" {
		t.Errorf("body %q", got.body)
	}
	if got.summary != "<i>s</i>" { // the spec's summary is never markup
		t.Errorf("summary %q", got.summary)
	}
}

// TestServerStartedLater: a client started while no notification server
// runs says so, and shows its next notice once one has started (mako
// started after the app, a daemon restarted), with the markup it reads.
func TestServerStartedLater(t *testing.T) {
	addr := dbustest.Bus(t)
	c, err := New(context.Background(), dbustest.Conn(t, addr), Options{AppName: "Elicit Desk"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Check(context.Background()); err == nil {
		t.Error("Check: nil with no notification server on the bus")
	}
	if _, err := c.Notify(context.Background(), Notice{Summary: "demo asks"}); err == nil {
		t.Error("Notify: nil with no notification server on the bus")
	}
	s, _ := serveOn(t, addr, []string{"body", "body-markup"})
	if _, err := c.Notify(context.Background(), Notice{Summary: "demo asks", Body: "A & B"}); err != nil {
		t.Fatalf("Notify once a server runs: %v", err)
	}
	if got := <-s.notified; got.summary != "demo asks" || got.body != "A &amp; B" {
		t.Errorf("the server got %+v", got)
	}
}

func TestBody(t *testing.T) {
	raw, err := os.ReadFile("testdata/bodies.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct{ Name, Text, Markup string }
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			if got := Body(tt.Text, false); got != tt.Text {
				t.Errorf("plain server: %q", got)
			}
			if got := Body(tt.Text, true); got != tt.Markup {
				t.Errorf("markup server: %q, want %q", got, tt.Markup)
			}
		})
	}
}

func FuzzBody(f *testing.F) {
	f.Add("<b>x</b> & y")
	f.Fuzz(func(t *testing.T, text string) {
		got := Body(text, true)
		for i := 0; i < len(got); i++ {
			if got[i] == '<' || got[i] == '>' {
				t.Fatalf("%q escaped to %q", text, got)
			}
		}
	})
}
