package servers

import (
	"testing"
	"time"
)

// TestBridges checks the live list: adding, counting requests by session,
// removing by id and by entry, and that each change is reported.
func TestBridges(t *testing.T) {
	since := time.Date(2026, 11, 23, 10, 42, 0, 0, time.UTC)
	type step struct {
		do      func(l *Bridges, removes map[string]func())
		want    map[string]int // listed ID → asked, in order
		changes int            // onChange calls so far
	}
	add := func(id string) func(l *Bridges, r map[string]func()) {
		return func(l *Bridges, r map[string]func()) {
			r[id] = l.Add(Bridged{ID: id, Server: Identity{Name: "files"}, Since: since})
		}
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"count and remove", []step{
			{add("a"), map[string]int{"a": 0}, 1},
			{add("b"), map[string]int{"a": 0, "b": 0}, 2},
			{func(l *Bridges, _ map[string]func()) { l.Asking("b")(); l.Asking("b")(); l.Asking("zz")() }, map[string]int{"a": 0, "b": 2}, 8},
			{func(l *Bridges, _ map[string]func()) { l.Remove("a") }, map[string]int{"b": 2}, 9},
			{func(l *Bridges, _ map[string]func()) { l.Remove("a") }, map[string]int{"b": 2}, 9},
		}},
		{"a request before its session is listed", []step{
			{func(l *Bridges, r map[string]func()) { r["ask"] = l.Asking("a") }, map[string]int{}, 1},
			{add("a"), map[string]int{"a": 1}, 2},
			{func(l *Bridges, r map[string]func()) { r["ask"]() }, map[string]int{"a": 1}, 3},
			{func(l *Bridges, r map[string]func()) { r["a"]() }, map[string]int{}, 4},
			{add("a"), map[string]int{"a": 0}, 5}, // a new session of that id starts at nothing
		}},
		{"an old session's end keeps a new one with its id", []step{
			{add("a"), map[string]int{"a": 0}, 1},
			{func(l *Bridges, r map[string]func()) { old := r["a"]; add("a")(l, r); old() }, map[string]int{"a": 0}, 3},
			{func(l *Bridges, r map[string]func()) { r["a"](); r["a"]() }, map[string]int{}, 4},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			changes := 0
			l := NewBridges(func() { changes++ })
			removes := map[string]func(){}
			for i, s := range tt.steps {
				s.do(l, removes)
				got := map[string]int{}
				for _, b := range l.List() {
					got[b.ID] = b.Asked
				}
				if len(got) != len(s.want) {
					t.Fatalf("step %d: listed %v, want %v", i, got, s.want)
				}
				for id, n := range s.want {
					if got[id] != n {
						t.Errorf("step %d: %s asked %d, want %d", i, id, got[id], n)
					}
				}
				if changes != s.changes {
					t.Errorf("step %d: %d changes reported, want %d", i, changes, s.changes)
				}
			}
		})
	}
}
