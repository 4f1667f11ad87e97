// Package link carries whole JSON-RPC messages between the bridge and its
// peers, byte for byte: a Message is what its sender wrote, with only the
// envelope (id, method, whether it answers) read out of it. mcp-go's
// transports decode every message into Go types and encode it again, which
// loses fields they do not know, the order of a schema's properties and
// numbers beyond float64; a proxy must pass on tomorrow's messages as well
// as today's, so the bridge has these instead.
//
// A Link is one conversation with one peer: Lines over a pair of streams
// (a host's stdin and stdout, a stdio server's pipes), and the Streamable
// HTTP and HTTP+SSE clients for remote servers.
package link
