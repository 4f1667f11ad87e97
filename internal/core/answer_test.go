package core

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/servers"
)

// warnings is a log handler that keeps the Warn records' texts: the
// message and its attributes' values, as slog renders them.
type warnings struct {
	mu    sync.Mutex
	texts []string
}

func (w *warnings) Enabled(_ context.Context, l slog.Level) bool { return l == slog.LevelWarn }
func (w *warnings) WithAttrs([]slog.Attr) slog.Handler           { return w }
func (w *warnings) WithGroup(string) slog.Handler                { return w }

func (w *warnings) Handle(_ context.Context, r slog.Record) error {
	text := r.Message
	r.Attrs(func(a slog.Attr) bool {
		text += " " + a.Key + "=" + a.Value.String()
		return true
	})
	w.mu.Lock()
	defer w.mu.Unlock()
	w.texts = append(w.texts, text)
	return nil
}

func (w *warnings) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.texts, "\n")
}

// startLogged is start with the core's warnings kept.
func startLogged(t *testing.T) (*started, *warnings) {
	t.Helper()
	logged := &warnings{}
	s := startWith(t, func(o *Options) { o.Log = slog.New(logged) })
	return s, logged
}

// askAs asks the params raw as server notes does, returning its answer
// later, and the id of the request once the windows were told to open it.
func askAs(t *testing.T, s *started, raw json.RawMessage) (<-chan answer, string) {
	t.Helper()
	if !s.c.feed.attached() {
		go s.c.Attach(t.Context(), newRecorder())
		attached(t, s)
	}
	out := make(chan answer, 1)
	go func() {
		res, err := s.c.Router().AskRaw(context.Background(), servers.Identity{Name: "notes"}, raw)
		out <- answer{res, err}
	}()
	eventually(t, "the request's window", func() bool {
		w := s.c.pending.all()
		if len(w) != 1 {
			return false
		}
		_, shown := s.c.pending.wasShown(w[0].ID)
		return shown
	})
	return out, s.c.pending.all()[0].ID
}

// answer is what the asking server got.
type answer struct {
	res forms.Result
	err error
}

// TestAnswerChecked runs the cases of testdata/answers.json: the core
// sends a right answer to the server and records it; it refuses a wrong
// one in words and logs it, the server gets nothing, the history nothing,
// and the request still waits for a right answer.
func TestAnswerChecked(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "answers.json"))
	if err != nil {
		t.Fatal(err)
	}
	var data struct {
		Form, URL json.RawMessage
		Cases     []struct {
			Name    string
			Ask     string // "form" or "url"
			Result  forms.Result
			Refused string // in the error when refused; "" when sent
		}
	}
	if err := json.Unmarshal(raw, &data); err != nil {
		t.Fatal(err)
	}
	for _, tt := range data.Cases {
		t.Run(tt.Name, func(t *testing.T) {
			s, logged := startLogged(t)
			params := map[string]json.RawMessage{"form": data.Form, "url": data.URL}[tt.Ask]
			answered, id := askAs(t, s, params)
			want := tt.Result
			err := s.c.Answer(id, tt.Result)
			if tt.Refused != "" {
				if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), tt.Refused) {
					t.Fatalf("Answer: %v, want refused with %q", err, tt.Refused)
				}
				if log := logged.String(); !strings.Contains(log, "answer refused") || strings.ContainsRune(log, '\x1b') {
					t.Errorf("the refusal was not logged, or logged raw: %q", log)
				}
				if n := len(s.c.pending.all()); n != 1 {
					t.Fatalf("%d requests wait after the refusal, want 1", n)
				}
				// The server gets the next, right answer: the refused one
				// was never sent.
				want = forms.Result{Action: forms.Decline}
				if err := s.c.Answer(id, want); err != nil {
					t.Fatalf("the right answer after the refusal: %v", err)
				}
			} else if err != nil {
				t.Fatalf("Answer: %v", err)
			}
			got := <-answered
			if got.err != nil || got.res.Action != want.Action || !sameJSON(got.res.Content, want.Content) {
				t.Errorf("the server got %s %s (%v), want %s %s", got.res.Action, got.res.Content, got.err, want.Action, want.Content)
			}
			s.c.Flush()
			es, err := s.c.history.Search(context.Background(), history.Query{Limit: 10})
			if err != nil || len(es) != 1 || es[0].Outcome != outcome(want.Action) {
				t.Errorf("history %+v %v, want one entry, %s", es, err, outcome(want.Action))
			}
		})
	}
}

// sameJSON reports whether a and b are the same JSON, none being null.
func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	json.Unmarshal(a, &x)
	json.Unmarshal(b, &y)
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return bytes.Equal(ja, jb)
}

// TestAnswerAsTheFormSends: what the form window sends, a forms.Form
// filled in and accepted, passes the core's check, which runs the same
// forms rules on it.
func TestAnswerAsTheFormSends(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "answers.json"))
	if err != nil {
		t.Fatal(err)
	}
	var data struct{ Form json.RawMessage }
	if err := json.Unmarshal(raw, &data); err != nil {
		t.Fatal(err)
	}
	s := start(t)
	answered, id := askAs(t, s, data.Form)
	f := forms.NewForm(s.c.pending.all()[0].e.Form)
	for name, v := range map[string]any{"name": "Ann", "age": 30, "color": "green", "code": "XYZ"} {
		if err := f.Set(name, v); err != nil {
			t.Fatal(err)
		}
	}
	res, errs, err := f.Accept()
	if err != nil || len(errs) > 0 {
		t.Fatalf("the form does not accept its own values: %v %v", errs, err)
	}
	if err := s.c.Answer(id, res); err != nil {
		t.Fatalf("the core refused the form's answer: %v", err)
	}
	if got := <-answered; got.err != nil || !sameJSON(got.res.Content, res.Content) {
		t.Errorf("the server got %s (%v), want %s", got.res.Content, got.err, res.Content)
	}
}

// TestAnswerUnknownID: an answer for no pending request is ErrNotWaiting
// and logged, and the request that waits is left alone.
func TestAnswerUnknownID(t *testing.T) {
	s, logged := startLogged(t)
	answered := ask(s, "hello")
	eventually(t, "the request", func() bool { return len(s.c.pending.all()) == 1 })
	if err := s.c.Answer("no-such-request", forms.Result{Action: forms.Decline}); !errors.Is(err, ErrNotWaiting) {
		t.Errorf("Answer: %v, want ErrNotWaiting", err)
	}
	if log := logged.String(); !strings.Contains(log, "answer refused id=no-such-request") {
		t.Errorf("the refusal was not logged: %q", log)
	}
	if n := len(s.c.pending.all()); n != 1 {
		t.Errorf("%d requests wait, want 1", n)
	}
	select {
	case err := <-answered:
		t.Errorf("the server got an answer: %v", err)
	default:
	}
}
