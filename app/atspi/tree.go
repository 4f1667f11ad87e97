package atspi

import (
	"strings"

	"fyne.io/fyne/v2"

	"github.com/elicitdesk/elicitdesk/internal/desktop/xwin"
)

// tree is what the app shows, as a screen reader sees it at one moment:
// the application, its windows and their nodes, each found by id.
type tree struct {
	root *node
	byID map[uint64]*node
	ids  map[key]uint64 // what each node stands for, to keep ids in the next tree
	next uint64         // the last id given
	rows map[any][]fyne.CanvasObject
}

// build makes the tree of windows, keeping the ids of prev's nodes for
// the objects still shown. It runs on the UI goroutine: it reads widgets.
func build(prev *tree, name string, windows []fyne.Window) *tree {
	b := newBuilder(prev)
	t := &tree{byID: map[uint64]*node{}, ids: b.kept, rows: b.made}
	t.root = &node{id: 0, role: RoleApplication, name: name}
	for _, w := range windows {
		// Fyne keeps hidden windows among its windows, and an app may
		// make one only to start GLFW.
		if w.Canvas().Content() != nil && xwin.Shown(w) {
			n := b.window(w, xwin.Active(w))
			n.origin = xwin.Origin(w)
			b.add(t.root, n)
		}
	}
	t.next = b.next
	t.index(t.root)
	return t
}

func (t *tree) index(n *node) {
	t.byID[n.id] = n
	n.name, n.desc, n.text = wire(n.name), wire(n.desc), wire(n.text)
	for _, c := range n.children {
		t.index(c)
	}
}

// topLevel reports whether n is a window: a frame or a dialog of its own,
// right under the application.
func topLevel(n *node) bool { return n.parent != nil && n.parent.id == 0 }

// window is the window n is in.
func window(n *node) *node {
	for n.parent != nil && n.parent.id != 0 {
		n = n.parent
	}
	return n
}

// wire is s as a D-Bus string may hold it: valid UTF-8 without NUL, which
// D-Bus refuses, so that one bad string cannot fail a whole reply. What
// the windows show went through untrusted's views already; this is the
// bus's own rule, kept where every string passes.
func wire(s string) string {
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "\uFFFD")
}

// focused is the node that has the keyboard, or nil.
func (t *tree) focused() *node {
	for _, n := range t.byID {
		if n.states.Has(StateFocused) {
			return n
		}
	}
	return nil
}

// Spoken is one node as a screen reader gets it.
type Spoken struct {
	Role                    Role
	Name, Description, Text string
}

// Said is what a screen reader gets from windows through AT-SPI, node by
// node in reading order, the windows included. Run it on the UI
// goroutine. Tests hold it against what the windows show.
func Said(windows ...fyne.Window) []Spoken {
	t := build(nil, "", windows)
	var out []Spoken
	for _, n := range order(t.root)[1:] {
		out = append(out, Spoken{n.role, n.name, n.desc, n.text})
	}
	return out
}
