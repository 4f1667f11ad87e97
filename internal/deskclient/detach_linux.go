package deskclient

// #include "detach_linux.h"
import "C"

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// detachName is the argv[0] under which startDetached runs this
// executable again as the detacher (detach_linux.c).
const detachName = C.DETACH_NAME

// startDetached starts the app, argv, as nobody's child: through the
// detacher, which starts it in a session of its own and exits at once, so
// that the app is handed to init (or the nearest subreaper) and no host's
// exit, nor a signal to the bridge's group, ends it. It returns the app's
// pid and running, which says whether the app still runs.
func startDetached(argv []string) (pid int, running func() bool, err error) {
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return 0, nil, err
	}
	// /proc/self/exe: the running binary, which holds the detacher.
	cmd := exec.Command("/proc/self/exe")
	cmd.Args = append([]string{detachName, path}, argv...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return 0, nil, fmt.Errorf("%w: %s", err, strings.TrimSpace(stderr.String()))
	}
	pid, err = strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		return 0, nil, fmt.Errorf("the detacher gave no pid: %q", out)
	}
	return pid, func() bool { return alive(pid) }, nil
}

// alive says whether process pid runs: not gone, nor a zombie. The app is
// no child of the bridge, which cannot wait for it, and an init that does
// not reap (some containers' pid 1) leaves it a zombie.
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the command's name in parentheses, which may
	// hold anything: it is the field after the last ')'.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 || i+2 >= len(stat) {
		return false
	}
	state := stat[i+2]
	return state != 'Z' && state != 'X'
}
