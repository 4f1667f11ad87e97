// Package procgroup starts a command in a process group of its own and
// ends the whole group, so that stopping a stdio server also stops what it
// started: npx, uv run and sh -c leave the real server as a grandchild.
//
// On Linux the command runs under a keeper, this same executable started
// again under another name and taken over, before the Go runtime starts,
// by C code (keeper_linux.c): it starts the command, passes on how the
// command ended, and ends the command's group when the process that called
// Start dies, even by SIGKILL, within 40 ms. Elsewhere, and in a Linux
// build without cgo (the app needs cgo for Fyne), nothing outlives a
// caller that stops its groups itself, but a caller killed outright leaves
// its commands running.
package procgroup
