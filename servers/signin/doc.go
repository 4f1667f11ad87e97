// Package signin signs in to remote MCP servers as the MCP authorization
// spec (2025-11-25, 2026-07-28) describes: a 401 with WWW-Authenticate
// leads to the protected resource metadata (RFC 9728), then to the
// authorization server's metadata (RFC 8414, OpenID Connect discovery);
// the client is identified by a pre-registered id, a Client ID Metadata
// Document or dynamic registration (RFC 7591), in that order; the person
// approves in their browser (authorization code with PKCE S256, loopback
// redirect on 127.0.0.1); tokens carry the resource (RFC 8707) and are
// refreshed when they expire.
//
// golang.org/x/oauth2 builds the authorization URL, makes the PKCE pair and
// does the token requests; this package does the discovery, the checks the
// spec asks of a client, and the keeping of tokens.
//
// Use: one Signer per program (New, with OpenStore and a Browser). Dial a
// remote server with servers.DialWith and a wrap returning
// Signer.Transport(url, base, interactive, status): the CLI passes
// interactive true and signs in within the request; the app passes false,
// gets an error matching ErrSignInNeeded (a *Error) from the dial or a
// call, shows Status(url).Text() ("Sign in needed") and a Sign in button
// that calls SignIn with a context its Cancel button ends, and a status
// func that shows "Waiting for the browser…" and then the plain failure
// or "Signed in"; Sign out calls SignOut.
//
// Threat model: everything a server or authorization server sends is
// untrusted. Metadata naming another issuer or another resource, endpoints
// over plain http (loopback aside), redirects to other hosts during
// discovery, an authorization response with the wrong state or issuer, and
// a token response without a token each end the sign-in with a plain
// error, and nothing from a failed sign-in is stored. Secrets (tokens,
// client secrets, codes, verifiers) never reach the log or an error text.
package signin
