package cli

import (
	"flag"
	"os"

	"github.com/adrg/xdg"

	"github.com/elicitdesk/elicitdesk/servers/config"
)

// configFlag adds -config, defaulting to servers.json under $XDG_CONFIG_HOME.
func configFlag(fs *flag.FlagSet) *string {
	return fs.String("config", config.Path(xdg.ConfigHome), "the servers.json `file`")
}

// loadConfig opens the configuration, creating it with the demo server when missing.
func loadConfig(path string) (*config.File, error) {
	demo, err := demoEntry()
	if err != nil {
		return nil, err
	}
	return config.Ensure(path, demo)
}

// demoEntry is the built-in demo server, run by this very binary, which a
// first start puts in servers.json so there is something to connect to.
func demoEntry() (config.Server, error) {
	exe, err := os.Executable()
	if err != nil {
		return config.Server{}, err
	}
	return config.Server{Name: config.DemoName, Command: exe, Args: []string{"demo-server"}}, nil
}

// runServers lists the configured servers. Names, targets and errors come
// from a file other programs write too, so they are shown through
// untrusted's views.
func runServers(args []string, stdout, stderr terminal) int {
	fs := stderr.FlagSet("servers")
	path := configFlag(fs)
	asJSON := fs.Bool("json", false, "print the servers as a JSON array")
	if err := fs.Parse(args); err != nil || fs.NArg() != 0 {
		stderr.Linef("usage: elicitdesk servers [-json] [-config FILE]")
		return 2
	}
	cfg, err := loadConfig(*path)
	if err != nil {
		stderr.Linef("elicitdesk servers: %s", err)
		return 2
	}
	if *asJSON {
		type entry struct {
			Name      string           `json:"name"`
			Transport config.Transport `json:"transport"`
			Target    string           `json:"target"`
			Disabled  bool             `json:"disabled,omitempty"`
			Error     string           `json:"error,omitempty"`
			Warnings  []string         `json:"warnings,omitempty"`
		}
		list := []entry{}
		for _, s := range cfg.Servers {
			e := entry{Name: s.Name, Transport: s.Transport, Target: s.Target(), Disabled: s.Disabled, Warnings: s.Warnings}
			if s.Err != nil {
				e.Error = s.Err.Error()
			}
			list = append(list, e)
		}
		stdout.JSON(list)
		return 0
	}
	table, flush := stdout.Table()
	table.Linef("NAME\tTRANSPORT\tSTATE\tTARGET")
	for _, s := range cfg.Servers {
		state := "enabled"
		switch {
		case s.Err != nil:
			state = "error: " + s.Err.Error()
		case s.Disabled:
			state = "disabled"
		}
		table.Linef("%s\t%s\t%s\t%s", s.Name, s.Transport, state, s.Target())
	}
	flush()
	stderr.Linef("(%s)", cfg.Path)
	return 0
}
