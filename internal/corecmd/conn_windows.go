package corecmd

import (
	"errors"
	"io"
	"os"
	"os/exec"
)

// privateConn makes the private connection of the windows' process that
// cmd starts: its standard input and output, anonymous pipes that no other
// process can open by name. They are files of ours, not exec's, so that
// its Wait closes none of the core's ends while it still reads; started
// closes the process's ends in the core once it runs.
func privateConn(cmd *exec.Cmd) (conn io.ReadWriteCloser, started func(), err error) {
	childIn, toChild, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	fromChild, childOut, err := os.Pipe()
	if err != nil {
		childIn.Close()
		toChild.Close()
		return nil, nil, err
	}
	cmd.Stdin, cmd.Stdout = childIn, childOut
	return pipes{fromChild, toChild}, func() { childIn.Close(); childOut.Close() }, nil
}

// CoreConn is the windows' process's end of its private connection: its
// standard input and output.
func CoreConn() (io.ReadWriteCloser, error) {
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
