package historyview

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/servers"
)

// The filters' first choices, which select everything.
const (
	allServers  = "All servers"
	allOutcomes = "All outcomes"
)

// listLimit is how many entries the list shows: the newest that match.
const listLimit = 200

// query is what the list shows for the search text and the two filters as
// the person has set them; sources are the servers behind the choices.
func query(text, server, outcome string, sources []history.Source) history.Query {
	q := history.Query{Text: text, Limit: listLimit}
	if server != allServers {
		q.Server = server
		for _, src := range sources {
			if sourceChoice(src) == server {
				q.Server, q.Machine = src.Server, src.Machine // as stored, for the choice as shown
				break
			}
		}
	}
	if outcome != allOutcomes {
		q.Outcome = outcomeNamed(outcome)
	}
	return q
}

// serverChoices are the server filter's options: all, then each server as
// a person may see it, another machine's named with it ("demo on devbox").
func serverChoices(sources []history.Source) []string {
	choices := []string{allServers}
	for _, src := range sources {
		choices = append(choices, sourceChoice(src))
	}
	return choices
}

// sourceChoice is src as the server filter names it.
func sourceChoice(src history.Source) string {
	return servers.Identity{Name: src.Server, Machine: src.Machine}.Called()
}

// outcomeChoices are the outcome filter's options: all, then each
// outcome by its label.
func outcomeChoices() []string {
	choices := []string{allOutcomes}
	for _, o := range history.Outcomes() {
		choices = append(choices, outcomeLabel(o))
	}
	return choices
}

// outcomeWord is how the window names an outcome: its label in the list
// and the filter, and what it means, said in the detail.
type outcomeWord struct{ label, means string }

// outcomeWords name each outcome in the words a person uses; the history
// stores (and the CLI's history -outcome takes) the outcome's own word.
// An outcome is one line here.
func outcomeWords() map[history.Outcome]outcomeWord {
	return map[history.Outcome]outcomeWord{
		history.Accepted:    {"Accepted", "you sent the answer"},
		history.Declined:    {"Declined", "you said no"},
		history.Cancelled:   {"Cancelled", "you dismissed it"},
		history.Stale:       {"Gone stale", "the server stopped waiting; nothing was sent"},
		history.RateLimited: {"Too many requests", "the server asked too often, so Elicit Desk refused it without asking"},
		history.Error:       {"Error", "answered with an error"},
		history.NoWindow:    {"No window could be shown", "answered cancel without asking, as no window could be shown"},
		history.ToHost:      {"Given to the host", "no window could be shown, so the host got it and answered it its own way, not you"},
		history.AppQuit:     {"Quit while waiting", "answered cancel, as Elicit Desk was quit while the request waited"},
	}
}

// outcomeLabel is an outcome as the list and the filter name it. One the
// window does not know, read back from a newer file, shows as stored.
func outcomeLabel(o history.Outcome) string {
	if w, ok := outcomeWords()[o]; ok {
		return w.label
	}
	return untrusted.Text(o).Line()
}

// outcomeNamed is the outcome whose label is label, or label itself when
// none has it.
func outcomeNamed(label string) history.Outcome {
	for o, w := range outcomeWords() {
		if w.label == label {
			return o
		}
	}
	return history.Outcome(label)
}

// row is one line of the list.
type row struct {
	when, server, outcome, headline string
}

// rowOf formats an entry for the list, in local time.
func rowOf(e history.Entry) row {
	return row{
		when:     e.Received.Local().Format("2006-01-02 15:04"),
		server:   e.Server.Called(),
		outcome:  outcomeLabel(e.Outcome),
		headline: e.Headline(120),
	}
}

// identityText says who asked: the configured entry first, then what the
// server reports about itself, marked as its claim.
func identityText(id servers.Identity) string {
	text := untrusted.Text(id.Name).Line()
	if id.Target != "" {
		text += " — " + untrusted.Text(id.Target).Line()
	}
	if claim := id.Reported.String(); claim != "" {
		text += "\nReported by the server: " + claim
	}
	if host := id.Host.String(); host != "" {
		text += "\nAsked through the bridge for the host: " + host
	}
	if id.Machine != "" {
		text += "\nOn the machine " + untrusted.Text(id.Machine).Line() + ", through its forward"
	}
	return text
}

// outcomeText is the outcome, what it means, and its reason when there
// is one, for the detail.
func outcomeText(e history.Entry) string {
	text := outcomeLabel(e.Outcome)
	if w, ok := outcomeWords()[e.Outcome]; ok {
		text += ": " + w.means
	}
	if e.Reason == "" {
		return text
	}
	return text + ": " + e.Reason
}

// timesText says when the request came and when it ended.
func timesText(e history.Entry) string {
	const layout = "2006-01-02 15:04:05"
	text := "Received " + e.Received.Local().Format(layout)
	if !e.Answered.IsZero() {
		text += ", ended " + e.Answered.Local().Format(layout) + " (after " + e.Answered.Sub(e.Received).Round(time.Second).String() + ")"
	}
	return text
}

// indented is raw JSON indented by two spaces for reading.
func indented(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return string(raw)
	}
	return b.String()
}

// entryJSON is what Copy as JSON puts on the clipboard: the entry as one
// object, as the export writes it, indented.
func entryJSON(e history.Entry) string {
	raw, err := json.Marshal(e)
	if err != nil {
		return ""
	}
	return indented(raw)
}

// replaySchema is the schema to show the entry's form again with, or nil
// when it cannot be replayed: a URL request, or a schema that does not parse.
func replaySchema(e history.Entry) *forms.Schema {
	if e.Mode == servers.ModeURL {
		return nil
	}
	s, err := forms.Parse(e.Schema)
	if err != nil {
		return nil
	}
	return s
}

// SizeText writes a number of bytes for people, rounded: "64 MB", "1 GB".
// The Settings window offers history.SizeChoices in these words.
func SizeText(n int64) string {
	units := []string{"bytes", "KB", "MB", "GB"}
	f, u := float64(n), 0
	for f >= 1024 && u < len(units)-1 {
		f /= 1024
		u++
	}
	return strings.TrimSuffix(strconv.FormatFloat(f, 'f', min(u, 1), 64), ".0") + " " + units[u]
}
