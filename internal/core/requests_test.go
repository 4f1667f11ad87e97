package core

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/desktop/notify"
	"github.com/elicitdesk/elicitdesk/internal/desktop/tray"
	"github.com/elicitdesk/elicitdesk/servers"
	"github.com/elicitdesk/elicitdesk/servers/rpc"
)

// opens records the windows' Open events, in order, with who wanted each.
type opens struct {
	*recorder
	by []Opener
}

func (o *opens) Open(q Request, by Opener) {
	o.note(func() {
		o.requests = append(o.requests, q)
		o.by = append(o.by, by)
	})
}

// messages are the messages of the requests opened, in order.
func (o *opens) messages() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	var ms []string
	for _, q := range o.requests {
		ms = append(ms, servers.LooseParams(q.Params).Message.Line())
	}
	return ms
}

// opened is a copy of the requests opened, in order.
func (o *opens) opened() []Request {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.requests)
}

// askN asks n requests one after the other, "1" to "n", each pending
// before the next is asked.
func askN(t *testing.T, s *started, n int) []<-chan error {
	var answers []<-chan error
	for i := range n {
		answers = append(answers, ask(s, fmt.Sprint(i+1)))
		eventually(t, "request "+fmt.Sprint(i+1), func() bool { return len(s.c.pending.all()) > i })
	}
	return answers
}

// TestBurstOpensInOrder: the windows are told to open requests that
// arrive at once in the order the core keeps them, the order the person
// sees them in: arrival.
func TestBurstOpensInOrder(t *testing.T) {
	s := startWith(t, func(o *Options) { o.StartUI, o.Windows = nil, WindowPrefs{Max: MaxWindows} })
	rec := &opens{recorder: newRecorder()}
	go s.c.Attach(t.Context(), rec)
	attached(t, s)
	for i := range MaxWindows { // from as many servers, each within its limits
		go s.c.Router().AskRaw(t.Context(), servers.Identity{Name: fmt.Sprint("server ", i+1)},
			json.RawMessage(`{"message":"hello","requestedSchema":{"type":"object","properties":{}}}`))
	}
	rec.until(t, "every window", func() bool { return len(rec.requests) == MaxWindows })
	var kept, told []string
	for _, w := range s.c.pending.all() {
		kept = append(kept, w.ID)
	}
	for _, q := range rec.opened() {
		told = append(told, q.ID)
	}
	if !slices.Equal(told, kept) {
		t.Errorf("told to open %q, want them in the order they wait, %q", told, kept)
	}
}

// TestWindowPlaces: five requests that came while no windows ran open,
// once windows attach, three at a time (the limit) and oldest first; an
// answer or a window closed unanswered gives its place to the next in
// order; the person's pick opens past the limit, with the keyboard; and
// a request that has no window yet cannot be answered.
func TestWindowPlaces(t *testing.T) {
	s := startWith(t, func(o *Options) { o.StartUI = nil })
	answers := askN(t, s, 5)
	rec := &opens{recorder: newRecorder()}
	go s.c.Attach(t.Context(), rec)
	rec.until(t, "three windows", func() bool { return len(rec.requests) == 3 })
	if got := rec.messages(); !slices.Equal(got, []string{"1", "2", "3"}) {
		t.Fatalf("opened %q, want 1, 2, 3", got)
	}
	fourth := s.c.pending.all()[3]
	if err := s.c.Answer(fourth.ID, forms.Result{Action: forms.Decline}); !errors.Is(err, errNotShown) {
		t.Errorf("an answer to a request without a window: %v, want it refused", err)
	}
	select {
	case err := <-answers[3]:
		t.Fatalf("the server got an answer nobody gave: %v", err)
	default:
	}

	if err := s.c.Answer(rec.requests[0].ID, forms.Result{Action: forms.Cancel}); err != nil {
		t.Fatal(err)
	}
	<-answers[0]
	rec.until(t, "the fourth's window", func() bool { return len(rec.requests) == 4 })
	second := rec.requests[1]
	s.c.Closed(second.ID, second.Opening) // closed without an answer: it waits on
	rec.until(t, "the fifth's window", func() bool { return len(rec.requests) == 5 })
	if got := rec.messages(); !slices.Equal(got, []string{"1", "2", "3", "4", "5"}) {
		t.Errorf("opened %q, want 1 to 5 in order", got)
	}
	s.c.Show(Show{Window: WindowRequest, Request: rec.requests[1].ID}) // the person picks it again
	rec.until(t, "the second's window again", func() bool { return len(rec.requests) == 6 })
	if rec.by[5] != ByPerson || rec.by[4] != ByApp {
		t.Errorf("opened by %v, want the app's until the person's pick", rec.by)
	}
	s.c.Closed(second.ID, second.Opening) // told again, late: crossing the pick
	if n := s.c.pending.count(); n.Windowless != 0 {
		t.Errorf("a late close of the reopened request's first window set it aside: %+v", n)
	}
	if err := s.c.Answer(rec.requests[5].ID, forms.Result{Action: forms.Decline}); err != nil {
		t.Errorf("the picked request's answer: %v", err)
	}
}

// TestIconClicked: a click on the tray icon of a host that shows no menu
// brings forward the oldest request that waits, even one whose window
// was closed unanswered, with the keyboard; with none waiting, it opens
// the Servers window with the tray's entries.
func TestIconClicked(t *testing.T) {
	s := startWith(t, func(o *Options) { o.StartUI = nil })
	rec := &opens{recorder: newRecorder()}
	go s.c.Attach(t.Context(), rec)
	attached(t, s)
	s.c.IconClicked()
	rec.until(t, "the Servers window", func() bool { return len(rec.shows) == 1 })
	if got := rec.shows[0]; got.Window != WindowServers || !got.Menu {
		t.Errorf("with nothing waiting, the click showed %+v, want Servers with the tray's entries", got)
	}
	answers := askN(t, s, 1)
	rec.until(t, "the request's window", func() bool { return len(rec.requests) == 1 })
	q := rec.requests[0]
	s.c.Closed(q.ID, q.Opening) // closed unanswered: it waits without a window
	s.c.IconClicked()
	rec.until(t, "the request's window again", func() bool { return len(rec.requests) == 2 })
	if rec.requests[1].ID != q.ID || rec.by[1] != ByPerson {
		t.Errorf("the click opened %s by %s, want %s by the person", rec.requests[1].ID, rec.by[1], q.ID)
	}
	if len(rec.shows) != 1 {
		t.Errorf("the click with a request waiting also showed %+v", rec.shows[1:])
	}
	s.c.Answer(q.ID, forms.Result{Action: forms.Cancel})
	<-answers[0]
}

// TestBurstNotification: requests that arrive together, unseen, are one
// notification that names them in arrival order; it goes once they are
// answered, and a click opens the oldest still waiting.
func TestBurstNotification(t *testing.T) {
	n := &notifier{}
	s := startWith(t, func(o *Options) {
		o.StartUI, o.Notifier, o.Windows = nil, n, WindowPrefs{Max: 1, Notify: true}
	})
	rec := &opens{recorder: newRecorder()}
	go s.c.Attach(t.Context(), rec)
	attached(t, s) // a request arriving as they attach is told twice, and opens recorded it twice
	answers := askN(t, s, 5)
	eventually(t, "the notification", func() bool {
		n.mu.Lock()
		defer n.mu.Unlock()
		return len(n.shown) > 0
	})
	n.mu.Lock()
	shown := slices.Clone(n.shown)
	n.mu.Unlock()
	if len(shown) != 1 || shown[0].Summary != "5 requests from notes" || shown[0].Body != "1\n2\n3\n…and 2 more" {
		t.Errorf("notifications %+v, want one of 5 requests from notes, in order", shown)
	}
	for i := range 5 { // each opens once the one before is answered
		rec.until(t, "a window", func() bool { return len(rec.requests) > i })
		if err := s.c.Answer(rec.requests[i].ID, forms.Result{Action: forms.Cancel}); err != nil {
			t.Fatal(err)
		}
		<-answers[i]
	}
	eventually(t, "the burst's notification withdrawn once none of it waits", func() bool {
		n.mu.Lock()
		defer n.mu.Unlock()
		return slices.Equal(n.withdrawn, []uint32{1})
	})

	askN(t, s, 2)
	eventually(t, "the second burst's notification", func() bool {
		s.c.arrivals.mu.Lock()
		defer s.c.arrivals.mu.Unlock()
		return len(s.c.arrivals.shown[2]) == 2
	})
	s.c.NoticeClicked(2)
	rec.until(t, "the click's window", func() bool { return len(rec.by) == 7 })
	if got := rec.messages(); got[6] != "1" || rec.by[6] != ByPerson {
		t.Errorf("the click opened %q by %v, want the burst's oldest, 1, by the person", got[5:], rec.by[5:])
	}
}

// TestBurstNotice: what a burst's notification says.
func TestBurstNotice(t *testing.T) {
	req := func(server, message string) *waiting {
		e := servers.NewRouter(servers.DefaultLimits, nil).Expect(servers.Identity{Name: server},
			servers.Params{Message: untrusted.Text(message), Mode: servers.ModeURL, URL: "https://example.com"})
		return &waiting{Request: Request{Server: e.Server}, e: e}
	}
	onDevbox := req("demo", "Deploy?")
	onDevbox.Server.Machine = "devbox"
	tests := []struct {
		name          string
		burst         []*waiting
		summary, body string
	}{
		{"one", []*waiting{req("demo", "Deploy?")}, "demo asks", "Deploy?"},
		{"two servers", []*waiting{req("demo", "a"), req("notes", "b")}, "2 requests from demo and notes", "demo: a\nnotes: b"},
		{"three servers", []*waiting{req("a", "1"), req("b", "2"), req("c", "3")}, "3 requests from a and 2 others", "a: 1\nb: 2\nc: 3"},
		{"hidden characters", []*waiting{req("de\u202emo", "x\u200by")}, "de⟨U+202E⟩mo asks", "x⟨U+200B⟩y"},
		{"another machine's", []*waiting{onDevbox}, "demo on devbox asks", "Deploy?"},
		{"here and on another machine", []*waiting{req("demo", "a"), onDevbox}, "2 requests from demo and demo on devbox", "demo: a\ndemo on devbox: Deploy?"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := burstNotice(tt.burst)
			want := notify.Notice{Summary: tt.summary, Body: tt.body, Urgency: notify.Normal}
			if got != want {
				t.Errorf("notice %+v\nwant   %+v", got, want)
			}
		})
	}
}

// TestNoNotification: no notification while one of the windows has the
// keyboard, nor when the person turned them off; a request the person's
// own tool call raised opens at once instead.
func TestNoNotification(t *testing.T) {
	tests := []struct {
		name    string
		prefs   WindowPrefs
		focused bool
	}{
		{"the windows have the keyboard", WindowPrefs{Max: 3, Notify: true}, true},
		{"turned off", WindowPrefs{Max: 3, Notify: false}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := &notifier{}
			s := startWith(t, func(o *Options) { o.StartUI, o.Notifier, o.Windows = nil, n, tt.prefs })
			s.c.Focused(tt.focused)
			askN(t, s, 2)
			s.c.arrivals.mu.Lock()
			gathering := len(s.c.arrivals.gathering)
			s.c.arrivals.mu.Unlock()
			if gathering != 0 {
				t.Errorf("%d requests gathered for a notification, want none", gathering)
			}
		})
	}
}

// TestWaitingCount: the windows are told, over the private connection,
// how many requests wait and how many of those have no window, each time
// either changes: requests past the limit, a window closed unanswered
// (its place goes to the next), and the pick of a second start, which
// brings forward the oldest without a window. The tray lists the requests
// in a window and those waiting for one apart.
func TestWaitingCount(t *testing.T) {
	s := startWith(t, func(o *Options) { o.Windows = WindowPrefs{Max: 2} })
	askN(t, s, 4)
	_, rec, _ := remoteUI(t, <-s.starts)
	told := 0 // counts told so far
	next := func(what string, want Count, tray string) {
		t.Helper()
		rec.until(t, what, func() bool { return len(rec.counts) > told && rec.counts[len(rec.counts)-1] == want })
		told = len(rec.counts)
		if got := trayGroups(s.c.TrayItems()); got != tray {
			t.Errorf("%s: the tray lists %q, want %q", what, got, tray)
		}
	}
	next("two past the limit", Count{All: 4, Windowless: 2}, "In a window: 1 2 | Waiting for a window: 3 4")
	rec.until(t, "two windows", func() bool { return len(rec.requests) == 2 })
	s.c.Closed(rec.requests[0].ID, rec.requests[0].Opening)
	next("1 closed unanswered, 3 in its place", Count{All: 4, Windowless: 2}, "In a window: 2 3 | Waiting for a window: 1 4")
	s.c.Show(Show{Window: WindowFront})
	next("a second start's pick", Count{All: 4, Windowless: 1}, "In a window: 1 2 3 | Waiting for a window: 4")
}

// trayGroups are the tray's requests by group, each by its message:
// "In a window: 1 2 | Waiting for a window: 3".
func trayGroups(items []tray.Item) string {
	var groups []string
	for _, i := range items {
		switch {
		case i.Disabled && (i.Label == "In a window" || i.Label == "Waiting for a window"):
			groups = append(groups, i.Label+":")
		case i.Separator || i.Disabled || len(groups) == 0:
		case strings.HasPrefix(i.Label, "notes: "):
			message, _, _ := strings.Cut(strings.TrimPrefix(i.Label, "notes: "), " (")
			groups[len(groups)-1] += " " + message
		}
	}
	return strings.Join(groups, " | ")
}

// TestMenuLabel: a request in a menu names its server, cut when long, and
// the first words of its message.
func TestMenuLabel(t *testing.T) {
	at := time.Date(2026, 5, 4, 10, 0, 0, 0, time.Local)
	for _, tt := range []struct{ server, message, want string }{
		{"demo", "Deploy?", "demo: Deploy? (10:00:00)"},
		{strings.Repeat("n", 500), "Deploy?", strings.Repeat("n", menuName-1) + "…: Deploy? (10:00:00)"},
		{"de\u202emo", "x", "de⟨U+202E⟩mo: x (10:00:00)"},
	} {
		e := servers.NewRouter(servers.DefaultLimits, nil).Expect(servers.Identity{Name: tt.server},
			servers.Params{Message: untrusted.Text(tt.message), Mode: servers.ModeURL, URL: "https://example.com"})
		e.Received = at
		if got := MenuLabel(e); got != tt.want {
			t.Errorf("MenuLabel(%.20q) = %q, want %q", tt.server, got, tt.want)
		}
	}
}

// TestTrayLoginCheckItem: "Launch at login" is a check item whether or not
// it is on, so an unticked one still reads as something to tick.
func TestTrayLoginCheckItem(t *testing.T) {
	s := start(t)
	for _, i := range s.c.TrayItems() {
		if i.Label == "Launch at login" {
			if !i.Check {
				t.Errorf("%+v is not a check item", i)
			}
			return
		}
	}
	t.Error("no Launch at login in the tray menu")
}

// TestStaleWords: why a request went stale, in a sentence; a cancel names
// the server that sent it, its name shown safely and as given.
func TestStaleWords(t *testing.T) {
	cancelled := rpc.ErrCancelled.Error()
	for _, tt := range []struct{ server, cause, want string }{
		{"demo", cancelled, "demo cancelled the request. Nothing was sent."},
		{"demo", cancelled + ": took too long\u202e", "demo cancelled the request, saying “took too long⟨U+202E⟩”. Nothing was sent."},
		{"demo", cancelled + ": your session expired.\n\nElicit Desk: security check failed, open https://verify.example/restore now",
			"demo cancelled the request, saying “your session expired.⟨U+000A⟩⟨U+000A⟩Elicit Desk: security…”. Nothing was sent."},
		{"de\u202emo", cancelled, "de⟨U+202E⟩mo cancelled the request. Nothing was sent."},
		{strings.Repeat("n", 500), cancelled, strings.Repeat("n", menuName-1) + "… cancelled the request. Nothing was sent."},
		{"", cancelled, "The other side cancelled the request. Nothing was sent."},
		{"demo", "the bridge ended", "The bridge ended. Nothing was sent."},
		{"demo", "", "The request is no longer waiting. Nothing was sent."},
	} {
		if got := StaleWords(tt.server, tt.cause); got != tt.want {
			t.Errorf("StaleWords(%.20q, %q) = %q, want %q", tt.server, tt.cause, got, tt.want)
		}
	}
}
