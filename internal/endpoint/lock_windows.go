package endpoint

import (
	"errors"
	"fmt"
	"io"
	"unsafe"

	"golang.org/x/sys/windows"
)

// tryLock creates the named mutex name for this process, or reports that
// another holds it. The mutex lives while a handle to it is open, so the
// OS drops it when the process ends, however it ends, and two claims in
// one process exclude each other too. It admits this user alone; one that
// another user made is refused: whoever holds it could make us believe an
// app runs.
func tryLock(name string) (io.Closer, bool, error) {
	sddl, err := privateSDDL()
	if err != nil {
		return nil, false, err
	}
	sd, err := windows.SecurityDescriptorFromString(sddl)
	if err != nil {
		return nil, false, err
	}
	n, err := windows.UTF16PtrFromString(name)
	if err != nil {
		return nil, false, err
	}
	sa := &windows.SecurityAttributes{Length: uint32(unsafe.Sizeof(windows.SecurityAttributes{})), SecurityDescriptor: sd}
	h, err := windows.CreateMutex(sa, false, n)
	switch {
	case err == nil:
		return mutex(h), true, nil
	case errors.Is(err, windows.ERROR_ALREADY_EXISTS): // h is the holder's mutex
		defer windows.CloseHandle(h)
		return nil, false, checkLockOwner(h, name)
	case errors.Is(err, windows.ERROR_ACCESS_DENIED):
		return nil, false, fmt.Errorf("the lock %s is another user's: %w", name, ErrNotPrivate)
	}
	return nil, false, fmt.Errorf("cannot take the lock %s: %w", name, err)
}

// checkLockOwner refuses the existing mutex h unless this user owns it.
func checkLockOwner(h windows.Handle, name string) error {
	sd, err := windows.GetSecurityInfo(h, windows.SE_KERNEL_OBJECT, windows.OWNER_SECURITY_INFORMATION)
	if err != nil {
		return fmt.Errorf("cannot tell who owns the lock %s: %w", name, err)
	}
	owner, _, err := sd.Owner()
	if err != nil {
		return fmt.Errorf("cannot tell who owns the lock %s: %w", name, err)
	}
	me, err := currentUser()
	if err != nil {
		return err
	}
	if !owner.Equals(me) {
		return fmt.Errorf("the lock %s is owned by %s, not by you, %s: %w", name, describeSID(owner), describeSID(me), ErrNotPrivate)
	}
	return nil
}

// mutex is the handle that holds the single-instance lock.
type mutex windows.Handle

// Close gives the lock up.
func (m mutex) Close() error { return windows.CloseHandle(windows.Handle(m)) }
