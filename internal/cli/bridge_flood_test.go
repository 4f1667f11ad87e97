//go:build unix

package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adrg/xdg"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/elicitdesk/elicitdesk/internal/deskclient"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/servers/bridge"
)

// TestBridgesShareHistory runs four bridges at once, with no app and no
// display, each for a host that declared no elicitation and a server that
// floods it with elicitations of 250 KB. The four write into the one
// history file, under the cap the app keeps in it: no file beside it, no
// entry dropped, and the space in use under the cap.
func TestBridgesShareHistory(t *testing.T) {
	const (
		bridges  = 4
		each     = 40
		maxBytes = 16 << 20 // the app's cap: 160 entries of 250 KB pass it
	)
	noApp(t)
	exe := asElicitdesk(t)
	path := history.DefaultPath(xdg.DataHome)
	app, err := history.Open(path, nil, history.Options{MaxBytes: maxBytes})
	if err != nil {
		t.Fatal(err)
	}
	app.Close()

	var wg sync.WaitGroup
	stderrs := make([]lockedBuffer, bridges)
	start := time.Now()
	for i := range bridges {
		wg.Go(func() {
			if err := floodThroughBridge(exe, i, each, &stderrs[i]); err != nil {
				t.Errorf("host %d: %v\n%s", i, err, stderrs[i].String())
			}
		})
	}
	wg.Wait()
	took := time.Since(start)
	for i := range stderrs {
		if s := stderrs[i].String(); strings.Contains(s, "not kept") {
			t.Errorf("bridge %d dropped entries:\n%s", i, s)
		}
	}
	f := readHistory(t, path)
	if len(f.dbFiles) != 1 || f.dbFiles[0] != path {
		t.Errorf("history files %v, want only %s", f.dbFiles, path)
	}
	if f.used > maxBytes || f.fileBytes > maxBytes+maxBytes/64 {
		t.Errorf("%d bytes in use in a file of %d, over the cap of %d", f.used, f.fileBytes, maxBytes)
	}
	// Pruned to an eighth under the cap, then filled again.
	if low := maxBytes * 7 / 8 / 260_000; f.entries < low || f.entries >= bridges*each {
		t.Errorf("%d entries kept of %d, want at least %d and the oldest pruned", f.entries, bridges*each, low)
	}
	t.Logf("%d bridges, %d entries each, in %s: %d files, %d entries, %.1f MiB in use, a file of %.1f MiB", bridges, each, took.Round(time.Millisecond),
		len(f.dbFiles), f.entries, float64(f.used)/(1<<20), float64(f.fileBytes)/(1<<20))
}

// floodThroughBridge is host i: through a bridge of its own, it has the
// flood server send n elicitations of 250 KB, and checks that the bridge
// answered each cancel, as no window could show it.
func floodThroughBridge(exe string, i, n int, stderr *lockedBuffer) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tr := transport.NewStdio(exe, os.Environ(), "bridge", "--", "env", floodEnv+"=1", exe)
	if err := tr.Start(ctx); err != nil {
		return err
	}
	host := client.NewClient(tr)
	logged := make(chan struct{})
	go func() {
		defer close(logged)
		io.Copy(stderr, tr.Stderr())
	}()
	defer func() {
		host.Close() // the bridge writes what it has queued, and exits
		<-logged
	}()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: fmt.Sprintf("host-%d", i)}
	if _, err := host.Initialize(ctx, init); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "flood"
	req.Params.Arguments = map[string]any{"n": n, "size": 250_000}
	res, err := host.CallTool(ctx, req)
	if err != nil {
		return err
	}
	if text, want := fmt.Sprint(res.Content), fmt.Sprintf(`{"cancel":%d}`, n); !strings.Contains(text, want) {
		return fmt.Errorf("the server's answers %s, want %s", text, want)
	}
	return nil
}

// unshownApp is a running app's endpoint that takes unshown entries.
type unshownApp struct {
	person
	took chan endpoint.Unshown
}

func (a unshownApp) Unshown(_ context.Context, u endpoint.Unshown) error {
	a.took <- u
	return nil
}

// TestUnshownToTheApp: while the app runs, the bridge hands it the
// entries and writes no history itself; once the app has quit, the bridge
// writes them into the history file.
func TestUnshownToTheApp(t *testing.T) {
	noApp(t)
	ep, err := endpoint.DefaultPath()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	app := unshownApp{took: make(chan endpoint.Unshown, 8)}
	srv, err := endpoint.Listen(ctx, ep, app, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	path := history.DefaultPath(t.TempDir())
	log := slog.New(slog.DiscardHandler)
	desk := deskclient.New(ep, func(context.Context) error { return errors.New("no bus") }, []string{"no-app-to-start"}, log, func(string) {})
	l := deskclient.NewUnshownLog(path, desk.Unshown, log)
	schema := floodSchema(1000)
	for i := range 3 {
		l.Record(endpoint.Unshown{Question: floodQuestion(i, schema), Reason: bridge.ErrNoWindow.Error(), At: time.Now()})
	}
	for i := range 3 {
		u := await(t, app.took, "an entry in the app")
		if want := floodQuestion(i, schema); string(u.Question.Params) != string(want.Params) || u.Question.Session.ID != want.Session.ID ||
			!strings.Contains(u.Reason, bridge.ErrNoWindow.Error()) || u.At.IsZero() {
			t.Errorf("the app took %+v, want question %d", u, i)
		}
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the bridge wrote the history while the app ran (%v)", err)
	}
	// The app has the three; the bridge's writer may still wait for the
	// last one's acknowledgement, which a closing app would not send.
	deadline := time.Now().Add(time.Minute)
	for handed, _ := l.Counts(); handed < 3 && time.Now().Before(deadline); handed, _ = l.Counts() {
		time.Sleep(5 * time.Millisecond)
	}

	srv.Close()
	l.Record(endpoint.Unshown{Question: floodQuestion(3, schema), Reason: bridge.ErrNoWindow.Error(), At: time.Now()})
	l.Close(time.Minute)
	if f := readHistory(t, path); f.entries != 1 || f.newest != "Question 3" {
		t.Errorf("the history holds %d entries, the newest %q; want the one asked after the app quit", f.entries, f.newest)
	}
}
