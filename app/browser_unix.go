//go:build linux || freebsd || openbsd || netbsd

package app

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"time"

	"fyne.io/fyne/v2"
)

// browserWait is how long xdg-open is given to fail. Some desktops'
// xdg-open runs the browser in the foreground and returns only when it
// closes: still running past this, the browser has started.
const browserWait = 5 * time.Second

// browserOpener opens links with xdg-open and reports its failure: Fyne's
// OpenURL starts xdg-open and never learns that it found no browser.
func browserOpener(fyne.App) func(*url.URL) error {
	return func(u *url.URL) error { return xdgOpen(u, browserWait) }
}

// xdgOpen runs xdg-open on u and waits up to wait for it to fail. Its
// output goes to the app's own: a pipe would be held open by the browser
// it starts, and Wait would wait for the browser.
func xdgOpen(u *url.URL, wait time.Duration) error {
	cmd := exec.Command("xdg-open", u.String())
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return errors.New("xdg-open, which starts it, is not installed")
		}
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case err := <-done:
		return xdgOpenError(err)
	case <-t.C:
		return nil // the goroutine reaps it when the browser closes
	}
}

// xdgOpenError says in words why xdg-open failed, from its exit status
// (xdg-open(1)).
func xdgOpenError(err error) error {
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return err
	}
	switch exit.ExitCode() {
	case 2:
		return errors.New("xdg-open says the link does not exist")
	case 3:
		return errors.New("xdg-open found no browser to start")
	case 4:
		return errors.New("the browser xdg-open started failed")
	}
	return fmt.Errorf("xdg-open failed (%v)", err)
}
