package proctest

import (
	"errors"

	"golang.org/x/sys/windows"
)

// Gone reports whether process pid has ended. Windows keeps an ended
// process while a handle to it is open, so one that can be opened is gone
// once it is signalled.
func Gone(pid int) bool {
	h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		return errors.Is(err, windows.ERROR_INVALID_PARAMETER) // no such process
	}
	defer windows.CloseHandle(h)
	ev, err := windows.WaitForSingleObject(h, 0)
	return err == nil && ev == windows.WAIT_OBJECT_0
}
