//go:build linux || freebsd || openbsd || netbsd

package atspi

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"fyne.io/fyne/v2"
	"github.com/godbus/dbus/v5"
)

// The at-spi bus launcher's names: it owns the accessibility bus and says
// whether anything that reads the screen is running.
const (
	launcherName = "org.a11y.Bus"
	registryName = "org.a11y.atspi.Registry"
	launcherPath = dbus.ObjectPath("/org/a11y/bus")
	statusIface  = "org.a11y.Status"
)

// Start makes app's windows readable and operable by screen readers
// through AT-SPI2, while one runs. Until then it costs one goroutine
// blocked on the session bus Fyne already has: no accessibility bus, no
// tree, no timer. It gives up quietly where there is no session bus.
// name is what a screen reader calls the application.
func Start(ctx context.Context, app fyne.App, name string, log *slog.Logger) {
	session, err := dbus.SessionBus() // Fyne's shared connection, not to be closed
	if err != nil {
		log.Debug("no screen readers: no session bus", "err", err)
		return
	}
	rules := [][]dbus.MatchOption{
		{dbus.WithMatchObjectPath(launcherPath), dbus.WithMatchInterface("org.freedesktop.DBus.Properties"), dbus.WithMatchMember("PropertiesChanged")},
		{dbus.WithMatchSender("org.freedesktop.DBus"), dbus.WithMatchMember("NameOwnerChanged"), dbus.WithMatchArg(0, launcherName)},
	}
	for _, r := range rules {
		if err := session.AddMatchSignalContext(ctx, r...); err != nil {
			log.Warn("no screen readers: the session bus refused a match rule", "err", err)
			return
		}
	}
	signals := make(chan *dbus.Signal, 8)
	session.Signal(signals)
	go func() {
		defer session.RemoveSignal(signals)
		w := &watcher{session: session, view: newView(app, name), log: log}
		defer w.stop()
		w.check(ctx)
		for {
			select {
			case <-ctx.Done():
				return
			case sig, ok := <-signals:
				if !ok {
					return
				}
				if sig.Path == launcherPath || isLauncherOwner(sig) {
					w.check(ctx)
				}
			}
		}
	}()
}

// isLauncherOwner is whether sig says the launcher's name changed hands:
// Fyne's connection hears other names' changes too.
func isLauncherOwner(sig *dbus.Signal) bool {
	if sig.Name != "org.freedesktop.DBus.NameOwnerChanged" || len(sig.Body) == 0 {
		return false
	}
	name, _ := sig.Body[0].(string)
	return name == launcherName
}

// watcher serves the accessibility bus while a screen reader wants it.
type watcher struct {
	session *dbus.Conn
	view    *view
	log     *slog.Logger
	serving *serving // nil while not serving
}

// serving is the app on the accessibility bus.
type serving struct {
	stop context.CancelFunc
	done <-chan struct{} // closed once off the bus, by stop or the bus's end
}

// check starts or stops serving as the launcher's status says. A bus
// that ended by itself counts as not served: the launcher's return, or
// its next status, serves a new one.
func (w *watcher) check(ctx context.Context) {
	if w.serving != nil {
		select {
		case <-w.serving.done:
			w.serving = nil
		default:
		}
	}
	want := w.wanted(ctx)
	switch {
	case want && w.serving == nil:
		sctx, cancel := context.WithCancel(ctx)
		done, err := serve(sctx, w.session, w.view, w.log)
		if err != nil {
			cancel()
			w.log.Warn("screen readers cannot read the windows", "err", err)
			return
		}
		w.serving = &serving{stop: cancel, done: done}
		w.log.Info("a screen reader runs: the windows are on the accessibility bus")
	case !want && w.serving != nil:
		w.stop()
		w.log.Info("no screen reader any more: the windows left the accessibility bus")
	}
}

// stop takes the app off the accessibility bus and waits until it is.
func (w *watcher) stop() {
	if w.serving != nil {
		w.serving.stop()
		<-w.serving.done
		w.serving = nil
	}
}

// wanted is whether the launcher runs and says that assistive technology,
// a screen reader or another, is on.
func (w *watcher) wanted(ctx context.Context) bool {
	var owned bool
	if err := w.session.BusObject().CallWithContext(ctx, "org.freedesktop.DBus.NameHasOwner", 0, launcherName).Store(&owned); err != nil || !owned {
		return false
	}
	launcher := w.session.Object(launcherName, launcherPath)
	for _, p := range []string{"IsEnabled", "ScreenReaderEnabled"} {
		v, err := launcher.GetProperty(statusIface + "." + p)
		if on, ok := v.Value().(bool); err == nil && ok && on {
			return true
		}
	}
	return false
}

// serve connects to the accessibility bus, puts the app on the desktop
// and tells of changes until ctx or the bus ends; done is closed then.
func serve(ctx context.Context, session *dbus.Conn, v *view, log *slog.Logger) (done <-chan struct{}, err error) {
	var addr string
	if err := session.Object(launcherName, launcherPath).CallWithContext(ctx, launcherName+".GetAddress", 0).Store(&addr); err != nil {
		return nil, fmt.Errorf("no accessibility bus address: %w", err)
	}
	// Not dialled with ctx: godbus would close the connection as ctx
	// ends, before the app could leave the desktop (Unembed).
	conn, err := dbus.Dial(addr)
	if err != nil {
		return nil, fmt.Errorf("accessibility bus: %w", err)
	}
	if err = conn.Auth(nil); err == nil {
		err = conn.Hello()
	}
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("accessibility bus: %w", err)
	}
	// The desktop is the registry's root: set before a call can ask.
	registry := conn.Object(registryName, rootPath)
	s := &server{ctx: ctx, conn: conn, view: v, desktop: ref{registryName, rootPath}}
	if err := s.export(); err != nil {
		conn.Close()
		return nil, err
	}
	self := ref{conn.Names()[0], rootPath}
	var desktop ref
	if err := registry.CallWithContext(ctx, "org.a11y.atspi.Socket.Embed", 0, self).Store(&desktop); err != nil {
		conn.Close()
		return nil, fmt.Errorf("the registry did not take the app: %w", err)
	}
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		defer conn.Close()
		s.watch(ctx, log)
		unembed, cancel := context.WithTimeout(context.WithoutCancel(ctx), uiWait)
		defer cancel()
		registry.CallWithContext(unembed, "org.a11y.atspi.Socket.Unembed", 0, self)
	}()
	return ended, nil
}

// watch compares the tree with the one before, watchEvery, and tells the
// bus what changed, until ctx or the bus connection ends.
func (s *server) watch(ctx context.Context, log *slog.Logger) {
	prev, err := s.view.rebuild(ctx)
	if err != nil {
		log.Debug("no tree yet", "err", err)
	}
	tick := time.NewTicker(watchEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.conn.Context().Done():
			log.Info("the accessibility bus went away")
			return
		case <-tick.C:
		}
		next, err := s.view.rebuild(ctx)
		if err != nil {
			continue
		}
		if prev != nil {
			s.tell(prev, next)
		}
		prev = next
	}
}

// tell sends the events between two trees.
func (s *server) tell(prev, next *tree) {
	for _, e := range changes(prev, next) {
		var value any = e.value
		if n, ok := e.value.(*node); ok {
			value = s.ref(n)
		}
		s.conn.Emit(s.path(e.node), "org.a11y.atspi.Event."+e.class+"."+e.member,
			e.kind, e.detail1, e.detail2, dbus.MakeVariant(value), map[string]dbus.Variant{})
	}
}
