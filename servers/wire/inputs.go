package wire

import (
	"context"
	"encoding/json"
	"reflect"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
)

// inputCollector keeps, for one tool call, the raw parameters of the
// elicitations that 2026-07-28 input_required results carried. mcp-go hands
// its elicitation handler decoded parameters, whose schema has lost the
// order of its fields; the handler finds the server's bytes here.
type inputCollector struct {
	mu  sync.Mutex
	raw []json.RawMessage
}

type inputsKey struct{}

// WithInputs returns a context that collects the input requests of the
// calls made with it.
func WithInputs(ctx context.Context) context.Context {
	return context.WithValue(ctx, inputsKey{}, &inputCollector{})
}

// InputParams returns the raw parameters, recorded for the call of ctx
// (see WithInputs), of the input request that decodes to p; nil if none.
func InputParams(ctx context.Context, p mcp.ElicitationParams) json.RawMessage {
	return inputsFrom(ctx).find(p)
}

func inputsFrom(ctx context.Context) *inputCollector {
	c, _ := ctx.Value(inputsKey{}).(*inputCollector)
	return c
}

// record notes the elicitations of a result if it is input_required.
func (c *inputCollector) record(result json.RawMessage) {
	var r struct {
		ResultType    string `json:"resultType"`
		InputRequests map[string]struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		} `json:"inputRequests"`
	}
	if json.Unmarshal(result, &r) != nil || r.ResultType != "input_required" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, in := range r.InputRequests {
		if in.Method == string(mcp.MethodElicitationCreate) {
			c.raw = append(c.raw, in.Params)
		}
	}
}

// find returns the raw parameters that decode to p, or nil.
func (c *inputCollector) find(p mcp.ElicitationParams) json.RawMessage {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, raw := range c.raw {
		var q mcp.ElicitationParams
		if json.Unmarshal(raw, &q) == nil && reflect.DeepEqual(normalize(p), normalize(q)) {
			return raw
		}
	}
	return nil
}

// normalize round-trips params through JSON so Go values and decoded JSON compare equal.
func normalize(p mcp.ElicitationParams) any {
	b, _ := json.Marshal(p)
	var v any
	_ = json.Unmarshal(b, &v)
	return v
}
