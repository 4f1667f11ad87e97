package atspi

import (
	"context"
	"errors"
	"sync"
	"time"

	"fyne.io/fyne/v2"
)

// How fresh the tree a screen reader reads is. A screen reader walks a
// window in many small calls; each reads the tree built at most this long
// ago, or after its own last action, so a walk sees one window, not one
// half-updated. The watcher compares trees this often to tell of changes.
const (
	staleAfter = 50 * time.Millisecond
	watchEvery = 100 * time.Millisecond
	// uiWait bounds a wait for the UI goroutine: libatspi gives up on a
	// call after 2 s, and what is queued as Fyne stops is dropped.
	uiWait = time.Second
)

// errGone answers a call on an object no window shows any more.
var errGone = errors.New("no such object: its window closed or changed")

// view is the app's windows as the adapter reads them: it owns the latest
// tree and rebuilds it on the UI goroutine.
type view struct {
	app  fyne.App
	name string

	mu    sync.Mutex // guards the fields below; nothing blocks under it
	tree  *tree
	built time.Time
	dirty bool // an action changed widgets since built
}

func newView(app fyne.App, name string) *view {
	return &view{app: app, name: name}
}

// errStopped answers a call once Fyne has stopped: its windows are gone.
var errStopped = errors.New("the app's windows have closed")

// onUI runs f on the UI goroutine and waits for it, at most uiWait. Once
// Fyne has stopped it runs what it is given at once, on the caller's
// goroutine, after GLFW is gone: f is not run then.
func onUI(ctx context.Context, f func()) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	done := make(chan struct{})
	stopped := false
	fyne.Do(func() {
		if !onUIThread() {
			stopped = true
			return
		}
		f()
		close(done)
	})
	if stopped {
		return errStopped
	}
	ctx, cancel := context.WithTimeout(ctx, uiWait)
	defer cancel()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// current is a tree no older than staleAfter, built now when needed.
func (v *view) current(ctx context.Context) (*tree, error) {
	v.mu.Lock()
	t, fresh := v.tree, v.tree != nil && !v.dirty && time.Since(v.built) < staleAfter
	v.mu.Unlock()
	if fresh {
		return t, nil
	}
	return v.rebuild(ctx)
}

// rebuild builds a new tree on the UI goroutine and keeps it. The tree
// before is taken there too: builds follow one another on that goroutine,
// so two calls at once cannot give one new object two ids. A build
// waiting behind one made since it was asked for takes that one: a flood
// of calls builds a tree once, not once each.
func (v *view) rebuild(ctx context.Context) (*tree, error) {
	asked := time.Now()
	var t *tree
	err := onUI(ctx, func() {
		v.mu.Lock()
		prev, fresh := v.tree, v.tree != nil && !v.dirty && v.built.After(asked)
		v.mu.Unlock()
		if fresh {
			t = prev
			return
		}
		t = build(prev, v.name, v.app.Driver().AllWindows())
		v.mu.Lock()
		v.tree, v.built, v.dirty = t, time.Now(), false
		v.mu.Unlock()
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// node is the node id in a current tree.
func (v *view) node(ctx context.Context, id uint64) (*node, error) {
	t, err := v.current(ctx)
	if err != nil {
		return nil, err
	}
	n, ok := t.byID[id]
	if !ok {
		return nil, errGone
	}
	return n, nil
}

// touch says widgets may have changed: the next read builds a new tree.
func (v *view) touch() {
	v.mu.Lock()
	v.dirty = true
	v.mu.Unlock()
}

// do runs an action of a node on the UI goroutine; the next read sees
// what it changed.
func (v *view) do(ctx context.Context, f func()) error {
	err := onUI(ctx, f)
	v.touch()
	return err
}
