package console

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// attachConsole is kernel32's AttachConsole, which x/sys/windows lacks.
var attachConsole = windows.NewLazySystemDLL("kernel32.dll").NewProc("AttachConsole")

// Attach connects standard output and standard error, where either has
// no handle, to the console of the process that started this one, if it
// has one; otherwise it leaves them as they are.
func Attach() {
	out, errs := usable(os.Stdout), usable(os.Stderr)
	if out && errs {
		return
	}
	const parent = ^uintptr(0) // ATTACH_PARENT_PROCESS
	// ERROR_ACCESS_DENIED: already attached, as Wine attaches a GUI
	// program to its parent's console.
	if ok, _, err := attachConsole.Call(parent); ok == 0 && !errors.Is(err, windows.ERROR_ACCESS_DENIED) {
		return // no console: started by Explorer, the Run key or a GUI program
	}
	if !out {
		os.Stdout = conout(os.Stdout)
	}
	if !errs {
		os.Stderr = conout(os.Stderr)
	}
}

// usable reports whether f has a handle Windows can write to.
func usable(f *os.File) bool {
	h := windows.Handle(f.Fd())
	if h == 0 || h == windows.InvalidHandle {
		return false
	}
	_, err := windows.GetFileType(h)
	return err == nil
}

// conout opens the console's output, or returns f when it cannot. Read
// access too lets Go find it is a console, and write UTF-16 to it.
func conout(f *os.File) *os.File {
	c, err := os.OpenFile("CONOUT$", os.O_RDWR, 0)
	if err != nil {
		return f
	}
	return c
}
