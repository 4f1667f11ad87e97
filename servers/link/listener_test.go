package link

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/testkit/leaktest"
)

func TestListenRefusesNonLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.168.1.2:0", "example.com:80"} {
		if l, err := Listen(context.Background(), addr, NewSecret(), nil); err == nil {
			l.Close()
			t.Errorf("Listen(%q): no error", addr)
		} else if !strings.Contains(err.Error(), "loopback") {
			t.Errorf("Listen(%q): %v", addr, err)
		}
	}
}

// hostReq sends one raw request to the listener.
func hostReq(t *testing.T, hc *http.Client, method, url, sid, body string, hdr ...string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	if sid != "" {
		req.Header.Set(headerSession, sid)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] == "Host" {
			req.Host = hdr[i+1]
		} else {
			req.Header.Set(hdr[i], hdr[i+1])
		}
	}
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// hostReqAsync sends a request aside: a POST of requests has no headers
// before its first message. The channel yields nil if the request failed.
func hostReqAsync(t *testing.T, hc *http.Client, method, url, sid, body string, hdr ...string) <-chan *http.Response {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	if sid != "" {
		req.Header.Set(headerSession, sid)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	ch := make(chan *http.Response, 1)
	go func() {
		resp, err := hc.Do(req)
		if err != nil {
			t.Error(err)
		}
		ch <- resp
	}()
	return ch
}

// nextData reads the next event's data from an event stream, past the
// priming event's empty data.
func nextData(t *testing.T, br *bufio.Reader) string {
	t.Helper()
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("event stream: %v", err)
		}
		if d, ok := strings.CutPrefix(line, "data: "); ok && strings.TrimSpace(d) != "" {
			return strings.TrimSpace(d)
		}
	}
}

func TestListener(t *testing.T) {
	defer leaktest.Check(t)()
	l, err := Listen(context.Background(), "127.0.0.1:0", NewSecret(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	hc := testHTTP()
	defer hc.CloseIdleConnections()
	url := l.URL()

	t.Run("rebinding", func(t *testing.T) {
		for _, h := range [][]string{
			{"Host", "evil.example.com"},
			{"Origin", "http://evil.example.com"},
			{"Origin", "null"},
		} {
			resp := hostReq(t, hc, "POST", url, "", `{"jsonrpc":"2.0","id":1,"method":"initialize"}`, h...)
			resp.Body.Close()
			if resp.StatusCode != http.StatusForbidden {
				t.Errorf("%v: %s", h, resp.Status)
			}
		}
		resp := hostReq(t, hc, "PUT", url, "", "")
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("PUT: %s", resp.Status)
		}
	})

	// Two sessions, each initialized.
	type session struct {
		sid  string
		link Link
	}
	var ss []session
	for i := range 2 {
		init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`
		resps := hostReqAsync(t, hc, "POST", url, "", init, "Origin", "http://localhost:1234")
		link, err := l.Accept()
		if err != nil {
			t.Fatal(err)
		}
		m, err := link.Read()
		if err != nil || string(m.Raw) != init {
			t.Fatalf("session %d read %s %v", i, m.Raw, err)
		}
		answer := `{"jsonrpc":"2.0","id":1,"result":{"n":` + string(rune('0'+i)) + `}}`
		ans, _ := Parse([]byte(answer))
		if err := link.Write(context.Background(), ans); err != nil {
			t.Fatal(err)
		}
		resp := <-resps
		if resp == nil {
			t.FailNow()
		}
		sid := resp.Header.Get(headerSession)
		if sid == "" || resp.Header.Get("Content-Type") != "text/event-stream" {
			t.Fatalf("initialize answered %s %v", resp.Status, resp.Header)
		}
		body, _ := io.ReadAll(resp.Body) // the stream ends after the response
		resp.Body.Close()
		if !strings.Contains(string(body), "data: "+answer) {
			t.Errorf("session %d got %q", i, body)
		}
		ss = append(ss, session{sid, link})
	}
	if ss[0].sid == ss[1].sid {
		t.Fatal("two sessions with one id")
	}
	a := ss[0]

	t.Run("session ids", func(t *testing.T) {
		for _, tt := range []struct {
			method, sid string
			hdr         []string
			want        int
		}{
			{"POST", "nonesuch", nil, http.StatusNotFound},
			{"GET", "nonesuch", nil, http.StatusNotFound},
			{"POST", "", []string{headerVersion, "2025-06-18"}, http.StatusBadRequest},
			{"GET", "", nil, http.StatusMethodNotAllowed},
			{"POST", a.sid, nil, http.StatusAccepted},
		} {
			resp := hostReq(t, hc, tt.method, url, tt.sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, tt.hdr...)
			resp.Body.Close()
			if resp.StatusCode != tt.want {
				t.Errorf("%s with %q: %s, want %d", tt.method, tt.sid, resp.Status, tt.want)
			}
		}
		if m, err := a.link.Read(); err != nil || m.Method != "notifications/initialized" {
			t.Errorf("read %s %v", m.Raw, err)
		}
		resp := hostReq(t, hc, "POST", url, a.sid, `{"jsonrpc":"2.0","id":"big","method":"x","params":"`+strings.Repeat("x", MaxMessage)+`"}`)
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("too large: %s", resp.Status)
		}
	})

	t.Run("routing", func(t *testing.T) {
		ctx := context.Background()
		// Queued before any stream is open, then delivered on the GET.
		early, _ := Parse([]byte(`{"jsonrpc":"2.0","method":"notifications/early"}`))
		if err := a.link.Write(ctx, early); err != nil {
			t.Fatal(err)
		}
		get := hostReq(t, hc, "GET", url, a.sid, "")
		defer get.Body.Close()
		gr := bufio.NewReader(get.Body)
		if d := nextData(t, gr); d != string(early.Raw) {
			t.Errorf("GET got %s", d)
		}
		posted := hostReqAsync(t, hc, "POST", url, a.sid, `{"jsonrpc":"2.0","id":5,"method":"tools/call"}`)
		if m, err := a.link.Read(); err != nil || m.Key() != "5" {
			t.Fatalf("read %s %v", m.Raw, err)
		}
		progress, _ := Parse([]byte(`{"jsonrpc":"2.0","method":"notifications/progress"}`))
		progress.Related = []byte("5")
		other, _ := Parse([]byte(`{"jsonrpc":"2.0","id":"s1","method":"elicitation/create"}`))
		answer, _ := Parse([]byte(`{"jsonrpc":"2.0","id":5,"result":{}}`))
		for _, m := range []Message{progress, other, answer} {
			if err := a.link.Write(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
		post := <-posted
		if post == nil {
			t.FailNow()
		}
		defer post.Body.Close()
		pr := bufio.NewReader(post.Body)
		if d := nextData(t, pr); d != string(progress.Raw) {
			t.Errorf("POST stream got %s, want the progress", d)
		}
		if d := nextData(t, pr); d != string(answer.Raw) {
			t.Errorf("POST stream got %s, want the answer", d)
		}
		if rest, _ := io.ReadAll(pr); strings.TrimSpace(string(rest)) != "" {
			t.Errorf("POST stream went on: %q", rest)
		}
		if d := nextData(t, gr); d != string(other.Raw) {
			t.Errorf("GET got %s, want the server's request", d)
		}
		// The other session saw none of it.
		if err := ss[1].link.Write(ctx, early); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("delete", func(t *testing.T) {
		resp := hostReq(t, hc, "DELETE", url, a.sid, "")
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("DELETE: %s", resp.Status)
		}
		if _, err := a.link.Read(); err != io.EOF {
			t.Errorf("Read after DELETE: %v", err)
		}
		if err := a.link.Write(context.Background(), Message{Raw: []byte(`{}`)}); err != ErrSessionGone {
			t.Errorf("Write after DELETE: %v", err)
		}
		resp = hostReq(t, hc, "POST", url, a.sid, `{"jsonrpc":"2.0","method":"x"}`)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("POST after DELETE: %s", resp.Status)
		}
	})

	t.Run("sessionless", func(t *testing.T) {
		// A JSON answer has no headers before the response: ask aside.
		resps := make(chan *http.Response, 1)
		go func() {
			resps <- hostReq(t, hc, "POST", url, "", `{"jsonrpc":"2.0","id":9,"method":"server/discover"}`, headerVersion, "2026-07-28", "Accept", "application/json")
		}()
		link, err := l.Accept()
		if err != nil {
			t.Fatal(err)
		}
		if m, err := link.Read(); err != nil || m.Method != "server/discover" {
			t.Fatalf("read %s %v", m.Raw, err)
		}
		answer, _ := Parse([]byte(`{"jsonrpc":"2.0","id":9,"result":{}}`))
		link.Write(context.Background(), answer)
		resp := <-resps
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if string(body) != string(answer.Raw) || resp.Header.Get(headerSession) != "" || resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("got %s %v %q", resp.Status, resp.Header, body)
		}
	})
	l.Close()
	if _, err := l.Accept(); err != net.ErrClosed {
		t.Errorf("Accept after Close: %v", err)
	}
}

// TestListenerStreams checks a batch's requests share one stream, an id
// in flight cannot be reused, a session has one GET stream, a response
// whose POST the host left goes on the GET stream, and sessions do not
// see each other's messages.
func TestListenerStreams(t *testing.T) {
	defer leaktest.Check(t)()
	l, err := Listen(context.Background(), "[::1]:0", NewSecret(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Skipf("no IPv6 loopback: %v", err)
	}
	defer l.Close()
	hc := testHTTP()
	defer hc.CloseIdleConnections()
	url := l.URL()
	ctx := context.Background()
	write := func(link Link, raw string) {
		t.Helper()
		m, err := Parse([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		if err := link.Write(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	open := func() (string, Link) {
		resps := hostReqAsync(t, hc, "POST", url, "", `{"jsonrpc":"2.0","id":0,"method":"initialize"}`, "Origin", "http://[::1]:80")
		link, err := l.Accept()
		if err != nil {
			t.Fatal(err)
		}
		link.Read()
		write(link, `{"jsonrpc":"2.0","id":0,"result":{}}`)
		resp := <-resps
		if resp == nil {
			t.FailNow()
		}
		defer resp.Body.Close()
		io.ReadAll(resp.Body)
		return resp.Header.Get(headerSession), link
	}
	sidA, a := open()
	sidB, b := open()

	batched := hostReqAsync(t, hc, "POST", url, sidA, `[{"jsonrpc":"2.0","id":1,"method":"a"}, {"jsonrpc":"2.0","id":2,"method":"b"}, {"jsonrpc":"2.0","method":"n"}]`)
	for _, want := range []string{"a", "b", "n"} {
		if m, err := a.Read(); err != nil || m.Method != want {
			t.Fatalf("batch: read %s %v, want %s", m.Raw, err, want)
		}
	}
	dup := hostReq(t, hc, "POST", url, sidA, `{"jsonrpc":"2.0","id":1,"method":"again"}`)
	dup.Body.Close()
	if dup.StatusCode != http.StatusConflict {
		t.Errorf("id 1 again while in flight: %s", dup.Status)
	}
	write(a, `{"jsonrpc":"2.0","id":2,"result":{}}`)
	write(a, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	batch := <-batched
	if batch == nil {
		t.FailNow()
	}
	body, _ := io.ReadAll(batch.Body)
	batch.Body.Close()
	if got := string(body); !strings.Contains(got, `"id":2`) || !strings.Contains(got, `"id":1`) {
		t.Errorf("batch stream: %q", got)
	}

	get := hostReq(t, hc, "GET", url, sidA, "")
	defer get.Body.Close()
	gr := bufio.NewReader(get.Body)
	again := hostReq(t, hc, "GET", url, sidA, "")
	again.Body.Close()
	if again.StatusCode != http.StatusConflict {
		t.Errorf("second GET: %s", again.Status)
	}

	// The host gives up on a POST; its answer comes on the GET stream.
	rctx, cancel := context.WithCancel(ctx)
	req, _ := http.NewRequestWithContext(rctx, "POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":3,"method":"slow"}`))
	req.Header.Set(headerSession, sidA)
	req.Header.Set("Accept", "application/json, text/event-stream")
	left := make(chan error, 1)
	go func() {
		resp, err := hc.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		left <- err
	}()
	a.Read()
	cancel()
	<-left
	// Once the listener has noticed, the answer has nowhere but the GET.
	sa := a.(*hostSession)
	waitFor(t, func() bool {
		sa.mu.Lock()
		defer sa.mu.Unlock()
		return sa.pending["3"] == nil
	})
	write(a, `{"jsonrpc":"2.0","id":3,"result":{"late":true}}`)
	if d := nextData(t, gr); !strings.Contains(d, `"late":true`) {
		t.Errorf("GET got %s", d)
	}

	// An error the server gave with a status answers a lone request so.
	refused := hostReqAsync(t, hc, "POST", url, sidA, `{"jsonrpc":"2.0","id":4,"method":"nonesuch"}`)
	a.Read()
	notFound, _ := Parse([]byte(`{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"no such method"}}`))
	notFound.Status = http.StatusNotFound
	if err := a.Write(ctx, notFound); err != nil {
		t.Fatal(err)
	}
	if resp := <-refused; resp != nil {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound || string(body) != string(notFound.Raw) || resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("refusal: %s %v %s", resp.Status, resp.Header, body)
		}
	}

	// B saw none of A's traffic.
	n := hostReq(t, hc, "POST", url, sidB, `{"jsonrpc":"2.0","method":"only-b"}`)
	n.Body.Close()
	if m, err := b.Read(); err != nil || m.Method != "only-b" {
		t.Errorf("B read %s %v", m.Raw, err)
	}
}

// waitFor waits until cond holds, for at most a few seconds.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in time")
		}
	}
}

// TestSessionlessCancel checks a 2026-07-28 host that closes a request's
// stream cancels the request: the Link reads a notifications/cancelled,
// and the late answer goes nowhere.
func TestSessionlessCancel(t *testing.T) {
	defer leaktest.Check(t)()
	l, err := Listen(context.Background(), "localhost:0", NewSecret(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	hc := testHTTP()
	defer hc.CloseIdleConnections()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", l.URL(), strings.NewReader(`{"jsonrpc":"2.0","id":"x","method":"tools/call"}`))
	req.Header.Set(headerVersion, "2026-07-28")
	done := make(chan struct{})
	go func() {
		defer close(done)
		if resp, err := hc.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	link, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	if m, err := link.Read(); err != nil || m.Key() != `"x"` {
		t.Fatalf("read %s %v", m.Raw, err)
	}
	cancel()
	<-done
	m, err := link.Read()
	if err != nil || m.Method != "notifications/cancelled" || !strings.Contains(string(m.Raw), `"requestId":"x"`) {
		t.Fatalf("read %s %v", m.Raw, err)
	}
	late, _ := Parse([]byte(`{"jsonrpc":"2.0","id":"x","result":{}}`))
	if err := link.Write(context.Background(), late); err != nil {
		t.Errorf("late answer: %v", err)
	}
	s := link.(*hostSession)
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.queue) != 0 {
		t.Errorf("queued %d messages without a session", len(s.queue))
	}
}
