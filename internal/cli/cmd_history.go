package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"text/tabwriter"

	"github.com/adrg/xdg"

	"github.com/elicitdesk/elicitdesk/internal/history"
)

const historyUsage = "usage: elicitdesk history [-json] [-search TEXT] [-server NAME] [-outcome OUTCOME] [-limit N] [-db FILE]"

// runHistory prints the request history, newest first: a table, or JSON
// Lines with -json. It only reads: a missing history prints nothing and is
// not created, and a locked or damaged one is reported and left as it is
// (the app moves a damaged one aside when it starts).
func runHistory(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("history", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("db", history.DefaultPath(xdg.DataHome), "the history database `file`")
	asJSON := fs.Bool("json", false, "print JSON Lines, one entry a line")
	search := fs.String("search", "", "only entries holding all these `words`")
	server := fs.String("server", "", "only entries of the server `name`d in servers.json")
	outcome := fs.String("outcome", "", "only entries with this `outcome`: accepted, declined, cancelled, stale, rate-limited or error")
	limit := fs.Int("limit", 0, "print at most `N` entries; 0 prints all")
	if err := fs.Parse(args); err != nil || fs.NArg() != 0 || *limit < 0 {
		fmt.Fprintln(stderr, historyUsage)
		return 2
	}
	if *outcome != "" && !slices.Contains(history.Outcomes(), history.Outcome(*outcome)) {
		fmt.Fprintf(stderr, "elicitdesk history: unknown outcome %q\n%s\n", *outcome, historyUsage)
		return 2
	}
	if _, err := os.Stat(*path); errors.Is(err, os.ErrNotExist) {
		return 0
	}
	s, err := history.OpenReadOnly(*path)
	if err != nil {
		fmt.Fprintln(stderr, "elicitdesk history:", err)
		return 2
	}
	defer s.Close()
	ctx := context.Background()
	q := history.Query{Text: *search, Server: *server, Outcome: history.Outcome(*outcome), Limit: *limit}
	if *asJSON {
		err = s.Export(ctx, stdout, q)
	} else {
		err = printHistory(ctx, s, q, stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "elicitdesk history: %s: %v\n", *path, err)
		return 2
	}
	return 0
}

// printHistory writes the entries q selects as an aligned table.
func printHistory(ctx context.Context, s *history.Store, q history.Query, w io.Writer) error {
	entries, err := s.Search(ctx, q)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RECEIVED\tSERVER\tMODE\tOUTCOME\tMESSAGE")
	for _, e := range entries {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", e.Received.Local().Format("2006-01-02 15:04:05"),
			e.Server.Name, e.Mode, e.Outcome, e.Headline(60))
	}
	return tw.Flush()
}
