package wire

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// discover sends a server/discover request, once more when the server
// answers -32022 (unsupported protocol version) yet lists the version the
// request carried among those it supports. 2026-07-28 has the client retry
// with a supported version after -32022; mcp-go v1.2.1 retries only with
// a version other than the one it sent, and otherwise takes the server for
// a legacy one and falls back to initialize, which a 2026-07-28-only
// server cannot answer. The official go-sdk retries with the same version.
func (w *wire) discover(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	resp, err := w.Interface.SendRequest(ctx, req)
	if err != nil || resp == nil || !rejectsSupported(req, resp.Error) {
		return resp, err
	}
	retry := req
	retry.ID = mcp.NewRequestId(fmt.Sprintf("%v-retry", req.ID.Value())) // MCP forbids reusing an id
	resp, err = w.Interface.SendRequest(ctx, retry)
	if resp != nil {
		resp.ID = req.ID // mcp-go matches the answer to the request it sent
	}
	return resp, err
}

// rejectsSupported reports whether e is a -32022 whose supported versions
// include the one req's _meta carried.
func rejectsSupported(req transport.JSONRPCRequest, e *mcp.JSONRPCErrorDetails) bool {
	if e == nil || e.Code != mcp.UNSUPPORTED_PROTOCOL_VERSION {
		return false
	}
	var data struct {
		Supported []string `json:"supported"`
	}
	var params struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	var sent string
	if b, err := json.Marshal(e.Data); err != nil || json.Unmarshal(b, &data) != nil {
		return false
	}
	if b, err := json.Marshal(req.Params); err != nil || json.Unmarshal(b, &params) != nil || json.Unmarshal(params.Meta[mcp.MetaKeyProtocolVersion], &sent) != nil {
		return false
	}
	return sent != "" && slices.Contains(data.Supported, sent)
}
