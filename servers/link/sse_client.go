package link

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
)

// SSEClient is a Link to a server over the HTTP+SSE transport of revision
// 2024-11-05: one GET event stream carries the server's messages, and
// each of ours is POSTed to the endpoint the stream's first event names.
type SSEClient struct {
	url     string
	headers map[string]string
	hc      *http.Client
	in      *inbox

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	ready    chan struct{} // closed once endpoint or failed is set
	endpoint string
	failed   error
}

// NewSSEClient returns a Link to the HTTP+SSE server whose event stream is
// at url, and starts opening that stream. headers go with every request;
// hc nil means http.DefaultClient.
func NewSSEClient(url string, headers map[string]string, hc *http.Client) *SSEClient {
	if hc == nil {
		hc = http.DefaultClient
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &SSEClient{url: url, headers: headers, hc: hc, in: newInbox(), ctx: ctx, cancel: cancel, ready: make(chan struct{})}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		c.run()
	}()
	return c
}

// Read returns the server's messages; io.EOF once the server ended its
// stream, another error if the stream could not be opened or broke.
func (c *SSEClient) Read() (Message, error) { return c.in.read() }

// run reads the event stream until it ends.
func (c *SSEClient) run() {
	err := c.stream()
	if err == nil || c.ctx.Err() != nil {
		err = io.EOF
	}
	c.setReady("", err)
	c.in.end(err)
}

func (c *SSEClient) stream() error {
	req, err := http.NewRequestWithContext(c.ctx, http.MethodGet, c.url, nil)
	if err != nil {
		return err
	}
	for k, v := range c.headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("cannot reach the server: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return statusError(resp, errorBody(resp), "")
	}
	if ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); ct != "text/event-stream" {
		return fmt.Errorf("server answered with content type %q, not an event stream", ct)
	}
	r, from := newEventReader(resp.Body), responseOf(resp)
	for {
		ev, err := r.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("the server's event stream broke: %w", err)
		}
		switch ev.Name {
		case "endpoint":
			ep, err := c.resolve(string(bytes.TrimSpace(ev.Data)))
			if err != nil {
				return err
			}
			c.setReady(ep, nil)
		case "", "message":
			if ev.Size == 0 {
				continue
			}
			m, err := ev.message()
			m.HTTP = from
			if !c.in.put(c.ctx, m, err) {
				return nil
			}
		}
	}
}

// resolve reads the endpoint event's URL, relative to the stream's, and
// refuses one on another origin: messages must not go elsewhere than the
// user configured.
func (c *SSEClient) resolve(ref string) (string, error) {
	base, err := url.Parse(c.url)
	if err != nil {
		return "", err
	}
	u, err := base.Parse(ref)
	if err != nil {
		return "", fmt.Errorf("the server's endpoint %q is not a URL: %w", excerpt([]byte(ref)), err)
	}
	if !strings.EqualFold(u.Scheme, base.Scheme) || !strings.EqualFold(u.Host, base.Host) {
		return "", fmt.Errorf("the server's endpoint %s is on another origin than %s://%s; refused", excerpt([]byte(u.String())), base.Scheme, base.Host)
	}
	return u.String(), nil
}

// setReady records the endpoint, or why there is none, the first time.
func (c *SSEClient) setReady(endpoint string, err error) {
	select {
	case <-c.ready:
		return
	default:
	}
	c.endpoint, c.failed = endpoint, err
	close(c.ready)
}

// Write POSTs m to the endpoint, waiting for the endpoint event first. A
// request the server refuses gets an error response from Read, as with
// StreamableClient.
func (c *SSEClient) Write(ctx context.Context, m Message) error {
	select {
	case <-c.ready:
	case <-ctx.Done():
		return ctx.Err()
	case <-c.ctx.Done():
		return net.ErrClosed
	}
	if c.ctx.Err() != nil {
		return net.ErrClosed
	}
	if c.failed != nil {
		return c.fail(m, fmt.Errorf("no endpoint to send to: %w", c.failed))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(m.Raw))
	if err != nil {
		return err
	}
	for k, v := range c.headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return c.fail(m, fmt.Errorf("cannot reach the server: %w", err))
	}
	if resp.StatusCode >= 300 {
		return c.fail(m, statusError(resp, errorBody(resp), ""))
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, excerptSize))
	resp.Body.Close()
	return nil
}

// fail reports that m could not be delivered: as an error response from
// Read if m is a request, else as the returned error.
func (c *SSEClient) fail(m Message, err error) error {
	if !m.IsRequest() {
		return err
	}
	answer := errorResponse(m.ID, jsonrpc.CodeServer, err.Error())
	answer.Cause = err
	if !c.in.put(c.ctx, answer, nil) {
		return errors.Join(err, net.ErrClosed)
	}
	return nil
}

// Close ends the event stream and makes Read return io.EOF.
func (c *SSEClient) Close() error {
	c.cancel()
	c.in.close()
	c.wg.Wait()
	return nil
}
