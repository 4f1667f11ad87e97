package endpoint

import (
	"fmt"
	"net"

	"golang.org/x/sys/windows"
)

// checkPeer refuses the client at the other end of c, accepted on the pipe
// at path, unless its process runs as this user. The pipe's ACL lets no
// one else open it; this checks again, as the socket's server does.
func checkPeer(c net.Conn, path string) error {
	return checkPipePeer(c, path, windows.GetNamedPipeClientProcessId)
}

// checkPipePeer refuses the process at the other end of c, which
// processID names, unless it runs as this user.
func checkPipePeer(c net.Conn, path string, processID func(windows.Handle, *uint32) error) error {
	peer, err := pipePeer(c, processID)
	if err != nil {
		return fmt.Errorf("cannot tell who is at the other end of %s: %w", path, err)
	}
	me, err := currentUser()
	if err != nil {
		return err
	}
	if !peer.Equals(me) {
		return fmt.Errorf("the process at the other end of %s runs as %s, not as you, %s: %w", path, describeSID(peer), describeSID(me), ErrNotPrivate)
	}
	return nil
}

// pipePeer returns the user of the process at the other end of c, as its
// access token says.
func pipePeer(c net.Conn, processID func(windows.Handle, *uint32) error) (*windows.SID, error) {
	f, ok := c.(interface{ Fd() uintptr })
	if !ok {
		return nil, fmt.Errorf("%T is not a named pipe", c)
	}
	var pid uint32
	if err := processID(windows.Handle(f.Fd()), &pid); err != nil {
		return nil, err
	}
	p, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return nil, fmt.Errorf("process %d: %w", pid, err)
	}
	defer windows.CloseHandle(p)
	var token windows.Token
	if err := windows.OpenProcessToken(p, windows.TOKEN_QUERY, &token); err != nil {
		return nil, fmt.Errorf("process %d: %w", pid, err)
	}
	defer token.Close()
	u, err := token.GetTokenUser()
	if err != nil {
		return nil, fmt.Errorf("process %d: %w", pid, err)
	}
	return u.User.Sid, nil
}

// currentUser is the user this process runs as.
func currentUser() (*windows.SID, error) {
	u, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return nil, fmt.Errorf("cannot tell which user you are: %w", err)
	}
	return u.User.Sid, nil
}

// describeSID names sid for a person: `user PC\ada (S-1-5-21-…)`.
func describeSID(sid *windows.SID) string {
	if account, domain, _, err := sid.LookupAccount(""); err == nil {
		return fmt.Sprintf(`user %s\%s (%s)`, domain, account, sid)
	}
	return sid.String()
}
