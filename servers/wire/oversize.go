package wire

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/elicitdesk/elicitdesk/servers/link"
)

// ErrAnswerTooLarge is why a call fails whose answer is over
// link.MaxMessage.
var ErrAnswerTooLarge = fmt.Errorf("the server's answer is larger than %d MiB, the most Elicit Desk reads", link.MaxMessage>>20)

// oversized is a message over link.MaxMessage as it is read: only its
// envelope.
type oversized struct {
	env     envelope
	replied bool // the error answer has been handed on
}

// reply returns, once, the error answer that ends the call the message
// answers, as soon as the message shows an id and a result or error; at
// its end, any id without a method will do. Otherwise nil.
func (o *oversized) reply(end bool) []byte {
	if o.replied || o.env.method != nil || !o.env.answer && !end {
		return nil
	}
	id, ok := head{id: o.env.id}.ID()
	if !ok {
		return nil
	}
	o.replied = true
	b, _ := json.Marshal(transport.NewJSONRPCErrorResponse(id, mcp.INTERNAL_ERROR, ErrAnswerTooLarge.Error(), nil))
	return b
}

// end tells what the message was once read to its end, size bytes, and
// logs it: a request to refuse (method is not ""), an answer whose error
// answer has yet to go (answer), or something dropped (neither).
func (o *oversized) end(log *slog.Logger, size int) (id mcp.RequestId, method string, answer []byte) {
	answer = o.reply(true)
	if o.replied {
		log.Warn("an answer was too long to read: its call fails", "bytes", size)
		return id, "", answer
	}
	h := head{id: o.env.id, method: o.env.method}
	id, ok := h.ID()
	if method = h.Method(); !ok || method == "" {
		log.Warn("dropped a message too long to read that is no request or answer with a readable id", "bytes", size)
		return id, "", nil
	}
	log.Warn("refusing a request too long to read", "method", method, "bytes", size)
	return id, method, nil
}

// boundedBody is a response body that ends in ErrAnswerTooLarge past
// link.MaxMessage bytes: mcp-go reads a JSON body whole.
type boundedBody struct {
	io.ReadCloser
	left int // how many more bytes it passes on
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, ErrAnswerTooLarge
	}
	if len(p) > b.left+1 {
		p = p[:b.left+1] // one more, to tell a body of exactly the limit from a longer one
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= n
	if b.left < 0 {
		return n - 1, ErrAnswerTooLarge
	}
	return n, err
}
