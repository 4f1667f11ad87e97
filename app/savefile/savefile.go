// Package savefile asks the person where to save a file, through the
// system's Save dialog where one shows (the desktop portal), else Fyne's,
// and writes it there off the UI goroutine, only the person's to read:
// what the windows export (History, Traffic) holds what servers asked and
// were told.
package savefile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver"

	"github.com/elicitdesk/elicitdesk/internal/desktop/portal"
)

// Saver saves files for one window.
type Saver struct {
	Win fyne.Window
	// System, if not nil, shows the system's Save dialog, suggesting name,
	// for the window parent identifies to the desktop portal (or ""); it
	// returns the path chosen, "" when the person cancelled, or an error
	// wrapping portal.ErrNoPortal when no such dialog shows. It blocks
	// until the person chose.
	System func(ctx context.Context, parent, name string) (string, error)
	// Run does work off the UI goroutine, then what it returns on it.
	Run func(work func() (apply func()))
}

// Save asks where to save a file named name at first, writes it with
// write, off the UI goroutine, and calls done on the UI goroutine with
// where it went, or why not; a person who cancels hears nothing.
func (s Saver) Save(name string, write func(io.Writer) error, done func(where string, err error)) {
	if s.System == nil {
		s.withFyne(name, write, done)
		return
	}
	parent := s.parent()
	s.Run(func() func() {
		path, err := s.System(context.Background(), parent, name)
		return func() {
			switch After(path, err) {
			case OwnDialog:
				s.withFyne(name, write, done)
			case Failed:
				done("", err)
			case WriteFile:
				out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
				if err == nil {
					err = out.Chmod(0o600) // a file that was there kept its mode
				}
				if err != nil {
					done("", err)
					return
				}
				s.write(out, path, write, done)
			}
		}
	})
}

// Step is what Save does once the system's Save dialog answered.
type Step int

const (
	Cancelled Step = iota // the person cancelled: nothing
	WriteFile             // write the file chosen
	OwnDialog             // no system dialog showed: Fyne's instead
	Failed                // say what went wrong
)

// After decides Save's next step from the system dialog's answer.
func After(path string, err error) Step {
	switch {
	case errors.Is(err, portal.ErrNoPortal):
		return OwnDialog
	case err != nil:
		return Failed
	case path == "":
		return Cancelled
	}
	return WriteFile
}

// parent identifies the window to the desktop portal, so its dialog
// belongs to it; "" where the window is not an X11 one.
func (s Saver) parent() string {
	id := ""
	if nw, ok := s.Win.(driver.NativeWindow); ok {
		nw.RunNative(func(c any) {
			if x, ok := c.(driver.X11WindowContext); ok {
				id = portal.Parent(x.WindowHandle)
			}
		})
	}
	return id
}

// withFyne asks for the file with Fyne's own Save dialog.
func (s Saver) withFyne(name string, write func(io.Writer) error, done func(string, error)) {
	save := dialog.NewFileSave(func(out fyne.URIWriteCloser, err error) {
		if err != nil {
			done("", err)
			return
		}
		if out == nil {
			return // the person cancelled
		}
		if out.URI().Scheme() == "file" {
			os.Chmod(out.URI().Path(), 0o600) // Fyne creates it for everyone to read
		}
		s.write(out, out.URI().Path(), write, done)
	}, s.Win)
	save.SetFileName(name)
	save.Show()
}

// write writes out with write off the UI goroutine, closes it, and tells
// done.
func (s Saver) write(out io.WriteCloser, where string, write func(io.Writer) error, done func(string, error)) {
	s.Run(func() func() {
		err := write(out)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			err = fmt.Errorf("%s was not written: %w", where, err)
		}
		return func() { done(where, err) }
	})
}
