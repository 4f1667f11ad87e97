package app

import (
	"slices"
	"testing"
)

func TestQueue(t *testing.T) {
	type step struct {
		op   string // add, remove, promote, max
		arg  int
		want []int // what add/promote report as shown, or what remove/max open
	}
	tests := []struct {
		name        string
		max         int
		steps       []step
		open, queue []int
	}{
		{"under the limit", 3, []step{{"add", 1, []int{1}}, {"add", 2, []int{2}}}, []int{1, 2}, nil},
		{"over the limit waits in order", 2, []step{
			{"add", 1, []int{1}}, {"add", 2, []int{2}}, {"add", 3, nil}, {"add", 4, nil},
		}, []int{1, 2}, []int{3, 4}},
		{"a closed window lets the oldest in", 2, []step{
			{"add", 1, []int{1}}, {"add", 2, []int{2}}, {"add", 3, nil}, {"add", 4, nil},
			{"remove", 2, []int{3}},
		}, []int{1, 3}, []int{4}},
		{"a stale waiting request leaves quietly", 1, []step{
			{"add", 1, []int{1}}, {"add", 2, nil}, {"add", 3, nil}, {"remove", 2, nil},
		}, []int{1}, []int{3}},
		{"picking from the tray goes past the limit", 1, []step{
			{"add", 1, []int{1}}, {"add", 2, nil}, {"add", 3, nil}, {"promote", 3, []int{3}},
		}, []int{1, 3}, []int{2}},
		{"a higher limit opens the waiting", 1, []step{
			{"add", 1, []int{1}}, {"add", 2, nil}, {"add", 3, nil}, {"max", 3, []int{2, 3}},
		}, []int{1, 2, 3}, nil},
		{"a lower limit closes nothing", 3, []step{
			{"add", 1, []int{1}}, {"add", 2, []int{2}}, {"max", 1, nil}, {"add", 3, nil}, {"remove", 1, nil},
		}, []int{2}, []int{3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := &queue[int]{max: tt.max}
			for _, s := range tt.steps {
				var got []int
				switch s.op {
				case "add":
					if q.add(s.arg) {
						got = []int{s.arg}
					}
				case "promote":
					if q.promote(s.arg) {
						got = []int{s.arg}
					}
				case "remove":
					got = q.remove(s.arg)
				case "max":
					got = q.setMax(s.arg)
				}
				if !slices.Equal(got, s.want) {
					t.Fatalf("%s %d: got %v, want %v", s.op, s.arg, got, s.want)
				}
			}
			if !slices.Equal(q.open, tt.open) || !slices.Equal(q.waiting, tt.queue) {
				t.Fatalf("open %v waiting %v, want %v %v", q.open, q.waiting, tt.open, tt.queue)
			}
			if q.len() != len(tt.open)+len(tt.queue) || !slices.Equal(q.all(), append(slices.Clone(tt.open), tt.queue...)) {
				t.Fatalf("all %v", q.all())
			}
		})
	}
}
