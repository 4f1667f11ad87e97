// Package term prints to a terminal: every value shown through an
// untrusted view, so that nothing a server, a host or a stranger's file
// wrote reaches it raw. The command line and the core print through it.
package term

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// Terminal is where a command prints, standard output or standard error.
// Commands print only through it, and it shows every argument through an
// untrusted view, so that no text a server, a host or a stranger's file
// wrote reaches the terminal raw: nothing printed can clear the screen, set
// the clipboard, make a link, ring the bell or hide and reorder words.
type Terminal struct{ w io.Writer }

// To is the terminal that prints to w.
func To(w io.Writer) Terminal { return Terminal{w} }

// Writer is where t prints, for what writes there itself, such as a log.
func (t Terminal) Writer() io.Writer { return t.w }

// Shared is t for printing to from several goroutines.
func (t Terminal) Shared() Terminal { return Terminal{&syncWriter{w: t.w}} }

// syncWriter serialises writes from several goroutines.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// Linef prints one line: format, which is ours, with args shown safely.
// Text, strings, errors and anything else but numbers and booleans go
// through untrusted's Line view; a json.RawMessage through untrusted.JSON,
// so compact JSON stays JSON.
func (t Terminal) Linef(format string, args ...any) {
	shown := make([]any, len(args))
	for i, a := range args {
		shown[i] = safe(a)
	}
	fmt.Fprintf(t.w, format+"\n", shown...)
}

// safe is a as it may be printed.
func safe(a any) any {
	switch v := a.(type) {
	case untrusted.Text:
		return v.Line()
	case json.RawMessage:
		return untrusted.JSON(v)
	case error:
		return untrusted.Text(v.Error()).Line()
	case bool, int, int64, uint, uint64, float64:
		return v
	}
	return untrusted.Text(fmt.Sprint(a)).Line()
}

// Ours prints text that is the program's own, such as help, as it is.
func (t Terminal) Ours(text string) {
	fmt.Fprint(t.w, text)
}

// Block prints text that may run over several lines, such as a message,
// through untrusted's Block view, each line indented under the line before.
func (t Terminal) Block(text untrusted.Text) {
	for line := range strings.Lines(text.Block() + "\n") {
		fmt.Fprint(t.w, "  "+line)
	}
}

// columnGap is the space between a table's columns.
const columnGap = 2

// Table returns a terminal whose lines are rows of tab-separated cells,
// printed in aligned columns by flush. Cells shown through Line hold no
// tab, so no value can add a column.
func (t Terminal) Table() (table Terminal, flush func() error) {
	tw := tabwriter.NewWriter(t.w, 0, 4, columnGap, ' ', 0)
	return Terminal{tw}, tw.Flush
}

// Columns prints a table a batch of rows at a time, as they come (a log
// followed), where Table aligns only what one flush prints: each cell,
// shown as Linef shows an argument, is padded to the widest of its column
// so far, this batch's included, so that later rows keep the columns of
// earlier ones wherever they fit. The last cell of a row is not padded.
type Columns struct {
	t      Terminal
	widths []int
}

// Columns returns a table of no rows yet that prints to t.
func (t Terminal) Columns() *Columns { return &Columns{t: t} }

// Rows prints rows, each a row of cells.
func (c *Columns) Rows(rows [][]any) {
	shown := make([][]string, len(rows))
	for i, row := range rows {
		for j, a := range row {
			cell := fmt.Sprint(safe(a))
			shown[i] = append(shown[i], cell)
			if j == len(row)-1 {
				continue
			}
			if j == len(c.widths) {
				c.widths = append(c.widths, 0)
			}
			c.widths[j] = max(c.widths[j], utf8.RuneCountInString(cell))
		}
	}
	for _, row := range shown {
		var b strings.Builder
		for j, cell := range row {
			b.WriteString(cell)
			if j < len(row)-1 {
				b.WriteString(strings.Repeat(" ", c.widths[j]-utf8.RuneCountInString(cell)+columnGap))
			}
		}
		fmt.Fprintln(c.t.w, b.String())
	}
}

// JSON prints v as indented JSON through untrusted.JSON: a script reads the
// same value, a person sees an escape where a hidden character is, and
// "<=", "&" read as written, not as \u003c= (no HTML is made here).
func (t Terminal) JSON(v any) error {
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	fmt.Fprintln(t.w, untrusted.JSON(bytes.TrimSuffix(out.Bytes(), []byte("\n"))))
	return nil
}

// JSONLines prints JSON Lines, each line through untrusted.JSON.
func (t Terminal) JSONLines(lines []byte) {
	fmt.Fprint(t.w, untrusted.JSON(lines))
}

// FlagSet is the flags of the command called name, reporting their errors
// to the terminal: that text is ours and the person's own arguments. The
// caller prints the usage.
func (t Terminal) FlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(t.w)
	fs.Usage = func() {} // the caller prints help and usage where each belongs
	return fs
}

// Logger logs warnings to the terminal. slog's text format quotes any value
// holding a character that is not printable, escaping it.
func (t Terminal) Logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(t.w, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// Lines is a writer for what another program writes to the terminal a
// line at a time, such as a server's standard error: each line is printed
// through untrusted's Line view, so that nothing in it acts on the
// terminal, and cut at max bytes. Safe for concurrent use; Flush prints a
// last line that has no newline.
type Lines struct {
	t   Terminal
	max int

	mu      sync.Mutex
	line    []byte
	cutting bool // the line went past max: the rest of it is dropped
}

// Lines returns a Lines printing to t.
func (t Terminal) Lines(max int) *Lines { return &Lines{t: t, max: max} }

// Write implements io.Writer.
func (l *Lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for rest := p; len(rest) > 0; {
		line, after, whole := bytes.Cut(rest, []byte("\n"))
		rest = after
		if !l.cutting {
			l.line = append(l.line, line[:min(len(line), l.max+1-len(l.line))]...)
		}
		if len(l.line) > l.max {
			l.cutting = true
		}
		if whole {
			l.print()
		}
	}
	return len(p), nil
}

// Flush prints what was written after the last newline.
func (l *Lines) Flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.line) > 0 {
		l.print()
	}
}

// print prints the line kept and starts the next; l.mu is held.
func (l *Lines) print() {
	line := bytes.TrimSuffix(l.line, []byte("\r")) // a CRLF line end
	mark := ""
	if l.cutting {
		n := min(l.max, len(line))
		for n > 0 && n < len(line) && !utf8.RuneStart(line[n]) {
			n--
		}
		line, mark = line[:n], "…"
	}
	fmt.Fprintln(l.t.w, untrusted.Text(line).Line()+mark)
	l.line, l.cutting = l.line[:0], false
}
