package hosts

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// vscodeUser is a copy of the sample VS Code User folder under
// testdata/vscode-user, changed by change, and VS Code as a host of it.
func vscodeUser(t *testing.T, change func(user string)) Host {
	t.Helper()
	user := filepath.Join(t.TempDir(), "User")
	if err := os.CopyFS(user, os.DirFS(filepath.Join("testdata", "vscode-user"))); err != nil {
		t.Fatal(err)
	}
	if change != nil {
		change(user)
	}
	h, _ := Lookup(Known(Env{GOOS: "linux", Home: "/home/x", Getenv: func(string) string { return "" }}), "vscode")
	h.Config, h.Profiles = filepath.Join(user, "mcp.json"), user
	return h
}

// serverNames are the names of a found config's servers, in its order.
func serverNames(f Found) string {
	var names []string
	for _, s := range f.Config.Servers {
		names = append(names, s.Name)
	}
	return strings.Join(names, " ")
}

// foundGroups is each group Find shows as "PROFILE-ID PROFILE-NAME: SERVERS".
func foundGroups(t *testing.T, found []Found) []string {
	t.Helper()
	var groups []string
	for _, f := range found {
		if f.Err != nil {
			t.Fatal(f.Err)
		}
		groups = append(groups, strings.TrimSpace(f.Host.Profile.ID+" "+f.Host.Profile.Name)+": "+serverNames(f))
	}
	return groups
}

// TestProfilesFound: each VS Code profile with an mcp.json of its own is
// found as a group of its own after the default profile's, named as
// storage.json names it (whether its location is a folder name or, as
// older versions wrote it, a URI), in that file's order; a listed profile
// without an mcp.json is not found, and one storage.json does not list is
// found by its ID.
func TestProfilesFound(t *testing.T) {
	const (
		data = "-4a1f9e2b Data \u202eScience: jupyter memory"
		web  = "5d0c1e7a Web: playwright context7"
		not  = "7e8f9a0b 7e8f9a0b: fetch"
	)
	remove := func(elem ...string) func(string) {
		return func(user string) { os.Remove(filepath.Join(append([]string{user}, elem...)...)) }
	}
	write := func(text string, elem ...string) func(string) {
		return func(user string) {
			os.WriteFile(filepath.Join(append([]string{user}, elem...)...), []byte(text), 0o600)
		}
	}
	for _, c := range []struct {
		name   string
		change func(user string)
		want   []string
	}{
		{"sample", nil, []string{": memory", data, web, not}},
		{"no default mcp.json", remove("mcp.json"), []string{data, web, not}},
		{"no storage.json: by ID", remove("globalStorage", "storage.json"), []string{": memory", "-4a1f9e2b -4a1f9e2b: jupyter memory", "5d0c1e7a 5d0c1e7a: playwright context7", not}},
		{"storage.json not JSON", write("{", "globalStorage", "storage.json"), []string{": memory", "-4a1f9e2b -4a1f9e2b: jupyter memory", "5d0c1e7a 5d0c1e7a: playwright context7", not}},
		{"a listed profile's mcp.json gone", remove("profiles", "5d0c1e7a", "mcp.json"), []string{": memory", data, not}},
		{"a listed profile whose location is not a folder name", write(`{"userDataProfiles": [{"location": "../x", "name": "Up"}, {"location": 5, "name": "Num"}, {"location": "5d0c1e7a", "name": ""}, {"name": "No location"}]}`, "globalStorage", "storage.json"),
			[]string{": memory", "5d0c1e7a 5d0c1e7a: playwright context7", "-4a1f9e2b -4a1f9e2b: jupyter memory", not}},
		{"no profiles folder", func(user string) { os.RemoveAll(filepath.Join(user, "profiles")) }, []string{": memory"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := vscodeUser(t, c.change)
			if got := foundGroups(t, Find([]Host{h}, ours())); !slices.Equal(got, c.want) {
				t.Errorf("found %q, want %q", got, c.want)
			}
		})
	}
}

// TestProfileNamed: a profile is named by its name or its ID; a listed
// profile without an mcp.json is known, and reading it says so.
func TestProfileNamed(t *testing.T) {
	h := vscodeUser(t, nil)
	for _, c := range []struct{ name, id string }{
		{"Web", "5d0c1e7a"},
		{"5d0c1e7a", "5d0c1e7a"},
		{"Data \u202eScience", "-4a1f9e2b"},
		{"7e8f9a0b", "7e8f9a0b"},
		{"Writing", "1b2c3d4e"},
		{"Data Science", ""},
		{"", ""},
		{"web", ""},
	} {
		p, ok := ProfileNamed(h, c.name)
		if ok != (c.id != "") || p.Profile.ID != c.id {
			t.Errorf("%q: %q, %v; want %q", c.name, p.Profile.ID, ok, c.id)
			continue
		}
		if ok && p.Config != filepath.Join(h.Profiles, "profiles", c.id, "mcp.json") {
			t.Errorf("%q: config %s", c.name, p.Config)
		}
	}
	writing, _ := ProfileNamed(h, "Writing")
	if _, err := Read(writing, ours()); !os.IsNotExist(err) {
		t.Errorf("a profile without mcp.json read: %v", err)
	}
}

// TestProfilesRoundTrip: routing a profile's servers edits its mcp.json
// alone, and unrouting gives it back byte for byte.
func TestProfilesRoundTrip(t *testing.T) {
	h := vscodeUser(t, nil)
	before := files(t, h.Profiles)
	for _, p := range ProfilesOf(h) {
		if _, err := os.Stat(p.Config); err != nil {
			continue
		}
		t.Run(p.Profile.ID, func(t *testing.T) {
			route := apply(t, p, route())
			if len(route.Changes) == 0 {
				t.Fatal("nothing routed")
			}
			for path, data := range files(t, h.Profiles) {
				if changed := !bytes.Equal(data, before[path]); changed != (path == p.Config) && !strings.HasSuffix(path, BackupSuffix) {
					t.Errorf("%s changed: %v", path, changed)
				}
			}
			for _, s := range read(t, p).Servers {
				if !s.Routed() {
					t.Errorf("%s not routed", s.Name)
				}
			}
			apply(t, p, unroute())
			if got, _ := os.ReadFile(p.Config); !bytes.Equal(got, before[p.Config]) {
				t.Errorf("not given back:\n%s", diff(before[p.Config], got))
			}
		})
	}
}

// files are the contents of each file under dir, by path.
func files(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	all := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		all[path], err = os.ReadFile(path)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return all
}
