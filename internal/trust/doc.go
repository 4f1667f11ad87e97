// Package trust judges what an MCP server sends before a person acts on
// it: whether a link opens what it seems to (InspectLink: its real host and
// registrable domain, and warnings about punycode, mixed scripts, IP
// addresses, user:password and plain http), and whether who asks may not be
// who they seem (IdentityWarnings). It says so in plain sentences; showing
// the server's own words safely is package untrusted's job.
package trust
