package deskclient

import (
	"bufio"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/servers/rpc"
)

// TestColdBurstInOrder: a server's burst of elicitations, asked while the
// bridge has no connection to the app yet, reaches the app in the order
// the server sent it, even when its last request dials first: the
// connection's handshake is not held back behind the burst's turns,
// which waited for a dial the last request held (5 s, then failures).
func TestColdBurstInOrder(t *testing.T) {
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil { // private, as the desktop's runtime folder is
		t.Fatal(err)
	}
	path := filepath.Join(dir, "elicitdesk.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var (
		mu    sync.Mutex
		asked []string
	)
	dialled := make(chan struct{}, 8)
	go func() { // an app's endpoint, as far as a bridge's questions go
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			dialled <- struct{}{}
			go func() {
				defer c.Close()
				for sc := bufio.NewScanner(c); sc.Scan(); {
					var m struct {
						ID     json.RawMessage
						Method string
						Params struct{ Params struct{ Message string } }
					}
					json.Unmarshal(sc.Bytes(), &m)
					switch m.Method {
					case "endpoint/hello":
						fmt.Fprintf(c, `{"jsonrpc":"2.0","id":%s,"result":{"version":%d}}`+"\n", m.ID, endpoint.Version)
					case "bridge/elicit":
						mu.Lock()
						asked = append(asked, m.Params.Params.Message)
						mu.Unlock()
						fmt.Fprintf(c, `{"jsonrpc":"2.0","id":%s,"result":{"action":"cancel"}}`+"\n", m.ID)
					}
				}
			}()
		}
	}()
	d := NewForwarded(path, func(error) string { return "" }, slog.New(slog.DiscardHandler), func(string) {})

	const burst = 8
	var turns rpc.Turns
	ask := make([]func(), burst)
	for i := range burst {
		ctx, arrived := turns.Next(t.Context())
		q := endpoint.Question{Params: json.RawMessage(fmt.Sprintf(`{"message":"%d"}`, i+1))}
		ask[i] = func() {
			defer arrived()
			if _, err := d.Ask(ctx, q); err != nil {
				t.Errorf("question %d: %v", i+1, err)
			}
		}
	}
	var wg sync.WaitGroup
	wg.Go(ask[burst-1])
	<-dialled // the last question dials first
	for _, f := range ask[:burst-1] {
		wg.Go(f)
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"1", "2", "3", "4", "5", "6", "7", "8"}; !slices.Equal(asked, want) {
		t.Errorf("the app was asked %q, want %q", asked, want)
	}
}
