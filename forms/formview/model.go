package formview

import (
	"bytes"
	"encoding/json"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// model is the state of a form view beyond what was typed, which the form
// holds: which fields the person touched, whether Accept was pressed, and
// whether the form is over. look decides from it everything the view shows
// that changes; the view's render only applies that.
type model struct {
	form      *forms.Form
	words     words
	touched   []bool // parallel to form.Schema.Fields
	attempted bool   // Accept was pressed: every error shows, touched or not
	done      bool   // answered or frozen: nothing more is sent
	frozen    bool   // ended without an answer
	replay    string // heads the review of a past request's replay
}

// words name the sending button and what it sends, per kind of form.
type words struct {
	send    string // the button
	promise string // over the review when the form is ready
	waiting string // over it when not
}

var (
	// elicitWords answer a server's request.
	elicitWords = words{send: "Accept", promise: "Accept sends exactly this JSON", waiting: "Accept sends nothing yet"}
	// callWords call a tool with the person's own arguments.
	callWords = words{send: "Call", promise: "Call sends exactly these arguments", waiting: "Call sends nothing yet"}
)

// look is what the view shows at one moment.
type look struct {
	rows    []rowLook
	promise string // over the review: what it is
	review  string // the exact JSON Accept sends, or why it would refuse
	ready   bool   // Accept would send review
	notSent string // under the review: the booleans left out as not set
	summary string // beside the buttons once Accept was refused: "2 fields need attention"
	buttons bool   // the buttons are live
}

// rowLook is how one field shows.
type rowLook struct {
	// err replaces the field's hint, and the field is outlined, when set.
	err string
}

func newModel(f *forms.Form, toolCall bool) *model {
	m := &model{form: f, words: elicitWords, touched: make([]bool, len(f.Schema.Fields))}
	if toolCall {
		m.words = callWords
	}
	return m
}

// dirty reports whether the person changed anything, so that leaving
// without an answer loses their work.
func (m *model) dirty() bool {
	for _, t := range m.touched {
		if t {
			return true
		}
	}
	return false
}

// look computes what the view shows now.
func (m *model) look() look {
	errs, err := m.form.Problems()
	l := look{rows: make([]rowLook, len(m.touched)), buttons: !m.done}
	for i, field := range m.form.Schema.Fields {
		if m.touched[i] || m.attempted {
			// A message may quote the server's schema or the value typed.
			l.rows[i].err = untrusted.Text(errs[field.Name]).Line()
		}
	}
	l.ready = err == nil && len(errs) == 0
	if l.ready {
		l.promise, l.review = m.words.promise, reviewJSON(m.form)
	} else {
		l.promise, l.review = m.words.waiting, m.form.NotReady()
	}
	l.notSent = m.form.NotSent()
	switch {
	case m.replay != "":
		l.promise = m.replay
	case m.frozen:
		// The request is over: nothing is pending, and what Accept would
		// have sent, or why not, no longer matters.
		l.promise, l.review, l.ready, l.notSent = "Nothing was sent", "", false, ""
	}
	if m.attempted && !l.ready && !m.done {
		l.summary = refusal(m.form, errs, err)
	}
	return l
}

// refusal says, beside the buttons, why Accept sent nothing.
func refusal(f *forms.Form, errs forms.FieldErrors, err error) string {
	if err != nil {
		return untrusted.Text(err.Error()).Line()
	}
	n := 0
	for _, field := range f.Schema.Fields {
		if _, bad := errs[field.Name]; bad {
			n++
		}
	}
	if n == 0 {
		return untrusted.Text(errs[""]).Line()
	}
	return forms.NeedAttention(n) + "."
}

// reviewJSON is the content Accept would send, indented for reading, with
// masked fields masked here too.
func reviewJSON(f *forms.Form) string {
	var out bytes.Buffer
	if err := json.Indent(&out, f.Review(), "", "  "); err != nil {
		return err.Error()
	}
	// Property names and choice values are the server's: escaped where
	// hidden, the JSON still reads as the exact value Accept sends.
	return untrusted.JSON(out.Bytes())
}
