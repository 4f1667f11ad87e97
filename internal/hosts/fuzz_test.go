package hosts

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// FuzzRoundTrip reads any bytes as the config of each host: reading never
// panics, and whatever Route writes, Read reads back with every server
// routed under its name, stdio and remote, but those Route said why it
// left alone, and Unroute turns back into the very same bytes.
func FuzzRoundTrip(f *testing.F) {
	samples, _ := filepath.Glob(filepath.Join("testdata", "samples", "*"))
	for _, s := range samples {
		data, _ := os.ReadFile(s)
		f.Add(data)
	}
	for _, name := range []string{"edge.json", "headers.json"} {
		cases, _ := os.ReadFile(filepath.Join("testdata", name))
		var configs []struct{ Config string }
		json.Unmarshal(cases, &configs)
		for _, c := range configs {
			f.Add([]byte(c.Config))
		}
	}
	for _, name := range []string{"upgrade.json", "limits.json"} {
		cases, _ := os.ReadFile(filepath.Join("testdata", name))
		var routed []struct{ Original, Config, Routed string }
		json.Unmarshal(cases, &routed)
		for _, c := range routed {
			f.Add([]byte(c.Original + c.Config))
			f.Add([]byte(c.Routed))
		}
	}
	hosts := everyHost(Env{Getenv: func(string) string { return "" }})
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, h := range hosts {
			id := h.ID
			c, err := parse(h, data, ours())
			if err != nil {
				continue
			}
			p, err := c.Route()
			if err != nil {
				t.Fatal(err)
			}
			routed, err := parse(h, p.data, ours())
			if err != nil {
				t.Fatalf("%s: the routed file cannot be read: %v\n%s", id, err, p.data)
			}
			for _, s := range routed.Servers {
				skipped := slices.ContainsFunc(p.Skipped, func(k Skip) bool { return k.Server == s.Name && k.Reason != ReasonRouted })
				if s.Err == nil && !skipped && (!s.Routed() || s.Name != "" && !s.named()) {
					t.Fatalf("%s: %q is not routed under its name:\n%s", id, s.Name, p.data)
				}
			}
			back, err := routed.Unroute()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(back.data, data) && !wasRouted(c) {
				t.Fatalf("%s: not given back:\n%s", id, diff(data, back.data))
			}
		}
	})
}

// wasRouted reports whether c routes a server already: unrouting it too
// cannot give back the bytes it had before.
func wasRouted(c *Config) bool {
	for _, s := range c.Servers {
		if s.Routed() {
			return true
		}
	}
	return false
}
