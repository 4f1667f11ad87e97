package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"slices"
	"strings"

	"github.com/adrg/xdg"

	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/servers/config"
)

// noHistory is what `history` says when nothing was ever recorded.
const noHistory = "No requests recorded yet."

// runHistory prints the request history, newest first: a table, or JSON
// Lines with -json. It only reads: a missing history is not created, and
// a locked or damaged one is reported and left as it is (the app moves a
// damaged one aside when it starts). A -server name that is neither
// configured nor in the history is an error, not an empty list.
func runHistory(args []string, stdout, stderr terminal) int {
	fs := stderr.FlagSet("history")
	path := fs.String("db", history.DefaultPath(xdg.DataHome), "the history database `file`")
	cfgPath := config.Flag(fs)
	asJSON := fs.Bool("json", false, "print JSON Lines, one entry a line")
	search := fs.String("search", "", "only entries holding all these `words`")
	server := fs.String("server", "", "only entries of the server with this `name`")
	machine := fs.String("machine", "", "with -server, of the server on the machine with this `name` (another machine's bridge asked)")
	outcome := fs.String("outcome", "", "only entries with this `outcome`: "+outcomeList())
	limit := fs.Int("limit", 0, "print at most `N` entries; 0 prints all")
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	if *limit < 0 {
		return misuse(fs, stderr, "-limit is a number of entries, 0 or more (0 prints all), not %d", *limit)
	}
	if fs.NArg() != 0 {
		return noArgs(fs, stderr)
	}
	if *machine != "" && *server == "" {
		return misuse(fs, stderr, "-machine names where the server of -server runs: give -server too")
	}
	if *outcome != "" && !slices.Contains(history.Outcomes(), history.Outcome(*outcome)) {
		stderr.Linef("elicitdesk history: unknown outcome %q; the outcomes are %s", *outcome, outcomeList())
		return 2
	}
	var s *history.Store
	_, err := os.Stat(*path)
	named := false // -db given: a file that is not there is a mistake, not an empty history
	fs.Visit(func(f *flag.Flag) { named = named || f.Name == "db" })
	if named && errors.Is(err, os.ErrNotExist) {
		stderr.Linef("elicitdesk history: -db: %s", err)
		return 2
	}
	if !errors.Is(err, os.ErrNotExist) {
		if s, err = history.OpenReadOnly(*path); err != nil {
			stderr.Linef("elicitdesk history: %s", err)
			return 2
		}
		defer s.Close()
	}
	ctx := context.Background()
	var recorded []string // the server names in the history
	if s != nil {
		sources, err := s.Servers(ctx)
		if err != nil {
			stderr.Linef("elicitdesk history: %s: %s", *path, err)
			return 2
		}
		for _, src := range sources {
			if !slices.Contains(recorded, src.Server) {
				recorded = append(recorded, src.Server)
			}
		}
	}
	if *server != "" && !slices.Contains(recorded, *server) {
		cfg, _, err := readConfig(*cfgPath)
		if err != nil {
			stderr.Linef("elicitdesk history: %s", err)
			return 2
		}
		if _, ok := cfg.Server(*server); !ok {
			stderr.Linef("elicitdesk history: %s", unknownServer(*server,
				serverNames{"configured", configuredNames(cfg)}, serverNames{"in the history", recorded}))
			return 1
		}
	}
	if len(recorded) == 0 {
		if *asJSON {
			stderr.Linef(noHistory) // standard output stays JSON Lines: none
		} else {
			stdout.Linef(noHistory)
		}
		return 0
	}
	q := history.Query{Text: *search, Server: *server, Machine: *machine, Outcome: history.Outcome(*outcome), Limit: *limit}
	if *asJSON {
		err = exportHistory(ctx, s, q, stdout)
	} else {
		err = printHistory(ctx, s, q, stdout)
	}
	if err != nil {
		stderr.Linef("elicitdesk history: %s: %s", *path, err)
		return 2
	}
	return 0
}

// outcomeList names every outcome, for help and errors.
func outcomeList() string {
	names := make([]string, 0, len(history.Outcomes()))
	for _, o := range history.Outcomes() {
		names = append(names, string(o))
	}
	return strings.Join(names, ", ")
}

// printHistory prints the entries q selects as an aligned table.
func printHistory(ctx context.Context, s *history.Store, q history.Query, out terminal) error {
	entries, err := s.Search(ctx, q)
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		out.Linef("No entries match.")
		return nil
	}
	table, flush := out.Table()
	table.Linef("RECEIVED\tSERVER\tHOST\tMODE\tOUTCOME\tMESSAGE")
	for _, e := range entries {
		host := e.Server.Host.Label() // the bridged server's host, by its own words
		if host == "" {
			host = "-"
		}
		table.Linef("%s\t%s\t%s\t%s\t%s\t%s", e.Received.Local().Format(timeLayout),
			e.Server.Called(), host, e.Mode, e.Outcome, e.Headline(60))
	}
	return flush()
}

// exportHistory prints the entries q selects as JSON Lines. The export is
// gathered first, so that no character is split between two writes.
func exportHistory(ctx context.Context, s *history.Store, q history.Query, out terminal) error {
	var lines bytes.Buffer
	if err := s.Export(ctx, &lines, q); err != nil {
		return err
	}
	out.JSONLines(lines.Bytes())
	return nil
}
