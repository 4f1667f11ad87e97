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

// ping is a message a pipe holds.
var ping = Message{Raw: []byte(`{"jsonrpc":"2.0","method":"ping"}`)}

// blockedWrite is a link to a pipe nobody reads, which has taken ping,
// and a write of 4 MiB in ctx, more than a pipe holds, under way on it;
// the write's error comes on the channel.
func blockedWrite(t *testing.T, ctx context.Context) (*Lines, <-chan error) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	l := NewLines(strings.NewReader(""), w)
	t.Cleanup(func() { l.Close() })
	if err := l.Write(ctx, ping); err != nil { // a write nothing cuts short leaves the next one be
		t.Fatal(err)
	}
	big := Message{Raw: []byte(`{"jsonrpc":"2.0","id":1,"result":{"a":"` + strings.Repeat("a", 4<<20) + `"}}`)}
	done := make(chan error, 1)
	go func() { done <- l.Write(ctx, big) }()
	for deadline := time.Now().Add(20 * time.Second); len(l.slot) == 0; time.Sleep(time.Millisecond) { // until it holds the slot
		if time.Now().After(deadline) {
			t.Fatal("the write did not start")
		}
	}
	return l, done
}

// TestWriteToAPeerThatStoppedReading: a Write to a pipe nobody reads
// returns once its context ends, with the context's cause, and the link
// is over.
func TestWriteToAPeerThatStoppedReading(t *testing.T) {
	ctx, cancel := context.WithCancelCause(t.Context())
	l, done := blockedWrite(t, ctx)
	quit := errors.New("quitting")
	cancel(quit)
	if err := <-done; !errors.Is(err, quit) {
		t.Errorf("the blocked write returned %v, want the context's cause", err)
	}
	if err := l.Write(t.Context(), ping); err == nil {
		t.Error("a write after a cut one went through: the line it follows is broken")
	}
}

// TestWriteBehindABlockedOne: a Write waiting for another that a peer
// does not read, and that nothing cuts short (an answer, written for the
// link's life), returns once its own context ends; Close ends the other.
func TestWriteBehindABlockedOne(t *testing.T) {
	l, first := blockedWrite(t, context.Background())
	ctx, cancel := context.WithCancelCause(t.Context())
	second := make(chan error, 1)
	go func() { second <- l.Write(ctx, ping) }()
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
