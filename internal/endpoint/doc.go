// Package endpoint owns Elicit Desk's one private local endpoint: the Unix
// domain socket through which other elicitdesk processes reach the running
// app, and the lock file beside it that keeps one app running per user.
//
// The policy is the same for every use: the socket lives in a directory only
// the user can enter, the server talks only to peers of the user's own UID,
// and a client checks the server's UID before it sends anything. Whatever
// another user put in the way (the directory, the socket, the lock file) is
// refused with an error that names the path and its owner.
//
// Peers speak JSON-RPC 2.0, one message per line (see Version and
// MaxMessage): a handshake first, then requests with ids, several in flight
// at once on one connection.
package endpoint
