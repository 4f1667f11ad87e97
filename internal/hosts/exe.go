package hosts

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/elicitdesk/elicitdesk/internal/base/atomicfile"
)

// Exe is the elicitdesk that routed entries run: this binary, named as
// PATH finds it when that is the same file. The kernel reports the path
// with every link resolved, which for Homebrew, nix or asdf is a
// versioned directory that the next upgrade removes.
func Exe() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	onPath, err := exec.LookPath("elicitdesk")
	if err != nil {
		return exe, nil
	}
	if onPath, err = filepath.Abs(onPath); err != nil {
		return exe, nil
	}
	if atomicfile.SameFile(onPath, exe) {
		return onPath, nil
	}
	return exe, nil
}

// Binaries are the Elicit Desk binaries whose `bridge` entries are Elicit
// Desk's own: Exe, which Route writes, and those an earlier route wrote
// and recorded, found again after an upgrade moved them. Anything else is
// another program's, whatever its name (elicitdesk-proxy, or another
// "elicitdesk" elsewhere), and is neither replaced nor unrouted.
type Binaries struct {
	Exe      string
	Recorded []string
	// Record is the file Route's paths are kept in, one per line; "" keeps
	// none (tests).
	Record string
}

// LoadBinaries returns exe and the paths kept in record; a record that
// does not exist yet is empty.
func LoadBinaries(exe, record string) (Binaries, error) {
	b := Binaries{Exe: exe, Record: record}
	data, err := os.ReadFile(record)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return b, err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if p := strings.TrimSpace(sc.Text()); p != "" && !slices.Contains(b.Recorded, p) {
			b.Recorded = append(b.Recorded, p)
		}
	}
	return b, nil
}

// RecordPath is where Route keeps the binaries it wrote, under stateHome
// (xdg.StateHome in the app).
func RecordPath(stateHome string) string {
	return filepath.Join(stateHome, "elicitdesk", "routed-binaries")
}

// Has reports whether command runs one of b: the same path, or the same
// file (a link to it, or a bare name PATH finds as it).
func (b Binaries) Has(command string) bool {
	known := append([]string{b.Exe}, b.Recorded...)
	switch {
	case command == "":
		return false
	case slices.Contains(known, command):
		return true
	case !strings.ContainsAny(command, `/\`):
		found, err := exec.LookPath(command)
		if err != nil {
			return false
		}
		command = found
	case !filepath.IsAbs(command):
		return false // relative to wherever the host starts it
	}
	return slices.ContainsFunc(known, func(k string) bool { return k != "" && atomicfile.SameFile(command, k) })
}

// remember adds Exe to the record, before Route's change is written, so
// that a config never runs a binary the next run would not know.
func (b Binaries) remember() error {
	if b.Record == "" || slices.Contains(b.Recorded, b.Exe) {
		return nil
	}
	data, err := os.ReadFile(b.Record)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data, '\n')
	}
	data = append(data, b.Exe+"\n"...)
	if err := os.MkdirAll(filepath.Dir(b.Record), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(b.Record, data, 0o600)
}
