package instance

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"time"
)

// The whole protocol: one line asks, one line answers.
const (
	request = "show\n"
	reply   = "ok\n"
	maxLine = 64 // bytes read from the other side at most
)

// answer reads one request from c, replies and closes c. It reports
// whether a later instance asked to show this one.
func answer(c net.Conn) bool {
	defer c.Close()
	c.SetDeadline(time.Now().Add(ioTimeout))
	line, err := bufio.NewReader(io.LimitReader(c, maxLine)).ReadString('\n')
	if err != nil || line != request {
		return false
	}
	io.WriteString(c, reply) // whether the asker hears it or not, it asked
	return true
}

// askShow asks the instance listening at path to come to the front.
func askShow(ctx context.Context, path string) error {
	d := net.Dialer{Timeout: ioTimeout}
	c, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(ioTimeout))
	stop := context.AfterFunc(ctx, func() { c.SetDeadline(time.Now()) })
	defer stop()
	if _, err := io.WriteString(c, request); err != nil {
		return err
	}
	line, err := bufio.NewReader(io.LimitReader(c, maxLine)).ReadString('\n')
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	if err != nil {
		return err
	}
	if line != reply {
		return fmt.Errorf("unexpected answer %q", line)
	}
	return nil
}
