package hosts

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/elicitdesk/elicitdesk/servers/config"
)

const (
	exe    = "/opt/Elicit Desk/bin/elicitdesk"
	oldExe = "/usr/local/bin/elicitdesk"
)

// ours are the binaries the tests route with: exe, and oldExe, which an
// earlier route recorded.
func ours() Binaries { return Binaries{Exe: exe, Recorded: []string{oldExe}} }

// sameProgram are the hosts that are another's program under another
// name or in another place, and write their configs as it does: they
// share its sample.
var sameProgram = map[string]string{"vscode-insiders": "vscode", "vscodium": "vscode", "zed-flatpak": "zed"}

// sample is a host of the table whose config is a copy of the sample
// under testdata/samples named for it.
func sample(t *testing.T, id string) Host {
	t.Helper()
	h, ok := Lookup(everyHost(Env{Home: "/home/x", Getenv: func(string) string { return "" }}), id)
	if !ok {
		t.Fatalf("no host %q", id)
	}
	name := id
	if same, ok := sameProgram[id]; ok {
		name = same
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "samples", name+".*"))
	if len(files) != 1 {
		t.Fatalf("samples of %s: %v", id, files)
	}
	h.Config = filepath.Join(t.TempDir(), filepath.Base(h.Config))
	copyFile(t, files[0], h.Config)
	return h
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o640); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, h Host) *Config {
	t.Helper()
	c, err := Read(h, ours())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// apply plans with plan on a fresh read of h's config and writes it.
func apply(t *testing.T, h Host, plan func(*Config) (*Plan, error)) *Plan {
	t.Helper()
	p, err := plan(read(t, h))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	return p
}

func route(names ...string) func(*Config) (*Plan, error) {
	return func(c *Config) (*Plan, error) { return c.Route(names...) }
}

func unroute(names ...string) func(*Config) (*Plan, error) {
	return func(c *Config) (*Plan, error) { return c.Unroute(names...) }
}

// everyHost are the hosts Elicit Desk edits on Linux or macOS under env,
// each once: BoltAI is macOS's alone, Zed's Flatpak Linux's.
func everyHost(env Env) []Host {
	var all []Host
	for _, goos := range []string{"linux", "darwin"} {
		env.GOOS = goos
		for _, h := range Known(env) {
			if _, dup := Lookup(all, h.ID); !dup && h.ReadOnly == "" {
				all = append(all, h)
			}
		}
	}
	return all
}

// refused are the entries of the samples that route leaves alone, by
// host and name: each for a reason of its own, which TestRefusedRemote
// checks.
var refused = map[string][]string{"codex": {"figma"}, "gemini": {"untyped"}, "opencode": {"context7"}, "cline": {"legacy"}, "kilo-code": {"untyped"},
	"devin": {"notion"}, "kimi": {"legacy", "linear"}, "goose": {"remote docs"}, "continue": {"Legacy SSE", "untyped"}, "hermes": {"oauth_one"}, "crush": {"github"},
	"grok": {"linear"}, "anythingllm": {"untyped"}, "pi": {"untyped"}}

// noRemote are the hosts whose remote entries route leaves alone, each
// for its reason: Goose keeps a remote extension's envs and headers apart.
var noRemote = map[string]bool{"goose": true}

// TestRoundTrip routes every server of each host's sample, stdio and
// remote, checks the host would now run each through the bridge with
// everything else as it was, and unroutes them to get the same bytes back.
func TestRoundTrip(t *testing.T) {
	for _, h := range everyHost(Env{Getenv: os.Getenv}) {
		t.Run(h.ID, func(t *testing.T) {
			h := sample(t, h.ID)
			orig, _ := os.ReadFile(h.Config)
			before := read(t, h)
			p := apply(t, h, route())
			var routed []string
			stdio, remote := 0, 0
			for _, ch := range p.Changes {
				routed = append(routed, ch.Server)
				if s, _ := before.Server(ch.Server); s.Transport == config.TransportStdio {
					stdio++
				} else {
					remote++
				}
			}
			if stdio < 3 || remote < 1 && !noRemote[h.ID] {
				t.Errorf("routed %d stdio and %d remote servers, want 3 and 1 at least", stdio, remote)
			}
			for _, s := range before.Servers {
				if s.Err == nil && !slices.Contains(routed, s.Name) && !slices.Contains(refused[h.ID], s.Name) {
					t.Errorf("%s was not routed: %+v", s.Name, p.Skipped)
				}
			}
			after := read(t, h)
			for i, s := range before.Servers {
				got := after.Servers[i]
				if !reflect.DeepEqual(entryOf(got), entryOf(s)) || (got.Err == nil) != (s.Err == nil) {
					t.Errorf("after route %s:\n got %+v\nwant %+v", s.Name, entryOf(got), entryOf(s))
				}
				if slices.Contains(routed, s.Name) && (got.Command != exe || !got.Routed() || got.Transport != config.TransportStdio || !namedAs(got, s.Name)) {
					t.Errorf("after route the host runs %s as %s %q", s.Name, got.Command, got.Args)
				}
			}
			if again := apply(t, h, route()); len(again.Changes) != 0 {
				t.Errorf("routing twice changed %+v", again.Changes)
			}
			apply(t, h, unroute())
			if got, _ := os.ReadFile(h.Config); !bytes.Equal(got, orig) {
				t.Errorf("unroute did not give the file back:\n%s", diff(orig, got))
			}
			if fi, _ := os.Stat(h.Config); fi.Mode().Perm() != 0o640 {
				t.Errorf("mode %v, want 0640 kept", fi.Mode())
			}
			if backup, _ := os.ReadFile(h.Config + BackupSuffix); len(backup) == 0 {
				t.Error("no backup beside the config")
			}
		})
	}
}

// namedAs reports whether routed s passes the bridge name as the
// server's name, right after "bridge"; an entry without a name, none.
func namedAs(s Server, name string) bool {
	if name == "" {
		return !s.named()
	}
	return len(s.Args) > 1 && s.Args[1] == flagName+name
}

// entryOf is s.Entry() where no args and empty args are the same.
func entryOf(s Server) config.Server {
	e := s.Entry()
	if len(e.Args) == 0 {
		e.Args = nil
	}
	return e
}

// TestRouteOne routes servers one at a time, in an order unlike the
// file's, and unroutes them in another: each edit only touches its entry.
func TestRouteOne(t *testing.T) {
	for _, id := range []string{"vscode", "zed", "codex"} {
		t.Run(id, func(t *testing.T) {
			h := sample(t, id)
			orig, _ := os.ReadFile(h.Config)
			var names []string
			for _, s := range read(t, h).Servers {
				if s.Err == nil && s.Transport == config.TransportStdio {
					names = append(names, s.Name)
				}
			}
			for _, n := range slices.Backward(names) {
				if p := apply(t, h, route(n)); len(p.Changes) != 1 || p.Changes[0].Server != n {
					t.Fatalf("route %s: %+v", n, p)
				}
			}
			for i := range names {
				n := names[(i+1)%len(names)]
				apply(t, h, unroute(n))
			}
			if got, _ := os.ReadFile(h.Config); !bytes.Equal(got, orig) {
				t.Errorf("not given back:\n%s", diff(orig, got))
			}
		})
	}
}

// TestReroute points entries routed by an older binary at this one, and
// still gives the original back.
func TestReroute(t *testing.T) {
	h := sample(t, "cursor")
	orig, _ := os.ReadFile(h.Config)
	old, err := Read(h, Binaries{Exe: oldExe})
	if err != nil {
		t.Fatal(err)
	}
	if p, err := old.Route(); err != nil {
		t.Fatal(err)
	} else if _, err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	p := apply(t, h, route())
	if len(p.Changes) == 0 {
		t.Fatal("re-route changed nothing")
	}
	for _, s := range read(t, h).Servers {
		if s.Transport == config.TransportStdio && (s.Command != exe || !s.Routed()) {
			t.Errorf("%s runs %s %q", s.Name, s.Command, s.Args)
		}
	}
	apply(t, h, unroute())
	if got, _ := os.ReadFile(h.Config); !bytes.Equal(got, orig) {
		t.Errorf("not given back:\n%s", diff(orig, got))
	}
}

// TestRefused: files that cannot be read exactly are refused whole, with
// the line to look at; entries that cannot be routed are skipped, saying why.
func TestRefused(t *testing.T) {
	for _, tc := range []struct{ file, host, want string }{
		{"duplicate-keys.json", "cursor", `server "github" is named twice`},
		{"malformed.json", "cursor", "not valid JSON at line"},
		{"malformed.toml", "codex", "not valid TOML at line"},
	} {
		h := sample(t, tc.host)
		copyFile(t, filepath.Join("testdata", "samples", tc.file), h.Config)
		if _, err := Read(h, ours()); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.file, err, tc.want)
		}
	}
}

func TestNotObject(t *testing.T) {
	h := sample(t, "cursor")
	copyFile(t, filepath.Join("testdata", "samples", "not-object.json"), h.Config)
	orig, _ := os.ReadFile(h.Config)
	p, err := read(t, h).Route()
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Changes) != 1 || len(p.Skipped) < 4 {
		t.Fatalf("changes %+v skipped %+v", p.Changes, p.Skipped)
	}
	for _, s := range p.Skipped {
		if !strings.Contains(s.Reason, "line ") {
			t.Errorf("%s: %q names no line", s.Server, s.Reason)
		}
	}
	apply(t, h, route())
	apply(t, h, unroute())
	if got, _ := os.ReadFile(h.Config); !bytes.Equal(got, orig) {
		t.Errorf("not given back:\n%s", diff(orig, got))
	}
}

// TestChangedUnderUs: a host that writes its config between our read and
// our write keeps its change; nothing of ours is written.
func TestChangedUnderUs(t *testing.T) {
	h := sample(t, "zed")
	p, err := read(t, h).Route()
	if err != nil {
		t.Fatal(err)
	}
	theirs := []byte("{\"context_servers\": {}}\n")
	os.WriteFile(h.Config, theirs, 0o640)
	if _, err := p.Apply(); !errors.Is(err, ErrChanged) {
		t.Fatalf("apply: %v, want ErrChanged", err)
	}
	if got, _ := os.ReadFile(h.Config); !bytes.Equal(got, theirs) {
		t.Errorf("the host's change was lost: %s", got)
	}
}

// TestSymlink edits the file a symlinked config points to, and keeps the link.
func TestSymlink(t *testing.T) {
	h := sample(t, "claude-desktop")
	orig, _ := os.ReadFile(h.Config)
	target := filepath.Join(t.TempDir(), "dotfiles.json")
	os.Rename(h.Config, target)
	if err := os.Symlink(target, h.Config); err != nil {
		t.Skip(err)
	}
	apply(t, h, route())
	if fi, err := os.Lstat(h.Config); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v", err)
	}
	if got, _ := os.ReadFile(target); bytes.Equal(got, orig) {
		t.Fatal("the target was not edited")
	}
	apply(t, h, unroute())
	if got, _ := os.ReadFile(target); !bytes.Equal(got, orig) {
		t.Errorf("not given back:\n%s", diff(orig, got))
	}
}

// TestReadOnly: a config the person made read-only is refused whole.
func TestReadOnly(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes read-only files")
	}
	h := sample(t, "lmstudio")
	orig, _ := os.ReadFile(h.Config)
	os.Chmod(h.Config, 0o440)
	p, err := read(t, h).Route()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Apply(); err == nil || !strings.Contains(err.Error(), "cannot be written") {
		t.Fatalf("apply: %v", err)
	}
	if got, _ := os.ReadFile(h.Config); !bytes.Equal(got, orig) {
		t.Error("a read-only config was changed")
	}
}

// diff shows the first difference between want and got.
func diff(want, got []byte) string {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	from := max(0, i-80)
	return "want …" + string(want[from:min(len(want), i+80)]) + "\n got …" + string(got[from:min(len(got), i+80)])
}

// TestDuplicateKeyInEntry: an entry that gives "command" twice is left
// alone, saying where; the others are still routed.
func TestDuplicateKeyInEntry(t *testing.T) {
	h := sample(t, "cursor")
	os.WriteFile(h.Config, []byte(`{"mcpServers": {
  "twice": {"command": "a", "command": "b"},
  "once": {"command": "c"}
}}`), 0o640)
	p, err := read(t, h).Route()
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Changes) != 1 || p.Changes[0].Server != "once" || len(p.Skipped) != 1 || !strings.Contains(p.Skipped[0].Reason, `"command" is given twice, at line 2`) {
		t.Errorf("changes %+v, skipped %+v", p.Changes, p.Skipped)
	}
}

// TestEdgeCases: configs a host accepts that are easy to get wrong (in
// testdata/edge.json): which entries route, which are left alone, and
// that unroute still gives the file back.
func TestEdgeCases(t *testing.T) {
	for _, tc := range routeCases(t, "edge.json") {
		t.Run(tc.What, func(t *testing.T) {
			h := sample(t, tc.Host)
			os.WriteFile(h.Config, []byte(tc.Config), 0o640)
			c := read(t, h)
			p, err := c.Route()
			if err != nil {
				t.Fatal(err)
			}
			var routed, skipped []string
			for _, ch := range p.Changes {
				routed = append(routed, ch.Server)
			}
			for _, s := range p.Skipped {
				skipped = append(skipped, s.Server)
				if tc.Error != "" && !strings.Contains(s.Reason, tc.Error) {
					t.Errorf("%s skipped for %q, want %q", s.Server, s.Reason, tc.Error)
				}
			}
			if !slices.Equal(routed, tc.Routed) || !slices.Equal(skipped, tc.Skipped) {
				t.Fatalf("routed %q skipped %+v, want %q and %q", routed, p.Skipped, tc.Routed, tc.Skipped)
			}
			if _, err := p.Apply(); err != nil {
				t.Fatal(err)
			}
			for i, s := range read(t, h).Servers {
				if slices.Contains(tc.Routed, s.Name) && (s.Command != exe || !s.Routed() || !namedAs(s, s.Name) || !reflect.DeepEqual(entryOf(s), entryOf(c.Servers[i]))) {
					t.Errorf("%q runs %s %q", s.Name, s.Command, s.Args)
				}
			}
			apply(t, h, unroute())
			if got, _ := os.ReadFile(h.Config); string(got) != tc.Config {
				t.Errorf("not given back:\n%s", diff([]byte(tc.Config), got))
			}
		})
	}
}

// TestHeaderNames: a routed remote entry's headers reach the bridge as
// variables named with HeaderEnvPrefix, never as variables a process
// reads (LD_PRELOAD, PATH, HTTPS_PROXY); a name that is no HTTP token is
// refused, saying so; and unroute gives the file back (testdata/headers.json).
func TestHeaderNames(t *testing.T) {
	for _, tc := range routeCases(t, "headers.json") {
		t.Run(tc.What, func(t *testing.T) {
			h := sample(t, tc.Host)
			os.WriteFile(h.Config, []byte(tc.Config), 0o640)
			before := read(t, h)
			p := apply(t, h, route())
			var routed, skipped []string
			for _, ch := range p.Changes {
				routed = append(routed, ch.Server)
			}
			for _, s := range p.Skipped {
				skipped = append(skipped, s.Server)
				if !strings.Contains(s.Reason, tc.Error) {
					t.Errorf("%s skipped for %q, want %q", s.Server, s.Reason, tc.Error)
				}
			}
			if !slices.Equal(routed, tc.Routed) || !slices.Equal(skipped, tc.Skipped) {
				t.Fatalf("routed %q skipped %+v, want %q and %q", routed, p.Skipped, tc.Routed, tc.Skipped)
			}
			for _, s := range read(t, h).Servers {
				if !slices.Contains(tc.Routed, s.Name) {
					continue
				}
				orig, _ := before.Server(s.Name)
				if len(s.Env) != len(orig.Headers) {
					t.Errorf("%s: env %q for headers %q", s.Name, s.Env, orig.Headers)
				}
				for k := range s.Env {
					if !strings.HasPrefix(k, HeaderEnvPrefix) {
						t.Errorf("%s: header became the variable %q", s.Name, k)
					}
				}
				if r, ok := s.RoutedRemote(); !ok || !reflect.DeepEqual(r.Headers, orig.Headers) {
					t.Errorf("%s: the bridge sends %q, want %q", s.Name, r.Headers, orig.Headers)
				}
			}
			apply(t, h, unroute())
			if got, _ := os.ReadFile(h.Config); string(got) != tc.Config {
				t.Errorf("not given back:\n%s", diff([]byte(tc.Config), got))
			}
		})
	}
}

// TestOurs: an entry is Elicit Desk's by the binary it runs, the same
// file as this one or one route recorded, never by a name that only looks
// like it.
func TestOurs(t *testing.T) {
	dir := t.TempDir()
	this := filepath.Join(dir, "bin", "elicitdesk")
	link := filepath.Join(dir, "link", "elicitdesk")
	for _, p := range []string{this, filepath.Join(dir, "other", "elicitdesk"), filepath.Join(dir, "proxy", "elicitdesk-proxy")} {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Dir(link), 0o755)
	if err := os.Symlink(this, link); err != nil {
		t.Fatal(err)
	}
	bin := Binaries{Exe: this, Recorded: []string{oldExe}}
	for _, tc := range []struct {
		command, path string // path: PATH while reading
		ours          bool
	}{
		{this, "", true},
		{oldExe, "", true}, // recorded, since moved or removed
		{link, "", true},   // the same file
		{"elicitdesk", filepath.Dir(this), true},
		{"elicitdesk", filepath.Join(dir, "other"), false}, // another program of that name
		{filepath.Join(dir, "other", "elicitdesk"), "", false},
		{filepath.Join(dir, "proxy", "elicitdesk-proxy"), "", false},
		{"elicitdesk-proxy", filepath.Join(dir, "proxy"), false},
		{"/usr/bin/elicitdesk2", "", false},
		{"bin/elicitdesk", "", false}, // relative to wherever the host starts it
		{`C:\Program Files\Elicit Desk\ElicitDesk.exe`, "", false},
		{"", "", false},
	} {
		t.Setenv("PATH", tc.path)
		s := Server{Transport: config.TransportStdio, Command: tc.command, Args: []string{"bridge", "--", "upstream"}, known: bin.Has(tc.command)}
		if s.Routed() != tc.ours {
			t.Errorf("%s bridge -- upstream (PATH=%s): routed %v, want %v", tc.command, tc.path, s.Routed(), tc.ours)
		}
	}
}

// TestRecorded: route records the binary it writes, before the config, so
// that after an upgrade moves it the entries are still found, pointed at
// the new binary, and given back byte for byte; another program's bridge
// entry is never taken.
func TestRecorded(t *testing.T) {
	h := sample(t, "cursor")
	orig, _ := os.ReadFile(h.Config)
	record := RecordPath(t.TempDir())
	before, err := LoadBinaries("/opt/elicitdesk-1.0/bin/elicitdesk", record)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Read(h, before)
	if err != nil {
		t.Fatal(err)
	}
	p, err := c.Route()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	after, err := LoadBinaries("/opt/elicitdesk-1.1/bin/elicitdesk", record)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(after.Recorded, []string{before.Exe}) {
		t.Fatalf("recorded %q, want %q", after.Recorded, before.Exe)
	}
	if info, err := os.Stat(record); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("record: %v %v, want 0600", info, err)
	}
	c, err = Read(h, after)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range c.Servers {
		if s.Transport == config.TransportStdio && s.Err == nil && !s.Routed() {
			t.Errorf("%s is not known as routed after the upgrade", s.Name)
		}
	}
	if p, err = c.Route(); err != nil {
		t.Fatal(err)
	} else if _, err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(record); string(got) != before.Exe+"\n"+after.Exe+"\n" {
		t.Errorf("record holds %q", got)
	}
	c, _ = Read(h, Binaries{Exe: after.Exe}) // the record lost: the new binary's entries are still its own
	if p, err = c.Unroute(); err != nil {
		t.Fatal(err)
	} else if _, err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(h.Config); !bytes.Equal(got, orig) {
		t.Errorf("not given back:\n%s", diff(orig, got))
	}
}

// routeCase is a config to route and what routing it must do, as
// testdata/edge.json and testdata/headers.json hold them.
type routeCase struct {
	What, Host, Config, Error string
	Routed, Skipped           []string
}

func routeCases(t *testing.T, name string) []routeCase {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var cases []routeCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestUpgrade: entries routed before entries carried their names
// (testdata/upgrade.json, as that route wrote them) are brought up to
// date by routing again, to what routing the original writes, and
// unroute still gives the original back; a name the person gave is kept.
func TestUpgrade(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "upgrade.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct{ What, Host, Original, Routed string }
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.What, func(t *testing.T) {
			h := sample(t, tc.Host)
			os.WriteFile(h.Config, []byte(tc.Routed), 0o640)
			before := read(t, h)
			for _, s := range before.Servers {
				if !s.Routed() {
					t.Fatalf("%s is not known as routed: %s %q", s.Name, s.Command, s.Args)
				}
			}
			p := apply(t, h, route())
			upgraded, _ := os.ReadFile(h.Config)
			if tc.Original == "" {
				if len(p.Changes) != 0 || string(upgraded) != tc.Routed {
					t.Fatalf("changed %+v:\n%s", p.Changes, diff([]byte(tc.Routed), upgraded))
				}
				return
			}
			if len(p.Changes) != len(before.Servers) {
				t.Errorf("brought %d of %d entries up to date; skipped %+v", len(p.Changes), len(before.Servers), p.Skipped)
			}
			for _, ch := range p.Changes {
				if !slices.Contains(ch.To, flagName+ch.Server) || ch.To[0] != exe {
					t.Errorf("%s: plan runs %q", ch.Server, ch.To)
				}
			}
			fresh, err := parse(h, []byte(tc.Original), ours())
			if err != nil {
				t.Fatal(err)
			}
			want, err := fresh.Route()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(upgraded, want.data) {
				t.Errorf("brought up to date unlike a fresh route:\n%s", diff(want.data, upgraded))
			}
			apply(t, h, unroute())
			if got, _ := os.ReadFile(h.Config); string(got) != tc.Original {
				t.Errorf("not given back:\n%s", diff([]byte(tc.Original), got))
			}
		})
	}
}

// TestLimits: routing an entry of a host with a per-server limit (Codex,
// Zed, Goose, Hermes, Gemini CLI, Qwen Code) gives each tool call LimitSeconds,
// marked with a note, or raises a smaller number and keeps it in the
// note; the person's longer limit, and one routing cannot mark, stay; and
// unroute gives every byte back (testdata/limits.json, the files exactly).
func TestLimits(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "limits.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		What, Host, Config, Routed string
		Skipped                    []string
		Limits                     map[string]string
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.What, func(t *testing.T) {
			h := sample(t, tc.Host)
			os.WriteFile(h.Config, []byte(tc.Config), 0o640)
			p := apply(t, h, route())
			if got, _ := os.ReadFile(h.Config); string(got) != tc.Routed {
				t.Errorf("routed:\n%s", diff([]byte(tc.Routed), got))
			}
			var skipped []string
			for _, s := range p.Skipped {
				skipped = append(skipped, s.Server)
				if s.Reason != ReasonLimitNote {
					t.Errorf("%s skipped for %q", s.Server, s.Reason)
				}
			}
			if !slices.Equal(skipped, tc.Skipped) {
				t.Errorf("skipped %q, want %q", skipped, tc.Skipped)
			}
			for _, ch := range p.Changes {
				if ch.Limit != tc.Limits[ch.Server] {
					t.Errorf("%s: limit %q, want %q", ch.Server, ch.Limit, tc.Limits[ch.Server])
				}
			}
			if again := apply(t, h, route()); len(again.Changes) != 0 {
				t.Errorf("routing twice changed %+v", again.Changes)
			}
			back := apply(t, h, unroute())
			if got, _ := os.ReadFile(h.Config); string(got) != tc.Config {
				t.Errorf("not given back:\n%s", diff([]byte(tc.Config), got))
			}
			for _, ch := range back.Changes {
				if (ch.Limit == "") != (tc.Limits[ch.Server] == "") {
					t.Errorf("%s: unroute says the limit %q", ch.Server, ch.Limit)
				}
			}
		})
	}
}

// TestProjects: Claude Code's servers of a project of its own (its local
// scope, projects["<dir>"].mcpServers) are found as a scope of their own
// beside the user's, a project without servers is not, and routing one
// scope edits its entries alone, though a server of another has its name.
func TestProjects(t *testing.T) {
	h := sample(t, "claude-code")
	orig, _ := os.ReadFile(h.Config)
	found := Find([]Host{h}, ours())
	var scopes []string
	for _, f := range found {
		if f.Err != nil {
			t.Fatal(f.Err)
		}
		scopes = append(scopes, f.Host.Project+": "+serverNames(f))
	}
	want := []string{": github context7 local-bin no-args sentry asana", "/home/dev/src/elicit-demo: project-only memory context7"}
	if !slices.Equal(scopes, want) {
		t.Fatalf("found %q, want %q", scopes, want)
	}
	project := found[1].Config
	p, err := project.Route("context7")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Changes) != 1 || p.Changes[0].Project != "/home/dev/src/elicit-demo" || !slices.Contains(p.Changes[0].From, "@upstash/context7-mcp@1.0.0") {
		t.Fatalf("changes %+v", p.Changes)
	}
	if _, err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	for _, s := range read(t, h).Servers {
		if s.Routed() != (s.Name == "context7" && s.Project != "") {
			t.Errorf("%s of %q: routed %v", s.Name, s.Project, s.Routed())
		}
	}
	apply(t, h, func(c *Config) (*Plan, error) { return c.Scope("/home/dev/src/elicit-demo").Unroute() })
	if got, _ := os.ReadFile(h.Config); !bytes.Equal(got, orig) {
		t.Errorf("not given back:\n%s", diff(orig, got))
	}
}

// TestScopesFound: Claude Code's user scope is found empty only when no
// scope has servers; beside a project's servers, an empty one is not shown.
func TestScopesFound(t *testing.T) {
	for _, c := range []struct{ config, want string }{
		{`{"mcpServers": {}, "projects": {"/p": {"mcpServers": {"a": {"command": "x"}}}}}`, "/p: a"},
		{`{"projects": {"/p": {"mcpServers": {"a": {"command": "x"}}}}}`, "/p: a"},
		{`{"mcpServers": {"u": {"command": "x"}}, "projects": {"/p": {"mcpServers": {"a": {"command": "x"}}}}}`, ": u|/p: a"},
		{`{"mcpServers": {}, "projects": {"/p": {"mcpServers": {}}}}`, ": "},
		{`{}`, ": "},
	} {
		h, _ := Lookup(Known(Env{GOOS: "linux", Getenv: func(string) string { return "" }}), "claude-code")
		h.Config = filepath.Join(t.TempDir(), ".claude.json")
		if err := os.WriteFile(h.Config, []byte(c.config), 0o600); err != nil {
			t.Fatal(err)
		}
		var scopes []string
		for _, f := range Find([]Host{h}, ours()) {
			var names []string
			for _, s := range f.Config.Servers {
				names = append(names, s.Name)
			}
			scopes = append(scopes, f.Host.Project+": "+strings.Join(names, " "))
		}
		if got := strings.Join(scopes, "|"); got != c.want {
			t.Errorf("%s: found %q, want %q", c.config, got, c.want)
		}
	}
}

// TestReadOnlyHosts: a host listed read-only is found when its file is
// there, with the reason, and nothing reads or edits the file.
func TestReadOnlyHosts(t *testing.T) {
	var readOnly int
	for _, h := range Known(Env{GOOS: "linux", Getenv: func(string) string { return "" }}) {
		if h.ReadOnly == "" {
			continue
		}
		readOnly++
		h.Config = filepath.Join(t.TempDir(), filepath.Base(h.Config))
		if found := Find([]Host{h}, ours()); len(found) != 0 {
			t.Errorf("%s found without its file: %+v", h.ID, found)
		}
		orig := []byte(`{"mcpServers": {"a": {"command": "x"}}}` + "\n")
		if err := os.WriteFile(h.Config, orig, 0o600); err != nil {
			t.Fatal(err)
		}
		found := Find([]Host{h}, ours())
		if len(found) != 1 {
			t.Fatalf("%s found %d times", h.ID, len(found))
		}
		if reason, ok := ReadOnlyReason(found[0].Err); !ok || reason != h.ReadOnly || found[0].Config != nil {
			t.Errorf("%s found as %+v", h.ID, found[0])
		}
		if _, err := Read(h, ours()); err == nil || !strings.Contains(err.Error(), "read-only") {
			t.Errorf("%s read: %v", h.ID, err)
		}
		if got, _ := os.ReadFile(h.Config); !bytes.Equal(got, orig) {
			t.Errorf("%s: its file changed", h.ID)
		}
	}
	if readOnly == 0 {
		t.Error("no host is listed read-only")
	}
}
