package cli

import (
	"errors"
	"io"
	"os"
	"os/exec"
)

// privateConn makes the private connection of the windows' process that
// cmd starts: its standard input and output, anonymous pipes that no other
// process can open by name.
func privateConn(cmd *exec.Cmd) (conn io.ReadWriteCloser, started func(), err error) {
	w, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	r, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	return pipes{r, w}, func() {}, nil
}

// coreConn is the windows' process's end of its private connection: its
// standard input and output.
func coreConn() (io.ReadWriteCloser, error) {
	return pipes{os.Stdin, os.Stdout}, nil
}

// pipes are a connection made of two pipes, one each way.
type pipes struct {
	io.Reader
	io.WriteCloser
}

func (p pipes) Close() error {
	err := p.WriteCloser.Close()
	if c, ok := p.Reader.(io.Closer); ok {
		err = errors.Join(err, c.Close())
	}
	return err
}
