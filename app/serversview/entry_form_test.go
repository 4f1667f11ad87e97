package serversview

import (
	"maps"
	"reflect"
	"testing"

	"github.com/elicitdesk/elicitdesk/servers/config"
)

func TestEntryFormChecks(t *testing.T) {
	taken := func(name string) bool { return name == "demo" }
	stdio := entryForm{Name: "files", Transport: config.TransportStdio, CommandLine: "npx -y files", Protocol: negotiate}
	remote := entryForm{Name: "remote", Transport: config.TransportHTTP, URL: "https://mcp.example.com/mcp", Protocol: negotiate}
	with := func(f entryForm, change func(*entryForm)) entryForm { change(&f); return f }
	for _, tc := range []struct {
		name string
		form entryForm
		errs formErrors
	}{
		{"stdio", stdio, nil},
		{"remote", remote, nil},
		{"sse", with(remote, func(f *entryForm) { f.Transport = config.TransportSSE }), nil},
		{"empty name", with(stdio, func(f *entryForm) { f.Name = "" }), formErrors{fieldName: "Give the server a name."}},
		{"padded name", with(stdio, func(f *entryForm) { f.Name = " files" }), formErrors{fieldName: "Remove the spaces at the start or end of the name."}},
		{"taken name", with(stdio, func(f *entryForm) { f.Name = "demo" }), formErrors{fieldName: `Another server is already called "demo".`}},
		{"no command", with(stdio, func(f *entryForm) { f.CommandLine = "  " }), formErrors{fieldCommand: "Enter the command that starts the server."}},
		{"empty command", with(stdio, func(f *entryForm) { f.CommandLine = "'' arg" }), formErrors{fieldCommand: "Enter the command that starts the server."}},
		{"open quote", with(stdio, func(f *entryForm) { f.CommandLine = "npx 'files" }), formErrors{fieldCommand: "The command line cannot be read: a ' quote is not closed."}},
		{"relative cwd", with(stdio, func(f *entryForm) { f.Cwd = "project" }), formErrors{fieldCwd: "Enter a full path, such as /home/me/project, or leave it empty."}},
		{"env without =", with(stdio, func(f *entryForm) { f.Env = "A=1\n\nNOEQUALS\n" }), formErrors{fieldEnv: "Line 3: write KEY=VALUE."}},
		{"env empty key", with(stdio, func(f *entryForm) { f.Env = "=1" }), formErrors{fieldEnv: "Line 1: the name before = is empty."}},
		{"env spaced key", with(stdio, func(f *entryForm) { f.Env = "A =1" }), formErrors{fieldEnv: `Line 1: remove the spaces around "A".`}},
		{"env twice", with(stdio, func(f *entryForm) { f.Env = "A=1\nA=2" }), formErrors{fieldEnv: "Line 2: A is already set above."}},
		{"no url", with(remote, func(f *entryForm) { f.URL = "" }), formErrors{fieldURL: "Enter an http:// or https:// URL, such as https://mcp.example.com/mcp."}},
		{"ftp url", with(remote, func(f *entryForm) { f.URL = "ftp://example.com" }), formErrors{fieldURL: "Enter an http:// or https:// URL, such as https://mcp.example.com/mcp."}},
		{"url without host", with(remote, func(f *entryForm) { f.URL = "https:///mcp" }), formErrors{fieldURL: "Enter an http:// or https:// URL, such as https://mcp.example.com/mcp."}},
		{"old header habit", with(remote, func(f *entryForm) { f.Headers = "Authorization=Bearer x" }), formErrors{fieldHeaders: "Line 1: write Name: value, with a colon as HTTP does, not Name=value."}},
		{"hidden stdio inputs are not checked", with(remote, func(f *entryForm) { f.Env = "junk"; f.CommandLine = "'" }), nil},
		{"everything wrong", entryForm{Transport: config.TransportStdio, Env: "x", Cwd: "rel", Protocol: negotiate}, formErrors{
			fieldName: "Give the server a name.", fieldCommand: "Enter the command that starts the server.",
			fieldCwd: "Enter a full path, such as /home/me/project, or leave it empty.", fieldEnv: "Line 1: write KEY=VALUE.",
		}},
	} {
		_, errs := tc.form.entry(config.Server{}, taken)
		if !maps.Equal(errs, tc.errs) {
			t.Errorf("%s: errors %q, want %q", tc.name, errs, tc.errs)
		}
	}
}

func TestEntryFormBuildsEntry(t *testing.T) {
	f := entryForm{
		Name: "files", Transport: config.TransportStdio,
		CommandLine: `npx -y 'my server'`, Cwd: "/srv", Env: "ROOT=/srv\nEMPTY=\nEQ=a=b\n",
		URL: "https://ignored.example.com", Headers: "Ignored=1",
		Protocol: "2025-11-25", Disabled: true,
	}
	got, errs := f.entry(config.Server{Name: "old", URL: "https://old.example.com", Transport: config.TransportHTTP}, func(string) bool { return false })
	if errs != nil {
		t.Fatal(errs)
	}
	want := config.Server{
		Name: "files", Command: "npx", Args: []string{"-y", "my server"}, Cwd: "/srv",
		Env:       map[string]string{"ROOT": "/srv", "EMPTY": "", "EQ": "a=b"},
		Transport: config.TransportStdio, ProtocolVersion: "2025-11-25", Disabled: true,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("entry = %+v\nwant %+v", got, want)
	}
}

// An entry shown in the dialog and saved unchanged is the same entry.
func TestEntryFormRoundTrip(t *testing.T) {
	for _, s := range []config.Server{
		{Name: "demo", Command: "/usr/bin/elicitdesk", Args: []string{"demo-server"}, Transport: config.TransportStdio},
		{Name: "odd", Command: "/opt/a b/srv", Args: []string{"", "it's", `"x"`}, Env: map[string]string{"A": "1", "B": "x=y"}, Cwd: "/tmp", Transport: config.TransportStdio, Disabled: true},
		{Name: "remote", URL: "https://mcp.example.com/mcp?a=1&b=2", Headers: map[string]string{"Authorization": "Bearer t"}, Transport: config.TransportHTTP, ProtocolVersion: "2025-06-18"},
		{Name: "legacy", URL: "http://localhost:8080/sse", Transport: config.TransportSSE},
	} {
		f := formFromEntry(s)
		got, errs := f.entry(s, func(string) bool { return false })
		if errs != nil || !reflect.DeepEqual(got, s) {
			t.Errorf("%s: round trip = %+v, %v\nwant %+v", s.Name, got, errs, s)
		}
	}
}

// A broken entry fills in what could be read, with the pickers on values
// they offer.
func TestFormFromBrokenEntry(t *testing.T) {
	f := formFromEntry(config.Server{Name: "bad", URL: "https://x.example.com", Transport: "websocket", ProtocolVersion: "1999-01-01"})
	want := entryForm{Name: "bad", Transport: config.TransportHTTP, URL: "https://x.example.com", Protocol: negotiate}
	if f != want {
		t.Errorf("form = %+v, want %+v", f, want)
	}
	if f := formFromEntry(config.Server{Name: "none"}); f.Transport != config.TransportStdio {
		t.Errorf("an entry with neither command nor url gets transport %q, want stdio", f.Transport)
	}
}
