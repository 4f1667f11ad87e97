package lines

import (
	"bytes"
	"os"
	"testing"
)

// BenchmarkReadLongLine reads 1 MiB messages from a pipe, as a stdio
// server's big tool result comes: the cost of reading readSize bytes at a
// time.
func BenchmarkReadLongLine(b *testing.B) {
	r, w, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	msg := append(bytes.Repeat([]byte("x"), 1<<20), '\n')
	go func() {
		defer w.Close()
		for {
			if _, err := w.Write(msg); err != nil {
				return
			}
		}
	}()
	lr := NewReader(r, 8<<20)
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		if line, err := lr.Read(); err != nil || len(line) != 1<<20 {
			b.Fatalf("read %d bytes: %v", len(line), err)
		}
	}
}
