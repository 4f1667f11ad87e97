// Package link carries whole JSON-RPC messages between Elicit Desk and its
// peers (the bridge's host and server, the app's and the CLI's servers),
// byte for byte: a Message is what its sender wrote, with only the
// envelope (id, method, whether it answers) read out of it. mcp-go's
// transports decode every message into Go types and encode it again, which
// loses fields they do not know, the order of a schema's properties and
// numbers beyond float64; a proxy must pass on tomorrow's messages as well
// as today's, and a client whose answers come from a person must keep a
// form's fields in the server's order, so Elicit Desk has these instead.
//
// A Link is one conversation with one peer: Lines over a pair of streams
// (a host's stdin and stdout, a stdio server's pipes), StreamableClient and
// SSEClient for remote servers, and the Links a Listener hands out, one per
// host session, for hosts that speak Streamable HTTP to the bridge and
// present its secret.
//
// Over HTTP a message carries more than its bytes: Related says which
// request's response stream it came on (the Listener puts it back on that
// request's stream), and Status the HTTP error status a client Link made
// an error response of (the Listener answers the host's POST with it).
// A client Link answers every request the server will not: an HTTP error,
// a refused connection or a stream that ended early becomes a JSON-RPC
// error response from Read, so the host always gets one.
package link
