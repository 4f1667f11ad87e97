package hosts

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Profile is a VS Code profile whose servers a Config holds.
type Profile struct {
	ID string // its folder under the User folder's profiles/
	// Name is the profile's name as VS Code shows it, from the profile's
	// own user's storage.json (data: shown through untrusted's views); its
	// ID when storage.json does not list it.
	Name string
}

// ProfilesOf are h's profiles other than the default one, each as a Host
// whose Config is the profile's own mcp.json (which VS Code keeps in
// User/profiles/ID/mcp.json, the default profile's being User/mcp.json):
// those VS Code's storage.json lists, in its order, then each other
// folder under profiles/ that has an mcp.json, by its ID. A profile may
// have no mcp.json: Find does not show it, and Read says it is not there.
func ProfilesOf(h Host) []Host {
	if h.Profiles == "" {
		return nil
	}
	dir := filepath.Join(h.Profiles, "profiles")
	var list []Host
	add := func(p Profile) {
		if !slices.ContainsFunc(list, func(l Host) bool { return l.Profile.ID == p.ID }) {
			ph := h
			ph.Config, ph.Profile = filepath.Join(dir, p.ID, "mcp.json"), p
			list = append(list, ph)
		}
	}
	for _, p := range storedProfiles(h.Profiles) {
		add(p)
	}
	entries, _ := os.ReadDir(dir) // none when there is no such folder
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(dir, e.Name(), "mcp.json")); err == nil {
			add(Profile{ID: e.Name(), Name: e.Name()})
		}
	}
	return list
}

// ProfileNamed is h's profile called name, or whose ID is name: the name
// is what people see, the ID what stays when the profile is renamed.
func ProfileNamed(h Host, name string) (Host, bool) {
	profiles := ProfilesOf(h)
	for _, by := range []func(Host) string{
		func(p Host) string { return p.Profile.Name },
		func(p Host) string { return p.Profile.ID },
	} {
		if i := slices.IndexFunc(profiles, func(p Host) bool { return by(p) == name }); i >= 0 {
			return profiles[i], true
		}
	}
	return Host{}, false
}

// storedProfiles are the profiles VS Code lists in the User folder's
// globalStorage/storage.json under "userDataProfiles", each
// {"name", "location"}; location is the profile's folder name under
// profiles/, or, as older versions wrote it, a URI object whose "path"
// ends in it (src/vs/platform/userDataProfile/node/userDataProfile.ts).
// A file that cannot be read gives none: the profiles are then shown by
// their IDs.
func storedProfiles(userDir string) []Profile {
	data, err := os.ReadFile(filepath.Join(userDir, "globalStorage", "storage.json"))
	if err != nil {
		return nil
	}
	var state struct {
		Profiles []json.RawMessage `json:"userDataProfiles"`
	}
	if json.Unmarshal(data, &state) != nil {
		return nil
	}
	var list []Profile
	for _, raw := range state.Profiles {
		var stored struct {
			Name     string          `json:"name"`
			Location json.RawMessage `json:"location"`
		}
		if json.Unmarshal(raw, &stored) != nil {
			continue
		}
		var id string
		if json.Unmarshal(stored.Location, &id) != nil {
			var uri struct {
				Path string `json:"path"`
			}
			if json.Unmarshal(stored.Location, &uri) != nil {
				continue
			}
			id = path.Base(uri.Path)
		}
		if id == "" || id == "." || id == ".." || strings.ContainsAny(id, `/\`) {
			continue // not a folder of profiles/
		}
		if stored.Name == "" {
			stored.Name = id
		}
		list = append(list, Profile{ID: id, Name: stored.Name})
	}
	return list
}
