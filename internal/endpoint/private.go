//go:build !windows

package endpoint

import (
	"fmt"
	"net"
	"os"
	"os/user"
	"strconv"
)

// checkDir refuses dir unless it is a directory, not a symbolic link, that
// this user owns and no one else may enter.
func checkDir(dir string) error {
	fi, err := os.Lstat(dir)
	switch {
	case err != nil:
		return err
	case fi.Mode()&os.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link, not a directory of your own: %w", dir, ErrNotPrivate)
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory: %w", dir, ErrNotPrivate)
	}
	if err := checkOwner(dir, fi); err != nil {
		return err
	}
	return checkDirMode(dir, fi)
}

// checkSocket refuses the file at path unless it is a socket this user
// owns; os.ErrNotExist says there is none.
func checkSocket(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if err := checkOwner(path, fi); err != nil {
		return err
	}
	if fi.Mode()&os.ModeSocket == 0 {
		return fmt.Errorf("%s is in the way and is not a socket: %w", path, ErrNotPrivate)
	}
	return nil
}

// checkUID refuses what is at path when uid, its owner, is not this user.
func checkUID(path string, uid int) error {
	if uid == os.Getuid() {
		return nil
	}
	return fmt.Errorf("%s is owned by %s, not by you, %s: %w", path, describeUser(uid), describeUser(os.Getuid()), ErrNotPrivate)
}

// checkPeer refuses the process at the other end of c, reached at path,
// unless it runs as this user.
func checkPeer(c net.Conn, path string) error {
	uid, err := peerUID(c)
	if err != nil {
		return fmt.Errorf("cannot tell who is at the other end of %s: %w", path, err)
	}
	if uid != os.Getuid() {
		return fmt.Errorf("the process at the other end of %s runs as %s, not as you, %s: %w", path, describeUser(uid), describeUser(os.Getuid()), ErrNotPrivate)
	}
	return nil
}

// describeUser names uid for a person: "user nobody (uid 65534)".
func describeUser(uid int) string {
	id := strconv.Itoa(uid)
	if u, err := user.LookupId(id); err == nil {
		return fmt.Sprintf("user %s (uid %s)", u.Username, id)
	}
	return "uid " + id
}
