package endpoint

import "fmt"

// pipePrefix starts the name of every local named pipe.
const pipePrefix = `\\.\pipe\`

// DefaultPath returns the endpoint's named pipe, \\.\pipe\elicitdesk-SID
// with the user's security identifier: Windows has one namespace of pipes
// for the whole machine, so each user needs a name of their own. The name
// is no secret; the pipe's ACL, which admits only this user, keeps others
// out. A pipe needs no directory: nothing is created on disk.
func DefaultPath() (string, error) {
	me, err := currentUser()
	if err != nil {
		return "", fmt.Errorf("cannot name the endpoint's pipe: %w", err)
	}
	return pipePrefix + "elicitdesk-" + me.String(), nil
}

// AppPath returns the running app's pipe, as DefaultPath names it; "" when
// the user cannot be told, which Dial refuses.
func AppPath() string {
	path, _ := DefaultPath()
	return path
}
