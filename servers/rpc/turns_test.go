package rpc

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"
)

// TestTurnsKeepReadOrder: a burst of ordered requests passes WaitTurn in
// the order it was read, however their goroutines run: the first is held
// back until the four behind it wait for their turns, and they pass only
// after it; a request of another method is answered meanwhile. With
// forward, the handlers call the other side instead, and their calls go
// out in the order read.
func TestTurnsKeepReadOrder(t *testing.T) {
	for _, forward := range []bool{false, true} {
		t.Run(fmt.Sprint("forward=", forward), func(t *testing.T) { testTurns(t, forward) })
	}
}

func testTurns(t *testing.T, forward bool) {
	var (
		mu      sync.Mutex
		passed  []string
		waiting sync.WaitGroup // the requests behind the first, once each is in its handler
		release = make(chan struct{})
		peer    *Peer
		ready   = make(chan struct{})
	)
	waiting.Add(4)
	ask := func(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
		var n string
		json.Unmarshal(params, &n)
		if n == "1" {
			<-release
		} else {
			waiting.Done()
		}
		<-ready
		if forward {
			return peer.Call(InTurn(ctx), "forward", n)
		}
		arrived := WaitTurn(ctx)
		mu.Lock()
		passed = append(passed, n)
		mu.Unlock()
		arrived()
		return nil, nil
	}
	ping := func(context.Context, json.RawMessage) (json.RawMessage, error) { return json.RawMessage(`"pong"`), nil }
	p, o := start(t, Options{Methods: map[string]Handler{"ask": ask, "ping": ping}, Ordered: map[string]bool{"ask": true}})
	peer = p
	close(ready)
	for i := 1; i <= 5; i++ {
		o.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ask","params":"%d"}`, i, i))
	}
	o.send(`{"jsonrpc":"2.0","id":"p","method":"ping"}`)
	if got := o.next(); got.Get("id").String() != "p" || got.Get("result").String() != "pong" {
		t.Fatalf("a request of another method waited for the turns: %s", got.Raw)
	}
	waiting.Wait()
	mu.Lock()
	if len(passed) != 0 {
		t.Errorf("passed %q before the first request", passed)
	}
	mu.Unlock()
	close(release)
	var sent []string
	for range 5 {
		m := o.next()
		if forward {
			sent = append(sent, m.Get("params").String())
		}
	}
	if forward {
		passed = sent
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"1", "2", "3", "4", "5"}; !slices.Equal(passed, want) {
		t.Errorf("passed their turns in the order %q, want %q", passed, want)
	}
}

// TestTurnCancelledKeepsItsPlace: a request whose context ends while it
// waits goes on, but the one behind it still waits for those before.
func TestTurnCancelledKeepsItsPlace(t *testing.T) {
	var ts Turns
	first, firstArrived := ts.Next(t.Context())
	ctx, cancel := context.WithCancel(t.Context())
	second, secondArrived := ts.Next(ctx)
	third, _ := ts.Next(t.Context())
	cancel()
	WaitTurn(second) // its context ended: it goes on
	secondArrived()
	behind := third.Value(turnKey{}).(*turn).before
	select {
	case <-behind:
		t.Fatal("the third may pass while the first has not arrived")
	default:
	}
	WaitTurn(first)
	firstArrived()
	<-behind
}
