//go:build windows

package tray

import (
	"bytes"
	"context"
	"errors"
	"image"
	_ "image/png" // the icons come as PNG
	"runtime"
	"time"

	"github.com/fyne-io/image/ico"

	"fyne.io/systray"
)

// setUp bounds systray's setting up of its window.
const setUp = 10 * time.Second

// loop is systray's hidden window and its message loop. Windows delivers
// a window's messages to the thread that made it, so both run on one
// locked thread of their own: systray.RunWithExternalLoop would leave the
// messages to a loop of the caller's on that thread.
type loop struct {
	ended chan struct{} // closed when the message loop returns
}

// start runs systray on a thread of its own and returns once it takes
// calls.
func (l *loop) start(ctx context.Context, title string, _ []byte, _ func()) (<-chan struct{}, bool, error) {
	ready := make(chan struct{})
	l.ended = make(chan struct{})
	go func() {
		defer close(l.ended)
		runtime.LockOSThread() // never unlocked: the thread ends with the loop
		systray.Run(func() {
			systray.SetTooltip(title)
			close(ready)
		}, nil)
	}()
	select {
	case <-ready:
		return ready, false, nil
	case <-ctx.Done():
		return nil, false, ctx.Err()
	case <-time.After(setUp):
		// systray logged why; its loop waits on a thread nobody wakes.
		return nil, false, errors.New("no tray: systray did not set up its window")
	}
}

// stop removes the icon, closes the window and waits for the message loop
// to return.
func (l *loop) stop() {
	systray.Quit()
	<-l.ended
}

// run has nothing to do: the tray's thread runs the loop.
func (l *loop) run() {}

// lost is never closed: the icon needs no connection that could end.
func (l *loop) lost() <-chan struct{} { return nil }

// setIcon shows png, which systray on Windows takes as an ICO file.
func setIcon(png []byte) error {
	img, _, err := image.Decode(bytes.NewReader(png))
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := ico.Encode(&buf, img); err != nil {
		return err
	}
	systray.SetIcon(buf.Bytes())
	return nil
}
