// Package servers keeps Elicit Desk's connections to MCP servers and
// routes what they ask: Conn is one live connection, Manager keeps one per
// configured server and reconnects them, Router admits every Elicitation
// under per-server limits and hands it to whoever asks the person, and
// refusals report what never
// reached them. servers.json itself is package config's; the MCP session
// a Conn speaks is package client's, over package link's transports.
package servers
