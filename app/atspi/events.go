package atspi

import "unicode/utf8"

// event is one AT-SPI event: a signal on the node's path, on
// org.a11y.atspi.Event.<class>, member, with (kind, detail1, detail2,
// value) as the signal's first four arguments.
type event struct {
	node             *node
	class, member    string
	kind             string
	detail1, detail2 int32
	value            any // a string, an int32, or a *node to send as a reference
}

// changes is what a screen reader is told of when the tree goes from
// prev to next: nodes that came and went, names, descriptions, states and
// texts that changed, windows that became active or not, and the focus.
func changes(prev, next *tree) []event {
	var out []event
	for _, n := range order(next.root) {
		was := prev.byID[n.id]
		if n.role == RoleNotification && (was == nil || n.name != was.name) {
			// Orca speaks a notification as it shows: told again with new words.
			out = append(out, event{node: n, class: "Object", member: "StateChanged", kind: "showing", detail1: 1, value: int32(0)})
		}
		if was == nil {
			continue // its parent tells of it
		}
		if n.name != was.name {
			out = append(out, event{node: n, class: "Object", member: "PropertyChange", kind: "accessible-name", value: n.name})
		}
		if n.desc != was.desc {
			out = append(out, event{node: n, class: "Object", member: "PropertyChange", kind: "accessible-description", value: n.desc})
		}
		for st := range State(64) { // in order: a map's is not
			name, ok := stateNames[st]
			if ok && st != StateFocused && n.states.Has(st) != was.states.Has(st) {
				out = append(out, event{node: n, class: "Object", member: "StateChanged", kind: name, detail1: flag(n.states.Has(st)), value: int32(0)})
			}
		}
		if n.text != was.text {
			if was.text != "" {
				out = append(out, event{node: n, class: "Object", member: "TextChanged", kind: "delete", detail2: int32(utf8.RuneCountInString(was.text)), value: was.text})
			}
			if n.text != "" {
				out = append(out, event{node: n, class: "Object", member: "TextChanged", kind: "insert", detail2: int32(utf8.RuneCountInString(n.text)), value: n.text})
			}
		}
		out = append(out, childChanges(was, n, prev, next)...)
	}
	for _, w := range prev.root.children {
		if next.byID[w.id] == nil {
			out = append(out, event{node: w, class: "Window", member: "Destroy", value: ""})
		}
	}
	for _, w := range next.root.children {
		was := prev.byID[w.id]
		if was == nil {
			out = append(out, event{node: w, class: "Window", member: "Create", value: ""})
		}
		// Orca reads the focus only in the window it was told is active.
		switch active := w.states.Has(StateActive); {
		case active && (was == nil || !was.states.Has(StateActive)):
			out = append(out, event{node: w, class: "Window", member: "Activate", value: ""})
		case !active && was != nil && was.states.Has(StateActive):
			out = append(out, event{node: w, class: "Window", member: "Deactivate", value: ""})
		}
	}
	return append(out, focusChanges(prev, next)...)
}

// childChanges tells of n's children that went, then of those that came.
func childChanges(was, n *node, prev, next *tree) []event {
	var out []event
	for _, c := range was.children {
		if k := next.byID[c.id]; k == nil || k.parent.id != n.id {
			out = append(out, event{node: n, class: "Object", member: "ChildrenChanged", kind: "remove", detail1: int32(c.index), value: c})
		}
	}
	for _, c := range n.children {
		if k := prev.byID[c.id]; k == nil || k.parent.id != was.id {
			out = append(out, event{node: n, class: "Object", member: "ChildrenChanged", kind: "add", detail1: int32(c.index), value: c})
		}
	}
	return out
}

// focusChanges tells that the keyboard left one node and reached another.
func focusChanges(prev, next *tree) []event {
	from, to := prev.focused(), next.focused()
	if to == nil || (from != nil && from.id == to.id) {
		return nil
	}
	var out []event
	if from != nil {
		if n := next.byID[from.id]; n != nil {
			out = append(out, event{node: n, class: "Object", member: "StateChanged", kind: "focused", value: int32(0)})
		}
	}
	return append(out,
		event{node: to, class: "Object", member: "StateChanged", kind: "focused", detail1: 1, value: int32(0)},
		event{node: to, class: "Focus", member: "Focus", value: int32(0)})
}

// order is n and all under it, parents first.
func order(n *node) []*node {
	out := []*node{n}
	for _, c := range n.children {
		out = append(out, order(c)...)
	}
	return out
}

func flag(b bool) int32 {
	if b {
		return 1
	}
	return 0
}
