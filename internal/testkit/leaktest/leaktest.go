// Package leaktest checks, in tests, that the goroutines code started have
// ended by the time it says it is done.
package leaktest

import (
	"runtime"
	"testing"
	"time"
)

// settle is how long goroutines that are already ending get to finish.
const settle = 5 * time.Second

// Check notes how many goroutines run now. The function it returns fails t
// unless the count is back to that within a few seconds, printing the
// stacks of all goroutines so the leftovers can be told apart.
func Check(t testing.TB) func() {
	t.Helper()
	baseline := runtime.NumGoroutine()
	return func() {
		t.Helper()
		deadline := time.Now().Add(settle)
		for runtime.NumGoroutine() > baseline {
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<20)
				t.Fatalf("%d goroutines left, want %d:\n%s", runtime.NumGoroutine(), baseline, buf[:runtime.Stack(buf, true)])
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}
