// A Windows pipe has no write deadline (os.File's SetWriteDeadline fails
// on it), so a write to a peer that stopped reading stays blocked there
// until the peer goes, as its whole group does at Quit; and these tests
// would block with it.

//go:build !windows

package link

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// TestWriteToAPeerThatStoppedReading: a Write to a pipe nobody reads
// returns once its context ends, with the context's cause, and the link
// is over; a Write that nothing cuts short leaves the next one be.
func TestWriteToAPeerThatStoppedReading(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	l := NewLines(strings.NewReader(""), w)
	defer l.Close()
	small := Message{Raw: []byte(`{"jsonrpc":"2.0","method":"ping"}`)}
	ctx, cancel := context.WithCancelCause(t.Context())
	if err := l.Write(ctx, small); err != nil { // the pipe holds it
		t.Fatal(err)
	}
	big := Message{Raw: []byte(`{"jsonrpc":"2.0","method":"x","params":{"a":"` + strings.Repeat("a", 4<<20) + `"}}`)}
	done := make(chan error, 1)
	go func() { done <- l.Write(ctx, big) }()
	// Under way, it blocks: 4 MiB is more than a pipe holds.
	for deadline := time.Now().Add(20 * time.Second); !l.underWay(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the write did not start")
		}
	}
	quit := errors.New("quitting")
	cancel(quit)
	if err := <-done; !errors.Is(err, quit) {
		t.Errorf("the blocked write returned %v, want the context's cause", err)
	}
	if err := l.Write(t.Context(), small); err == nil {
		t.Error("a write after a cut one went through: the line it follows is broken")
	}
}

// underWay reports whether a Write is under way: it holds the slot.
func (l *Lines) underWay() bool { return len(l.slot) == 1 }

// TestWriteBehindABlockedOne: a Write waiting for another that a peer
// does not read, and that nothing cuts short (an answer, written for the
// link's life), returns once its own context ends; Close ends the other.
func TestWriteBehindABlockedOne(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	l := NewLines(strings.NewReader(""), w)
	big := Message{Raw: []byte(`{"jsonrpc":"2.0","id":1,"result":{"a":"` + strings.Repeat("a", 4<<20) + `"}}`)}
	first := make(chan error, 1)
	go func() { first <- l.Write(context.Background(), big) }()
	for deadline := time.Now().Add(20 * time.Second); !l.underWay(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the write did not start")
		}
	}
	ctx, cancel := context.WithCancelCause(t.Context())
	second := make(chan error, 1)
	go func() { second <- l.Write(ctx, Message{Raw: []byte(`{"jsonrpc":"2.0","method":"ping"}`)}) }()
	quit := errors.New("quitting")
	cancel(quit)
	if err := <-second; !errors.Is(err, quit) {
		t.Errorf("the write behind returned %v, want its context's cause", err)
	}
	l.Close()
	if err := <-first; err == nil {
		t.Error("the blocked write succeeded after Close")
	}
}
