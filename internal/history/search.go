package history

import (
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"

	"github.com/elicitdesk/elicitdesk/servers"
)

// Query selects entries. Its zero value selects all of them.
type Query struct {
	// Text holds words to find in the server's name, target and reported
	// name, the message, the URL or the content; each word matches as the
	// start of a word, case and accents aside, and all must match. Anything
	// but letters and digits separates words, so no input is a syntax error.
	Text    string
	Server  string  // the configured server name; "" for every server
	Machine string  // with Server, the machine it runs on; "" for this one
	Outcome Outcome // "" for every outcome
	Limit   int     // at most this many entries; 0 for no limit
}

// columns are the entries columns scan reads, in its order.
const columns = `e.id, e.server_name, e.server_target, e.reported_name, e.reported_title, e.reported_version,
	e.message, e.mode, e.schema, e.url, e.outcome, e.reason, e.content, e.received, e.answered,
	` + cutColumns + `, ` + hostColumns + `, ` + machineColumn

// cutColumns are the columns version 2 added, hostColumns those version 3
// added, machineColumn the one version 5 added; an older file, which only
// a read-only store leaves as it is, reads them as NULL and empty text
// instead.
const (
	cutColumns    = `e.size, e.sha256`
	hostColumns   = `e.host_name, e.host_title, e.host_version`
	machineColumn = `e.machine`
)

// Search returns the entries q selects, the most recently received first.
func (s *Store) Search(ctx context.Context, q Query) ([]Entry, error) {
	var list []Entry
	err := s.each(ctx, q, func(e Entry) error {
		list = append(list, e)
		return nil
	})
	return list, err
}

// Export writes the entries q selects as JSON Lines, one entry (as
// Entry.MarshalJSON has it) a line, the most recently received first.
func (s *Store) Export(ctx context.Context, w io.Writer, q Query) error {
	enc := json.NewEncoder(w)
	return s.each(ctx, q, func(e Entry) error { return enc.Encode(e) })
}

// Get returns the entry with the given id; the error wraps sql.ErrNoRows when
// there is none.
func (s *Store) Get(ctx context.Context, id int64) (Entry, error) {
	e, err := scan(s.db.QueryRowContext(ctx, `SELECT `+s.columns()+` FROM entries e WHERE e.id = ?`, id))
	if err != nil {
		return Entry{}, fmt.Errorf("history entry %d: %w", id, err)
	}
	return e, nil
}

// Source is a server as the history tells servers apart: by its name
// and the machine it runs on ("" for this one). Another machine's "demo"
// is not this one's.
type Source struct{ Server, Machine string }

// Servers returns the distinct servers in the history, sorted by name and
// then machine, this one's first, for the server filter.
func (s *Store) Servers(ctx context.Context) ([]Source, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT e.server_name, `+s.machine()+` FROM entries e ORDER BY 1, 2`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var list []Source
	for rows.Next() {
		var src Source
		if err := rows.Scan(&src.Server, &src.Machine); err != nil {
			return nil, err
		}
		list = append(list, src)
	}
	return list, rows.Err()
}

// Asked reports whether the history holds an entry of server: it has
// asked the person before (an index lookup, not a scan).
func (s *Store) Asked(ctx context.Context, server string) (bool, error) {
	var asked bool
	err := s.db.QueryRowContext(ctx, `SELECT EXISTS(SELECT 1 FROM entries WHERE server_name = ?)`, server).Scan(&asked)
	return asked, err
}

// each calls f with each entry q selects, newest first, until f fails.
func (s *Store) each(ctx context.Context, q Query, f func(Entry) error) error {
	sqlText, args := s.selectSQL(q)
	rows, err := s.db.QueryContext(ctx, sqlText, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		e, err := scan(rows)
		if err != nil {
			return err
		}
		if err := f(e); err != nil {
			return err
		}
	}
	return rows.Err()
}

// selectSQL builds the statement for q. With words to find, the full-text
// index is walked newest first (CROSS JOIN keeps it the outer loop) and also
// applies the filters through its tags, so a limited search stops after Limit
// matches instead of reading every entry that has the words.
func (s *Store) selectSQL(q Query) (string, []any) {
	var b strings.Builder
	var args []any
	b.WriteString(`SELECT ` + s.columns())
	if match := matchExpr(q); match != "" {
		b.WriteString(` FROM entries_fts f CROSS JOIN entries e ON e.id = f.rowid WHERE entries_fts MATCH ?`)
		args = append(args, match)
		if q.Server != "" {
			b.WriteString(` AND ` + s.machine() + ` = ?`)
			args = append(args, q.Machine)
		}
		b.WriteString(` ORDER BY f.rowid DESC`)
	} else {
		b.WriteString(` FROM entries e WHERE 1`)
		if q.Server != "" {
			b.WriteString(` AND e.server_name = ? AND ` + s.machine() + ` = ?`)
			args = append(args, q.Server, q.Machine)
		}
		if q.Outcome != "" {
			b.WriteString(` AND e.outcome = ?`)
			args = append(args, string(q.Outcome))
		}
		b.WriteString(` ORDER BY e.id DESC`)
	}
	if q.Limit > 0 {
		b.WriteString(` LIMIT ?`)
		args = append(args, q.Limit)
	}
	return b.String(), args
}

// textColumns are the columns Query.Text searches: all but the tags.
const textColumns = "{server target reported message url content}"

// matchExpr turns q into an FTS5 query, or "" when q.Text has no words. Every
// run of letters and digits the person typed becomes a quoted prefix token
// ("word"*), so FTS5 operators (AND, OR, NEAR) and punctuation are plain
// text; the tokens must all match, in the text columns, and the filters
// become tags the entry must carry.
func matchExpr(q Query) string {
	words := strings.FieldsFunc(q.Text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
	if len(words) == 0 {
		return ""
	}
	for i, w := range words {
		words[i] = `"` + w + `"*`
	}
	expr := textColumns + " : (" + strings.Join(words, " ") + ")"
	if q.Server != "" {
		expr += ` AND tags : "` + serverTag(q.Server) + `"`
	}
	if q.Outcome != "" {
		expr += ` AND tags : "` + outcomeTag(q.Outcome) + `"`
	}
	return expr
}

// serverTag and outcomeTag are the index's tokens for a server name and an
// outcome: letters and digits only, so the tokenizer keeps each one whole,
// and prefixed so the two kinds never meet.
func serverTag(name string) string { return "s" + hex.EncodeToString([]byte(name)) }
func outcomeTag(o Outcome) string  { return "o" + hex.EncodeToString([]byte(o)) }

// columns are the columns to select from this store's file.
func (s *Store) columns() string {
	c := columns
	if s.version != 0 && s.version < 3 {
		c = strings.Replace(c, hostColumns, "'', '', ''", 1)
	}
	c = strings.Replace(c, machineColumn, s.machine(), 1)
	if s.version == 1 {
		c = strings.Replace(c, cutColumns, "NULL, NULL", 1)
	}
	return c
}

// machine is the machine column as this store's file has it: an older
// file's entries are all of this machine.
func (s *Store) machine() string {
	if s.version != 0 && s.version < 5 {
		return "''"
	}
	return machineColumn
}

// scan reads one row of columns.
func scan(row interface{ Scan(...any) error }) (Entry, error) {
	var e Entry
	var mode, outcome string
	var schema, content []byte
	var received, answered, size sql.NullInt64
	var sum sql.NullString
	err := row.Scan(&e.ID, &e.Server.Name, &e.Server.Target, &e.Server.Reported.Name, &e.Server.Reported.Title,
		&e.Server.Reported.Version, &e.Message, &mode, &schema, &e.URL, &outcome, &e.Reason, &content,
		&received, &answered, &size, &sum, &e.Server.Host.Name, &e.Server.Host.Title, &e.Server.Host.Version, &e.Server.Machine)
	if err != nil {
		return Entry{}, err
	}
	e.Mode, e.Outcome = servers.Mode(mode), Outcome(outcome)
	if len(schema) > 0 {
		// Rows written before defaults were redacted may still hold them.
		e.Schema = redactSchema(schema)
	}
	if len(content) > 0 {
		e.Content = content
	}
	e.Received, e.Answered = fromNano(received), fromNano(answered)
	if size.Valid {
		e.Cut = &Cut{Size: size.Int64, SHA256: sum.String}
	}
	return e, nil
}

// fromNano reverses unixNano.
func fromNano(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return time.Unix(0, n.Int64)
}
