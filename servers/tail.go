package servers

import (
	"errors"
	"io"
	"sync"
)

// stderrTail is how much of a stdio server's stderr a connection keeps.
const stderrTail = 64 << 10

// tail is an io.Writer that keeps the last max bytes written to it: a stdio
// server's stderr, shown when it fails.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func newTail(max int) *tail { return &tail{max: max} }

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(p) >= t.max {
		t.buf = append(t.buf[:0], p[len(p)-t.max:]...)
		return len(p), nil
	}
	if over := len(t.buf) + len(p) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.buf = append(t.buf, p...)
	return len(p), nil
}

// tailRead is how much of a server's stderr ReadFrom reads at a time.
const tailRead = 1 << 10

// ReadFrom keeps the tail of all r holds, read tailRead bytes at a time.
// os/exec copies a server's stderr into the tail for as long as the server
// runs, which is all day: io.Copy would hold a 32 kB buffer for each.
func (t *tail) ReadFrom(r io.Reader) (n int64, err error) {
	buf := make([]byte, tailRead)
	for {
		k, err := r.Read(buf)
		n += int64(k)
		t.Write(buf[:k])
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// String returns what is kept.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
