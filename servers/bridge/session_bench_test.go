package bridge

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"strconv"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/elicitdesk/elicitdesk/servers/link"
)

// BenchmarkSessionEcho times one tools/call through a Session, as
// BenchmarkBridgeEcho (internal/cli) does with real processes, but in one
// process over OS pipes: the host is the benchmark, the server a goroutine
// that answers as server-everything's echo does. What it reports, besides
// time, is what the session spends on each call: its allocations.
func BenchmarkSessionEcho(b *testing.B) {
	hostR, hostW := osPipe(b)     // host -> session
	toHostR, toHostW := osPipe(b) // session -> host
	srvR, srvW := osPipe(b)       // session -> server
	fromSrvR, fromSrvW := osPipe(b)
	go echoServer(srvR, fromSrvW)
	s := New(link.NewLines(hostR, toHostW), link.NewLines(fromSrvR, srvW), Options{Desk: newDesk()})
	ended := make(chan error, 1)
	go func() { ended <- s.Run(context.Background()) }()

	answers := bufio.NewReader(toHostR)
	call := func(id int) {
		n := strconv.Itoa(id)
		req := `{"method":"tools/call","params":{"name":"echo","arguments":{"message":"m` + n + `"}},"jsonrpc":"2.0","id":` + n + "}\n"
		if _, err := io.WriteString(hostW, req); err != nil {
			b.Fatal(err)
		}
		line, err := answers.ReadBytes('\n')
		if err != nil || !bytes.HasSuffix(line, []byte(`"id":`+n+"}\n")) {
			b.Fatalf("answer %q, %v", line, err)
		}
	}
	call(0)
	id := 1
	for b.Loop() {
		call(id)
		id++
	}
	b.StopTimer()
	hostW.Close()
	if err := <-ended; err != ErrHostGone {
		b.Fatalf("the session ended with %v", err)
	}
}

// echoServer answers each request on r with an echo result on w, the way
// server-everything writes it, until r ends.
func echoServer(r io.Reader, w io.WriteCloser) {
	defer w.Close()
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		req := gjson.ParseBytes(sc.Bytes())
		out := `{"result":{"content":[{"type":"text","text":"Echo: ` + req.Get("params.arguments.message").String() + `"}]},"jsonrpc":"2.0","id":` + req.Get("id").Raw + "}\n"
		if _, err := io.WriteString(w, out); err != nil {
			return
		}
	}
}

func osPipe(b *testing.B) (*os.File, *os.File) {
	r, w, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}
