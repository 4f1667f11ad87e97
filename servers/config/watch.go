package config

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/elicitdesk/elicitdesk/internal/base/atomicfile"
)

// reloadDelay lets the burst of events one save produces settle into one reload.
const reloadDelay = 100 * time.Millisecond

// Watch reloads the file at path whenever it changes, so edits made in
// a text editor or another client apply without a restart. It watches
// directories, because editors save by writing a new file and renaming it
// over the old one; when path is a symlink it watches every link of the
// chain and the target too, so edits to a shared file and a re-pointed link
// both apply. It passes Load's result (or a watch error) to onChange.
// It returns once watching has begun. onChange runs on the watcher's own
// goroutine, one call at a time; that goroutine ends, and onChange is not
// called again, when ctx is done.
func Watch(ctx context.Context, path string, onChange func(*File, error)) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watching %s: %w", path, err)
	}
	path = filepath.Clean(path)
	f := &follower{w: w, dirs: map[string]bool{}}
	if err := f.follow(atomicfile.LinkChain(path)); err != nil {
		w.Close()
		return fmt.Errorf("watching %s: %w", path, err)
	}
	go f.run(ctx, path, onChange)
	return nil
}

// follower watches the directories of the files a chain of links passes through.
type follower struct {
	w     *fsnotify.Watcher
	names []string        // the chain from the path to its target, as events name them
	dirs  map[string]bool // directories being watched
}

// follow watches the directories of names, and stops watching those no
// longer on the chain. A directory that cannot be watched is reported,
// and the others are still watched.
func (f *follower) follow(names []string) error {
	f.names = f.names[:0]
	want := make(map[string]bool, len(names))
	var errs []error
	for _, n := range names {
		// One directory reached under two names would get one watch,
		// reporting events under one name only; its real path is unique.
		dir := filepath.Dir(n)
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			dir = real
		}
		f.names = append(f.names, filepath.Join(dir, filepath.Base(n)))
		want[dir] = true
		if !f.dirs[dir] {
			if err := f.w.Add(dir); err != nil {
				errs = append(errs, err)
				continue
			}
			f.dirs[dir] = true
		}
	}
	for dir := range f.dirs {
		if !want[dir] {
			f.w.Remove(dir) // may already be gone with the directory
			delete(f.dirs, dir)
		}
	}
	return errors.Join(errs...)
}

// run is Watch's loop; closing the watcher on return also ends fsnotify's goroutine.
func (f *follower) run(ctx context.Context, path string, onChange func(*File, error)) {
	defer f.w.Close()
	reload := time.NewTimer(reloadDelay)
	reload.Stop()
	defer reload.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-f.w.Events:
			if !ok {
				return
			}
			// Chmod alone leaves the content as it was.
			if slices.Contains(f.names, filepath.Clean(ev.Name)) && ev.Op&^fsnotify.Chmod != 0 {
				reload.Reset(reloadDelay)
			}
		case err, ok := <-f.w.Errors:
			if !ok {
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				reload.Reset(reloadDelay) // events for our file may be among those lost
			} else if ctx.Err() == nil {
				onChange(nil, fmt.Errorf("watching %s: %w", path, err))
			}
		case <-reload.C:
			// A link may now point elsewhere; follow it before reading.
			if err := f.follow(atomicfile.LinkChain(path)); err != nil && ctx.Err() == nil {
				onChange(nil, fmt.Errorf("watching %s: %w", path, err))
			}
			if c, err := Load(path); ctx.Err() == nil {
				onChange(c, err)
			}
		}
	}
}
