package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

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
	return config.Server{Name: "demo", Command: exe, Args: []string{"demo-server"}}, nil
}

// runServers lists the configured servers.
func runServers(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("servers", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := configFlag(fs)
	asJSON := fs.Bool("json", false, "print the servers as a JSON array")
	if err := fs.Parse(args); err != nil || fs.NArg() != 0 {
		fmt.Fprintln(stderr, "usage: elicitdesk servers [-json] [-config FILE]")
		return 2
	}
	cfg, err := loadConfig(*path)
	if err != nil {
		fmt.Fprintln(stderr, "elicitdesk servers:", err)
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
		out, _ := json.MarshalIndent(list, "", "  ")
		fmt.Fprintf(stdout, "%s\n", out)
		return 0
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tTRANSPORT\tSTATE\tTARGET")
	for _, s := range cfg.Servers {
		state := "enabled"
		switch {
		case s.Err != nil:
			state = "error: " + s.Err.Error()
		case s.Disabled:
			state = "disabled"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Name, s.Transport, state, s.Target())
	}
	tw.Flush()
	fmt.Fprintf(stderr, "(%s)\n", cfg.Path)
	return 0
}
