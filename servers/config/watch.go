package config

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// reloadDelay lets the burst of events one save produces settle into one reload.
const reloadDelay = 100 * time.Millisecond

// Watch reloads the file at path whenever it changes, so edits made in
// a text editor or another client apply without a restart. It watches the
// directory, because editors save by writing a new file and renaming it over
// the old one, and passes Load's result (or a watch error) to onChange.
// It returns once watching has begun. onChange runs on the watcher's own
// goroutine, one call at a time; that goroutine ends, and onChange is not
// called again, when ctx is done.
func Watch(ctx context.Context, path string, onChange func(*File, error)) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watching %s: %w", path, err)
	}
	path = filepath.Clean(path)
	if err := w.Add(filepath.Dir(path)); err != nil {
		w.Close()
		return fmt.Errorf("watching %s: %w", path, err)
	}
	go watch(ctx, w, path, onChange)
	return nil
}

// watch is Watch's loop; closing w on return also ends fsnotify's goroutine.
func watch(ctx context.Context, w *fsnotify.Watcher, path string, onChange func(*File, error)) {
	defer w.Close()
	reload := time.NewTimer(reloadDelay)
	reload.Stop()
	defer reload.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			// Chmod alone leaves the content as it was.
			if filepath.Clean(ev.Name) == path && ev.Op&^fsnotify.Chmod != 0 {
				reload.Reset(reloadDelay)
			}
		case err, ok := <-w.Errors:
			if !ok {
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				reload.Reset(reloadDelay) // events for our file may be among those lost
			} else if ctx.Err() == nil {
				onChange(nil, fmt.Errorf("watching %s: %w", path, err))
			}
		case <-reload.C:
			if c, err := Load(path); ctx.Err() == nil {
				onChange(c, err)
			}
		}
	}
}
