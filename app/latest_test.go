package app

import (
	"context"
	"testing"
)

// TestLatestSendsInOrder: values set while one is being sent are
// superseded by the newest, and what is sent goes in the order set, so the
// core is left with the last value saved.
func TestLatestSendsInOrder(t *testing.T) {
	l := newLatest[int]()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sending, release := make(chan int), make(chan struct{})
	var sent []int
	done := make(chan struct{})
	go func() {
		defer close(done)
		l.sendEach(ctx, func(v int) {
			sending <- v
			<-release
			sent = append(sent, v)
			if v == 4 {
				cancel()
			}
		})
	}()
	l.set(1)
	if v := <-sending; v != 1 {
		t.Fatalf("sent %d first, want 1", v)
	}
	for v := 2; v <= 4; v++ { // while 1 is on its way
		l.set(v)
	}
	release <- struct{}{}
	if v := <-sending; v != 4 {
		t.Fatalf("sent %d next, want 4, the newest", v)
	}
	release <- struct{}{}
	<-done
	if len(sent) != 2 || sent[0] != 1 || sent[1] != 4 {
		t.Errorf("sent %v, want [1 4]", sent)
	}
}
