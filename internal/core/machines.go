package core

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/elicitdesk/elicitdesk/internal/base/atomicfile"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
)

// machinesFile, beside servers.json, lists the other machines the person
// set up with elicitdesk remote: the core serves a forward for each.
const machinesFile = "remotes.json"

// MachinesPath is where the machines beside configPath are listed.
func MachinesPath(configPath string) string {
	return filepath.Join(filepath.Dir(configPath), machinesFile)
}

// machinesList is the file's content.
type machinesList struct {
	Machines []string `json:"machines"`
}

// Machines reads the machines listed at path; none when there is no file.
// A name that is not a machine's is left out.
func Machines(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var l machinesList
	if err := json.Unmarshal(b, &l); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return slices.DeleteFunc(l.Machines, func(m string) bool { return !endpoint.MachineName(m) }), nil
}

// AddMachine lists machine at path, unless it is there already.
func AddMachine(path, machine string) error {
	if !endpoint.MachineName(machine) {
		return fmt.Errorf("%q is not a machine's name", machine)
	}
	list, err := Machines(path)
	if err != nil || slices.Contains(list, machine) {
		return err
	}
	return writeMachines(path, append(list, machine))
}

// writeMachines replaces the list at path with list.
func writeMachines(path string, list []string) error {
	b, _ := json.MarshalIndent(machinesList{list}, "", "  ")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(path, append(b, '\n'), 0o600)
}

// forwardListed serves a forward for each machine listed beside the
// configuration; a list it cannot read, or a forward it cannot serve, is
// logged.
func (c *Core) forwardListed() {
	list, err := Machines(MachinesPath(c.opts.ConfigPath))
	if err != nil {
		c.log.Warn("the other machines are not served", "err", err)
	}
	for _, m := range list {
		if err := c.Forward(m); err != nil {
			c.log.Warn("a machine is not served", "machine", m, "err", err)
		}
	}
}

// RemoveMachine takes machine off the list at path; a machine not listed
// changes nothing.
func RemoveMachine(path, machine string) error {
	list, err := Machines(path)
	if err != nil || !slices.Contains(list, machine) {
		return err
	}
	return writeMachines(path, slices.DeleteFunc(list, func(m string) bool { return m == machine }))
}

// Block stops serving machine: its connections end, and with them its
// bridged sessions and the requests they wait on, and it is taken off
// the list, so that no start serves it again until the person runs
// elicitdesk remote for it.
func (c *Core) Block(machine string) error {
	c.mu.Lock()
	s := c.forwards[machine]
	delete(c.forwards, machine)
	c.mu.Unlock()
	if s != nil {
		s.Close()
	}
	c.log.Info("blocked a machine", "machine", machine)
	return RemoveMachine(MachinesPath(c.opts.ConfigPath), machine)
}
