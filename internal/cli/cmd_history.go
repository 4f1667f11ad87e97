package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"slices"

	"github.com/adrg/xdg"

	"github.com/elicitdesk/elicitdesk/internal/history"
)

const historyUsage = "usage: elicitdesk history [-json] [-search TEXT] [-server NAME] [-outcome OUTCOME] [-limit N] [-db FILE]"

// runHistory prints the request history, newest first: a table, or JSON
// Lines with -json. It only reads: a missing history prints nothing and is
// not created, and a locked or damaged one is reported and left as it is
// (the app moves a damaged one aside when it starts).
func runHistory(args []string, stdout, stderr terminal) int {
	fs := stderr.FlagSet("history")
	path := fs.String("db", history.DefaultPath(xdg.DataHome), "the history database `file`")
	asJSON := fs.Bool("json", false, "print JSON Lines, one entry a line")
	search := fs.String("search", "", "only entries holding all these `words`")
	server := fs.String("server", "", "only entries of the server `name`d in servers.json")
	outcome := fs.String("outcome", "", "only entries with this `outcome`: accepted, declined, cancelled, stale, rate-limited, error or no-window")
	limit := fs.Int("limit", 0, "print at most `N` entries; 0 prints all")
	if err := fs.Parse(args); err != nil || fs.NArg() != 0 || *limit < 0 {
		stderr.Linef(historyUsage)
		return 2
	}
	if *outcome != "" && !slices.Contains(history.Outcomes(), history.Outcome(*outcome)) {
		stderr.Linef("elicitdesk history: unknown outcome %q\n"+historyUsage, *outcome)
		return 2
	}
	if _, err := os.Stat(*path); errors.Is(err, os.ErrNotExist) {
		return 0
	}
	s, err := history.OpenReadOnly(*path)
	if err != nil {
		stderr.Linef("elicitdesk history: %s", err)
		return 2
	}
	defer s.Close()
	ctx := context.Background()
	q := history.Query{Text: *search, Server: *server, Outcome: history.Outcome(*outcome), Limit: *limit}
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

// printHistory prints the entries q selects as an aligned table.
func printHistory(ctx context.Context, s *history.Store, q history.Query, out terminal) error {
	entries, err := s.Search(ctx, q)
	if err != nil {
		return err
	}
	table, flush := out.Table()
	table.Linef("RECEIVED\tSERVER\tHOST\tMODE\tOUTCOME\tMESSAGE")
	for _, e := range entries {
		host := e.Server.Host.Label() // the bridged server's host, by its own words
		if host == "" {
			host = "-"
		}
		table.Linef("%s\t%s\t%s\t%s\t%s\t%s", e.Received.Local().Format("2006-01-02 15:04:05"),
			e.Server.Name, host, e.Mode, e.Outcome, e.Headline(60))
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
