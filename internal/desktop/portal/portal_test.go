package portal

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/godbus/dbus/v5"

	"github.com/elicitdesk/elicitdesk/internal/testkit/dbustest"
)

// fakePortal answers SaveFile as a desktop portal would: the request's
// handle at once, the person's choice later, as a Response signal sent to
// the caller alone.
type fakePortal struct {
	conn    *dbus.Conn
	code    uint32
	uri     string
	options chan map[string]dbus.Variant
}

func (p *fakePortal) SaveFile(sender dbus.Sender, parent, title string, options map[string]dbus.Variant) (dbus.ObjectPath, *dbus.Error) {
	p.options <- options
	token, _ := options["handle_token"].Value().(string)
	who := strings.ReplaceAll(strings.TrimPrefix(string(sender), ":"), ".", "_")
	handle := dbus.ObjectPath("/org/freedesktop/portal/desktop/request/" + who + "/" + token)
	results := map[string]dbus.Variant{}
	if p.uri != "" {
		results["uris"] = dbus.MakeVariant([]string{p.uri})
	}
	// Sent before the reply: a client that subscribed late misses it.
	p.conn.Emit(handle, requestIface+".Response", p.code, results)
	return handle, nil
}

func TestSaveFile(t *testing.T) {
	tests := []struct {
		name string
		code uint32
		uri  string
		want string
		err  error
	}{
		{"chosen", responseSuccess, "file:///home/ada/My%20history.jsonl", "/home/ada/My history.jsonl", nil},
		{"cancelled", responseCancelled, "", "", nil},
		{"no dialog", 2, "", "", ErrNoPortal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			addr := dbustest.Bus(t)
			p := &fakePortal{conn: dbustest.Own(t, addr, service), code: tt.code, uri: tt.uri, options: make(chan map[string]dbus.Variant, 1)}
			if err := p.conn.Export(p, objectPath, fileChooser); err != nil {
				t.Fatal(err)
			}
			got, err := SaveFile(context.Background(), dbustest.Conn(t, addr), SaveOptions{
				Title: "Export the history", CurrentName: "history.jsonl",
				Filters: []Filter{{"JSON Lines", []string{"*.jsonl"}}},
			})
			if got != tt.want || !errors.Is(err, tt.err) || (tt.err == nil && err != nil) {
				t.Errorf("SaveFile = %q, %v; want %q, %v", got, err, tt.want, tt.err)
			}
			options := <-p.options
			if name := options["current_name"].Value(); name != "history.jsonl" {
				t.Errorf("current_name %v", name)
			}
			if f := options["filters"].String(); !strings.Contains(f, "JSON Lines") || !strings.Contains(f, "*.jsonl") {
				t.Errorf("filters %s", f)
			}
		})
	}
}

func TestNoPortal(t *testing.T) {
	addr := dbustest.Bus(t)
	_, err := SaveFile(context.Background(), dbustest.Conn(t, addr), SaveOptions{Title: "Export"})
	if !errors.Is(err, ErrNoPortal) {
		t.Errorf("with no portal on the bus: %v", err)
	}
}

func TestCallError(t *testing.T) {
	tests := []struct {
		err  error
		none bool
	}{
		{dbus.Error{Name: "org.freedesktop.DBus.Error.ServiceUnknown"}, true},
		{dbus.Error{Name: "org.freedesktop.DBus.Error.UnknownMethod"}, true},
		{dbus.Error{Name: "org.freedesktop.DBus.Error.UnknownInterface"}, true},
		{dbus.Error{Name: "org.freedesktop.DBus.Error.AccessDenied"}, false},
		{context.DeadlineExceeded, false},
	}
	for _, tt := range tests {
		if got := errors.Is(callError(tt.err), ErrNoPortal); got != tt.none {
			t.Errorf("callError(%v) is ErrNoPortal: %v, want %v", tt.err, got, tt.none)
		}
	}
}

// TestSaveOptionsTypes checks the D-Bus types the portal's spec gives
// the options, which a fake portal cannot see once decoded.
func TestSaveOptionsTypes(t *testing.T) {
	options := saveOptions("t", SaveOptions{CurrentName: "h.jsonl", Filters: []Filter{{"JSON Lines", []string{"*.jsonl"}}}})
	want := map[string]string{"handle_token": "s", "modal": "b", "current_name": "s", "filters": "a(sa(us))", "current_filter": "(sa(us))"}
	for name, sig := range want {
		if got := options[name].Signature().String(); got != sig {
			t.Errorf("%s has type %s, want %s", name, got, sig)
		}
	}
}
