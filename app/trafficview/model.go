package trafficview

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"unicode"

	"github.com/dustin/go-humanize"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
)

// model is what the window shows, in plain Go: the latest entries the
// core listed, those the filter picks, and the one selected. The window
// renders it; tests drive it without a window.
type model struct {
	keep int // entries kept at most, the latest

	all      []traffic.Entry // oldest first
	filter   traffic.Filter
	text     string // the filter as typed
	problem  string // why the text is not a filter; the last good one applies
	shown    []traffic.Entry
	selected uint64 // the selected entry's Seq; 0 for none
}

func newModel(keep int) *model { return &model{keep: keep} }

// add takes entries the core listed after the last, and returns whether
// the shown ones changed.
func (m *model) add(list []traffic.Entry) bool {
	m.all = append(m.all, list...)
	dropped := 0
	if over := len(m.all) - m.keep; over > 0 {
		m.all = slices.Delete(m.all, 0, over)
		for dropped < len(m.shown) && m.shown[dropped].Seq < m.all[0].Seq {
			dropped++
		}
		m.shown = slices.Delete(m.shown, 0, dropped)
	}
	added := 0
	for _, e := range list {
		if len(m.all) > 0 && e.Seq < m.all[0].Seq {
			continue // dropped already
		}
		if m.filter.Match(e) {
			m.shown = append(m.shown, e)
			added++
		}
	}
	return dropped > 0 || added > 0
}

// setFilter filters by text from now on; a text that is not a filter
// keeps the last one and says why.
func (m *model) setFilter(text string) {
	m.text = text
	f, err := traffic.ParseFilter([]string{text})
	if err != nil {
		m.problem = err.Error()
		return
	}
	m.filter, m.problem = f, ""
	m.shown = m.shown[:0]
	for _, e := range m.all {
		if f.Match(e) {
			m.shown = append(m.shown, e)
		}
	}
}

// selectedIndex is the selected entry's place among those shown, -1 when
// none is selected or it is not shown.
func (m *model) selectedIndex() int {
	if m.selected == 0 {
		return -1
	}
	i, ok := slices.BinarySearchFunc(m.shown, m.selected, func(e traffic.Entry, seq uint64) int {
		return compare(e.Seq, seq)
	})
	if !ok {
		return -1
	}
	return i
}

func compare(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// entry is the kept entry numbered seq.
func (m *model) entry(seq uint64) (traffic.Entry, bool) {
	i, ok := slices.BinarySearchFunc(m.all, seq, func(e traffic.Entry, seq uint64) int { return compare(e.Seq, seq) })
	if !ok {
		return traffic.Entry{}, false
	}
	return m.all[i], true
}

// partner is the request a selected answer or cancel answers, or the
// answer of a selected request, when kept.
func (m *model) partner(e traffic.Entry) (traffic.Entry, bool) {
	same := func(o traffic.Entry) bool {
		return o.Server == e.Server && o.Session == e.Session && o.ID == e.ID && o.Seq != e.Seq
	}
	switch e.Kind {
	case traffic.Request:
		for _, o := range m.all {
			if o.Seq > e.Seq && same(o) && o.Kind != traffic.Request && o.Kind != traffic.Notification {
				return o, true
			}
		}
	case traffic.Result, traffic.Error, traffic.Cancel:
		for i := len(m.all) - 1; i >= 0; i-- {
			if o := m.all[i]; o.Seq < e.Seq && same(o) && o.Kind == traffic.Request {
				return o, true
			}
		}
	}
	return traffic.Entry{}, false
}

// status says how many entries are kept and shown.
func (m *model) status() string {
	switch {
	case len(m.all) == 0:
		return "No messages yet: they show here as they pass."
	case len(m.shown) == len(m.all):
		return fmt.Sprintf("%s messages.", humanize.Comma(int64(len(m.all))))
	}
	return fmt.Sprintf("%s of %s messages match.", humanize.Comma(int64(len(m.shown))), humanize.Comma(int64(len(m.all))))
}

// row is an entry as the list shows it, a column each.
type row [8]string

func headings() row {
	return row{"Time", "Server", "", "Kind", "Method", "Id", "Size", "Took"}
}

func rowOf(e traffic.Entry) row {
	id := e.ID.Short(16)
	if id == "" {
		id = "-"
	}
	return row{e.Time.Local().Format("15:04:05.000"), e.Where(), e.Dir.Arrow(), e.Word(), e.What(), id,
		humanize.IBytes(uint64(e.Size)), e.Took()}
}

// facts are the selected entry's facts, for the detail pane, a line each.
func facts(e traffic.Entry) string {
	dir := "Sent to the server"
	if e.Dir == traffic.FromServer {
		dir = "Sent by the server"
	}
	s := fmt.Sprintf("%s · %s · %s, %s\nAt %s, #%d", e.Where(), dir, e.Word(), humanize.IBytes(uint64(e.Size)),
		e.Time.Local().Format("2006-01-02 15:04:05.000000"), e.Seq)
	if e.Method != "" {
		s += "\nMethod " + e.What()
	}
	if e.ID != "" {
		s += "\nId " + e.ID.Short(64)
	}
	if e.Latency != 0 {
		s += "\nAnswered after " + e.Took()
	}
	if e.Status != 0 && e.Kind != traffic.Error { // an error's is in its outcome
		s += fmt.Sprintf("\nCame in an HTTP response of status %d", e.Status)
	}
	if e.Local {
		s += "\nElicit Desk's transport made this error up: the server sent nothing."
	}
	return s // each part a peer wrote went through untrusted's views
}

// serverFilter is the filter that shows server's messages.
func serverFilter(server string) string {
	if strings.ContainsFunc(server, unicode.IsSpace) {
		return `server:"` + server + `"`
	}
	return "server:" + server
}

// headerLines are the headers of the HTTP response a message came in, a
// "Name: value" line each, by name, and a blank line; "" for none. What
// the server wrote goes through untrusted.
func headerLines(h http.Header) string {
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(h)) {
		for _, v := range h[name] {
			b.WriteString(untrusted.Text(name).Line() + ": " + untrusted.Text(v).Line() + "\n")
		}
	}
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	return b.String()
}
