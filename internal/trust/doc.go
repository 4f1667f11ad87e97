// Package trust judges what an MCP server sends before Elicit Desk shows it.
// Everything a server sends is untrusted: its messages, names and links may
// hide text, imitate another site or speak for another server. The package
// turns such strings into text that is safe to show, and says in plain
// sentences what a person should know before acting on them.
package trust
