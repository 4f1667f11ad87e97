package endpoint

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/Microsoft/go-winio"
	"golang.org/x/sys/windows"
)

// The endpoint on Windows is a named pipe (Wine and Windows before 10 1803
// have no Unix domain sockets) whose security descriptor makes the user its
// owner and admits the user alone; its lock is a named mutex with the same
// descriptor. Framing and protocol are those of the socket.

// maxPipeName is the longest pipe name Windows takes, in characters.
const maxPipeName = 256

// pipeBuffer is the size of each direction's buffer: a writer goes on
// without waiting for the reader while the buffer has room, as on a socket.
const pipeBuffer = 64 << 10

// checkEndpoint refuses what is not a local pipe name with a name of its
// own after the prefix, of which the lock's name is made.
func checkEndpoint(path string) error {
	name, ok := strings.CutPrefix(path, pipePrefix)
	switch {
	case !ok || name == "":
		return fmt.Errorf("%q is not the name of a local named pipe (%sNAME)", path, pipePrefix)
	case strings.Contains(name, `\`):
		return fmt.Errorf("pipe name %s has a backslash after %s", path, pipePrefix)
	case len(path) > maxPipeName:
		return fmt.Errorf("pipe name %s is %d characters long; Windows takes at most %d", path, len(path), maxPipeName)
	}
	return nil
}

// lockPath is the name of the pipe's single-instance mutex, in the global
// namespace so that the user's sessions share it, as they share the pipe.
func lockPath(path string) string {
	return `Global\` + strings.TrimPrefix(path, pipePrefix) + ".lock"
}

// listenAt makes the pipe at path for the app that holds its lock. A pipe
// there already is in the way: no running app of ours made it, and unlike
// a socket file it cannot be replaced.
func listenAt(path string) (net.Listener, error) {
	sddl, err := privateSDDL()
	if err != nil {
		return nil, err
	}
	ln, err := winio.ListenPipe(path, &winio.PipeConfig{
		SecurityDescriptor: sddl,
		InputBufferSize:    pipeBuffer,
		OutputBufferSize:   pipeBuffer,
	})
	if errors.Is(err, windows.ERROR_ACCESS_DENIED) {
		return nil, fmt.Errorf("%s is in the way: a process that does not hold Elicit Desk's lock made it: %w", path, ErrNotPrivate)
	}
	if err != nil {
		return nil, err
	}
	if err := closeFirstInstance(path); err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
}

// closeFirstInstance keeps clients off the pipe's first instance, which
// go-winio makes only to hold the name and never serves. Windows 10 and
// later leave it disconnected; Wine (and Windows 7) let a client connect
// to it, whose calls then wait for an answer that never comes (go-winio
// issues 173 and 313). Opening it once, without access, and closing it
// leaves it disconnected there too. No Accept has run yet, so this open
// can reach no other instance; ERROR_PIPE_BUSY is Windows 10's answer.
func closeFirstInstance(path string) error {
	name, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return err
	}
	h, err := windows.CreateFile(name, 0, 0, nil, windows.OPEN_EXISTING, windows.SECURITY_SQOS_PRESENT|windows.SECURITY_ANONYMOUS, 0)
	switch {
	case err == nil:
		return windows.CloseHandle(h)
	case errors.Is(err, windows.ERROR_PIPE_BUSY):
		return nil
	}
	return fmt.Errorf("cannot open %s: %w", path, err)
}

// dialAt connects to the pipe at path and checks that the process serving
// it runs as this user.
func dialAt(ctx context.Context, path string) (net.Conn, error) {
	if err := checkEndpoint(path); err != nil {
		return nil, err
	}
	c, err := winio.DialPipeContext(ctx, path)
	switch {
	case errors.Is(err, windows.ERROR_FILE_NOT_FOUND):
		return nil, fmt.Errorf("%w (no pipe %s)", ErrNotRunning, path)
	case errors.Is(err, windows.ERROR_ACCESS_DENIED):
		return nil, fmt.Errorf("%s does not let you in, so another user made it: %w", path, ErrNotPrivate)
	case err != nil:
		return nil, fmt.Errorf("%w (%v)", ErrNotRunning, err)
	}
	if err := checkPipePeer(c, path, windows.GetNamedPipeServerProcessId); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// privateSDDL is the security descriptor of the pipe and the lock: this
// user owns them and alone may open them, administrators included (short
// of privileges that override every check), with no inherited entries.
func privateSDDL() (string, error) {
	me, err := currentUser()
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("O:%sD:P(A;;GA;;;%s)", me, me), nil
}
