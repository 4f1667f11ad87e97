package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/servers/config"
)

// readConfig reads servers.json and creates nothing: only the app, on its
// first start, and commands that change the configuration write files. A
// missing file reads as that first start writes it, with the demo server
// alone, so a command sees the servers the app would connect to; exists
// says whether the file is there.
func readConfig(path string) (cfg *config.File, exists bool, err error) {
	cfg, err = config.Load(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return cfg, err == nil, err
	}
	demo, err := demoEntry()
	if err != nil {
		return nil, false, err
	}
	demo.Transport = config.TransportStdio
	return &config.File{Path: path, Servers: []config.Server{demo}}, false, nil
}

// demoEntry is the built-in demo server, run by this very binary, which a
// first start puts in servers.json so there is something to connect to.
func demoEntry() (config.Server, error) {
	exe, err := os.Executable()
	if err != nil {
		return config.Server{}, err
	}
	return config.Demo(exe), nil
}

// findServer returns the entry of cfg called name, or an error listing the
// names there are.
func findServer(cfg *config.File, name string) (config.Server, error) {
	s, ok := cfg.Server(name)
	if !ok {
		return config.Server{}, unknownServer(name, serverNames{"configured", configuredNames(cfg)})
	}
	return s, nil
}

// configuredNames are the names of cfg's entries, in file order.
func configuredNames(cfg *config.File) []string {
	names := make([]string, 0, len(cfg.Servers))
	for _, s := range cfg.Servers {
		if !slices.Contains(names, s.Name) {
			names = append(names, s.Name)
		}
	}
	return names
}

// serverNames are the server names known in one place, such as those
// configured or those in the history.
type serverNames struct {
	where string
	names []string
}

// unknownServer is the error for a server name that is in none of known:
// it says which names there are, as untrusted's Line view shows them, since
// other programs write servers.json and servers name themselves in the
// history.
func unknownServer(name string, known ...serverNames) error {
	var parts []string
	for _, k := range known {
		if len(k.names) == 0 {
			parts = append(parts, k.where+": none")
			continue
		}
		shown := make([]string, len(k.names))
		for i, n := range k.names {
			shown[i] = untrusted.Text(n).Line()
		}
		parts = append(parts, k.where+": "+strings.Join(shown, ", "))
	}
	return fmt.Errorf("no server named %s; %s", untrusted.Text(name).Quote(), strings.Join(parts, "; "))
}
