//go:build unix

package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/corecmd"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
)

// fakeCoreEnv makes the test binary, re-run as a child, stand in for the
// app's core: it serves the endpoint where the app would, answers every
// elicitation accept, and owns the app's name on the session bus if there
// is one, as the app does (corecmd.HoldBusName).
const fakeCoreEnv = "ELICITDESK_TEST_FAKE_CORE"

// coreReport is what the fake core writes to $HOME/core.json once it
// serves, before it owns the bus name (while the bus still waits for it):
// how and by whom it was started, for the test to check.
type coreReport struct {
	Pid       int
	Args      []string
	Env       []string
	Ancestors []int  // its parent, the parent's parent, ...
	Parent    string // its parent's name
}

// serveFakeCore is the fake core, until SIGTERM (or a minute, should the
// test that started it be gone).
func serveFakeCore(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	path, err := endpoint.DefaultPath()
	if err != nil {
		log.Error("no endpoint path", "err", err)
		return 1
	}
	p := person{answer: json.RawMessage(`{"action":"accept","content":{"confirm":true}}`), asked: make(chan endpoint.Question, 100)}
	ep, err := endpoint.Listen(ctx, path, p, log)
	if err != nil {
		log.Error("cannot serve the endpoint", "err", err)
		return 1
	}
	defer ep.Close()
	report, _ := json.Marshal(coreReport{Pid: os.Getpid(), Args: args, Env: os.Environ(), Ancestors: ancestry(os.Getpid()), Parent: processName(os.Getppid())})
	if err := os.WriteFile(filepath.Join(os.Getenv("HOME"), "core.json"), report, 0o600); err != nil {
		log.Error("cannot report", "err", err)
		return 1
	}
	defer corecmd.HoldBusName(ctx, log)()
	fmt.Println("ready")
	<-ctx.Done()
	return 0
}

// ancestry returns pid's parent, its parent's, and so on.
func ancestry(pid int) []int {
	var up []int
	for {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return up
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(fields) < 2 {
			return up
		}
		ppid, _ := strconv.Atoi(fields[1])
		if ppid <= 1 {
			return up
		}
		up = append(up, ppid)
		pid = ppid
	}
}

// processName is the name the kernel keeps for process pid.
func processName(pid int) string {
	comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	return strings.TrimSpace(string(comm))
}

// alive tells whether process pid runs (a zombie does not).
func alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}
