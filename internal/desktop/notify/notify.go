// Package notify shows and withdraws desktop notifications through the
// freedesktop Notifications API on the D-Bus session bus, which Linux and
// BSD desktops implement: Notify returns an id, CloseNotification(id)
// withdraws, and the ActionInvoked and NotificationClosed signals tell of
// clicks and of notifications gone. Fyne's own notifications can do none
// of this.
//
// The text of a notice may come from anyone: a body is escaped here, in
// one place, for servers that read markup in it.
package notify

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/godbus/dbus/v5"
)

// The freedesktop Notifications service, where the desktop's notification
// server answers.
const (
	service = "org.freedesktop.Notifications"
	path    = dbus.ObjectPath("/org/freedesktop/Notifications")
	iface   = service
)

// defaultAction is the action a server invokes when the person clicks the
// notification's body.
const defaultAction = "default"

// Urgency is how urgent a notice is, as the spec's urgency hint.
type Urgency byte

// The spec's urgency levels.
const (
	Low Urgency = iota
	Normal
	Critical
)

// Notice is one notification. Summary and Body are plain text.
type Notice struct {
	Summary string
	Body    string
	Urgency Urgency
}

// Options say who notifies and what becomes of clicks.
type Options struct {
	AppName string
	// Icon is the app_icon: an icon name or a file:// URI.
	Icon string
	// DesktopEntry is the app's desktop entry, without ".desktop", which
	// servers use to group and label its notifications.
	DesktopEntry string
	// OnClick, if not nil, is told the id of a notification whose body the
	// person clicked. It runs on the client's own goroutine.
	OnClick func(id uint32)
	// OnClosed, if not nil, is told the id of a notification that went
	// away: dismissed, expired or withdrawn. It runs on the client's own
	// goroutine.
	OnClosed func(id uint32)
}

// Client is a connection to the desktop's notification server.
type Client struct {
	conn    *dbus.Conn
	obj     dbus.BusObject
	opts    Options
	signals chan *dbus.Signal
	done    chan struct{} // closed when the signal loop has ended
	once    sync.Once

	mu     sync.Mutex
	asked  bool // a server has said its capabilities
	markup bool // the server reads markup in bodies
}

// New starts a client on conn, which it owns from then on and closes in
// Close. A notification server need not answer yet: one that starts later
// (mako started after the app, a daemon restarted) shows the next notice.
// Check says whether one answers now.
func New(ctx context.Context, conn *dbus.Conn, opts Options) (*Client, error) {
	c := &Client{conn: conn, obj: conn.Object(service, path), opts: opts, signals: make(chan *dbus.Signal, 16), done: make(chan struct{})}
	// Subscribed before the first Notify, so no click can come unheard.
	if err := conn.AddMatchSignalContext(ctx, dbus.WithMatchObjectPath(path), dbus.WithMatchInterface(iface)); err != nil {
		return nil, err
	}
	conn.Signal(c.signals)
	go c.listen()
	return c, nil
}

// Check asks the notification server what it can do, once one answers,
// and fails while none does.
func (c *Client) Check(ctx context.Context) error {
	c.mu.Lock()
	asked := c.asked
	c.mu.Unlock()
	if asked {
		return nil
	}
	var caps []string
	if err := c.obj.CallWithContext(ctx, iface+".GetCapabilities", 0).Store(&caps); err != nil {
		return fmt.Errorf("no notification server: %w", err)
	}
	c.mu.Lock()
	c.asked, c.markup = true, slices.Contains(caps, "body-markup")
	c.mu.Unlock()
	return nil
}

// listen passes the server's signals on until the connection closes.
func (c *Client) listen() {
	defer close(c.done)
	for s := range c.signals {
		if s.Path != path || len(s.Body) < 2 {
			continue
		}
		id, _ := s.Body[0].(uint32)
		switch s.Name {
		case iface + ".ActionInvoked":
			if action, _ := s.Body[1].(string); action == defaultAction && c.opts.OnClick != nil {
				c.opts.OnClick(id)
			}
		case iface + ".NotificationClosed":
			if c.opts.OnClosed != nil {
				c.opts.OnClosed(id)
			}
		}
	}
}

// Notify shows n and returns the id the server gave it.
func (c *Client) Notify(ctx context.Context, n Notice) (uint32, error) {
	if err := c.Check(ctx); err != nil {
		return 0, err
	}
	c.mu.Lock()
	markup := c.markup
	c.mu.Unlock()
	hints := map[string]dbus.Variant{"urgency": dbus.MakeVariant(byte(n.Urgency))}
	if c.opts.DesktopEntry != "" {
		hints["desktop-entry"] = dbus.MakeVariant(c.opts.DesktopEntry)
	}
	var id uint32
	err := c.obj.CallWithContext(ctx, iface+".Notify", 0,
		c.opts.AppName, uint32(0), c.opts.Icon, n.Summary, Body(n.Body, markup),
		[]string{defaultAction, "Open"}, hints, int32(-1), // -1: the server's own timeout
	).Store(&id)
	return id, err
}

// Withdraw takes the notification id off the screen.
func (c *Client) Withdraw(ctx context.Context, id uint32) error {
	return c.obj.CallWithContext(ctx, iface+".CloseNotification", 0, id).Err
}

// Close ends the connection and waits until no callback runs any more.
func (c *Client) Close() error {
	var err error
	c.once.Do(func() {
		err = c.conn.Close() // closes c.signals, ending listen
		<-c.done
	})
	return err
}

// markupEscaper escapes what a server that reads markup would take for it.
var markupEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// Body is text as a notification's body: escaped where the server reads
// markup (it says so with the "body-markup" capability), as it is otherwise.
func Body(text string, markup bool) string {
	if !markup {
		return text
	}
	return markupEscaper.Replace(text)
}
