// Package endpoint owns Elicit Desk's one private local endpoint: the Unix
// domain socket (on Windows, a named pipe) through which other elicitdesk
// processes reach the running app, and the lock beside it (on Windows, a
// named mutex) that keeps one app running per user, even when the endpoint
// could not be made.
//
// The policy is the same for every use: the socket lives in a directory only
// the user can enter (the pipe and the mutex have an ACL that admits the
// user alone), the server talks only to peers of the user's own UID (SID),
// and a client checks the server's before it sends anything. Whatever
// another user put in the way (the directory, the socket or pipe, the lock)
// is refused with an error that names it and, where it can, its owner.
//
// Peers speak JSON-RPC 2.0 through the project's one peer, servers/rpc, over
// its one framing, link.Lines: one message per line (see Version and
// MaxMessage), a handshake first, then requests and notifications either
// way, several in flight at once on one connection, notifications/cancelled
// ending the request it names.
//
// Two kinds of peer use it. Scripts and a second start ask for app/front,
// tools/call and servers/status. The windows' methods, ui/…, are not
// served here: any process of the user can reach the endpoint, so the app
// serves them only on the private connection it starts its windows'
// process with, and refuses them here in words. The bridge (elicitdesk bridge, the MCP proxy a host
// starts as its stdio server) keeps one connection per proxied server and
// hands the app what its server asks of the person:
//
//   - bridge/session (Client.Bridge), a request that stays pending for as
//     long as a host's session with the server lives, so the app lists it
//     in the Servers window; cancelling it or hanging up ends it;
//   - bridge/elicit (Client.Elicit), one elicitation/create, whose result is
//     the ElicitResult to send back, or a *jsonrpc.Error (code, message,
//     data) that refuses it;
//   - bridge/complete (Client.Complete), a notification passing on the
//     server's notifications/elicitation/complete;
//   - bridge/unshown (Client.Unshown), an elicitation no window could show,
//     which the bridge answered cancel, for the app's history: the app
//     writes the history while it runs, the bridge only when it does not.
//
// Raw JSON (a server's params, the result for it) crosses unchanged but
// for the whitespace between tokens: one message is one line. A Client
// tells the app's refusal, a *jsonrpc.Error, from the app going away, an
// error wrapping ErrDisconnected; the server sends no answer to a request
// cancelled, or cut short because the connection or the app is ending. A
// peer that stops sending has hung up, as on stdio: its requests are
// cancelled.
package endpoint
