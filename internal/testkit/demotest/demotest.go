// Package demotest makes a test binary, re-run as a child, the built-in
// demo MCP server: a real stdio server process without building the app.
package demotest

import (
	"context"
	"os"
	"testing"

	"github.com/elicitdesk/elicitdesk/servers/config"
	"github.com/elicitdesk/elicitdesk/servers/demo"
)

// Env, set to 1, makes the test binary the demo server.
const Env = "ELICITDESK_TEST_DEMO_SERVER"

// Serve is the demo server's whole life when the test binary runs as one:
// it serves stdin and stdout and exits. Otherwise it returns at once.
// TestMain calls it first.
func Serve() {
	if os.Getenv(Env) != "1" {
		return
	}
	if err := demo.Serve(context.Background(), os.Stdin, os.Stdout); err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// Server is a stdio server entry that runs the test binary as the demo
// server, named name.
func Server(t testing.TB, name string) config.Server {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return config.Server{Name: name, Command: exe, Args: []string{"-test.run=^$"}, Env: map[string]string{Env: "1"}, Transport: config.TransportStdio}
}
