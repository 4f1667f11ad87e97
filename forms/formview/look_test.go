package formview

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/testkit/uitest"
)

// openWith is open with other options.
func openWith(t *testing.T, schema string, opts Options) *harness {
	t.Helper()
	test.NewTempApp(t)
	s, err := forms.Parse([]byte(schema))
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t}
	h.v = New(forms.NewForm(s), "Please answer", opts)
	h.v.OnResult = func(r forms.Result) { h.results = append(h.results, r) }
	h.w = &interceptWindow{Window: test.NewWindow(nil)}
	h.v.Install(h.w)
	h.w.Resize(fyne.NewSize(900, 700))
	t.Cleanup(h.w.Close)
	return h
}

const meetingSchema = `{"type":"object","properties":{
	"start":{"type":"string","format":"date","title":"Start date"},
	"at":{"type":"string","format":"date-time","title":"Meeting"},
	"site":{"type":"string","format":"uri","title":"Website"}
},"required":["start"]}`

// TestReviewFollowsEveryKeystroke types a date the locale's way and checks
// the review shows it as ISO at once, with no focus change; a date in the
// other order says the form is not ready and names the field.
func TestReviewFollowsEveryKeystroke(t *testing.T) {
	tests := []struct {
		locale, typed, review string
	}{
		{"en_GB.UTF-8", "31/12/2020", `"start": "2020-12-31"`},
		{"de_DE.UTF-8", "31.12.2020", `"start": "2020-12-31"`},
		{"en_US.UTF-8", "12/31/2020", `"start": "2020-12-31"`},
		{"en_US.UTF-8", "2020-12-31", `"start": "2020-12-31"`},
		{"en_US.UTF-8", "31/12/2020", "Not ready: 1 field needs attention — Start date"},
		{"en_US.UTF-8", "12/31/202", "Not ready: 1 field needs attention — Start date"},
	}
	for _, tt := range tests {
		t.Run(tt.locale+" "+tt.typed, func(t *testing.T) {
			h := openWith(t, meetingSchema, Options{Zone: time.UTC, Dates: forms.DateStyleFor(tt.locale)})
			h.w.Canvas().Focus(h.row("start").focus)
			test.Type(h.row("start").focus, tt.typed)
			if h.w.Canvas().Focused() != h.row("start").focus {
				t.Fatal("focus moved")
			}
			if !strings.Contains(h.v.review.Text, tt.review) {
				t.Errorf("review %q, want %q in it", h.v.review.Text, tt.review)
			}
		})
	}
}

func TestDateHintShowsTheAcceptedPattern(t *testing.T) {
	h := openWith(t, meetingSchema, Options{Zone: time.UTC, Dates: forms.DateStyleFor("en_US")})
	if got := h.row("start").object.(*dateEntry).PlaceHolder; got != "MM/DD/YYYY" {
		t.Errorf("placeholder %q", got)
	}
	test.Type(h.row("start").focus, "31/12/2020")
	if got := h.errorShown("start"); got != "Enter a date as MM/DD/YYYY" {
		t.Errorf("error %q", got)
	}
}

func TestDateTimeSentAsRFC3339(t *testing.T) {
	zone := time.FixedZone("CET", 3600)
	h := openWith(t, meetingSchema, Options{Zone: zone, Dates: forms.DateStyleFor("de_DE")})
	d := h.row("at").object.(*fyne.Container)
	test.Type(h.row("start").focus, "2020-12-31")
	test.Type(h.row("at").focus, "31.12.2020")
	if !strings.HasPrefix(h.v.review.Text, "Not ready: 1 field needs attention — Meeting") {
		t.Errorf("a date without a time: %q", h.v.review.Text)
	}
	clock := d.Objects[1].(*fyne.Container).Objects[0].(*entry)
	test.Type(clock, "09:30")
	if !strings.Contains(h.v.review.Text, `"at": "2020-12-31T09:30:00+01:00"`) {
		t.Errorf("review %q", h.v.review.Text)
	}
}

// TestReviewWrapsInsteadOfHiding checks that a long value neither widens
// the view nor hides behind a horizontal scroll: the review wraps it.
func TestReviewWrapsInsteadOfHiding(t *testing.T) {
	h := openWith(t, meetingSchema, Options{Zone: time.UTC})
	test.Type(h.row("start").focus, "2020-12-31")
	before := h.v.MinSize().Width
	long := "https://example.com/" + strings.Repeat("very-long-path-segment/", 20)
	test.Type(h.row("site").focus, long)
	if !strings.Contains(h.v.review.Text, long) {
		t.Fatalf("review does not hold the whole URL: %q", h.v.review.Text)
	}
	if h.v.review.Wrapping == fyne.TextWrapOff {
		t.Error("review does not wrap long values")
	}
	if s := h.v.reviewed; s.Direction != container.ScrollVerticalOnly {
		t.Error("review scrolls sideways")
	}
	if after := h.v.MinSize().Width; after != before {
		t.Errorf("the view widened from %v to %v", before, after)
	}
}

// TestEveryKindMarkedTheSame makes every kind of control invalid and checks
// each shows the same way: outlined, its error in its hint's place, and its
// row exactly as tall as before; the summary takes the help's place beside
// the buttons, which stay as tall.
func TestEveryKindMarkedTheSame(t *testing.T) {
	h := open(t, `{"type":"object","properties":{
		"text":{"type":"string","description":"Your name"},
		"num":{"type":"integer","minimum":1},
		"day":{"type":"string","format":"date"},
		"at":{"type":"string","format":"date-time"},
		"radio":{"type":"string","enum":["a","b"]},
		"select":{"type":"string","enum":["a","b","c","d","e","f"]},
		"multi":{"type":"array","items":{"enum":["a","b","c"]},"minItems":1},
		"agree":{"type":"boolean","description":"Say yes"}
	},"required":["text","num","day","at","radio","select","multi"]}`)
	heights := map[string]float32{}
	bar := h.v.bar.MinSize().Height
	for _, r := range h.v.rows {
		heights[r.field.Name] = r.box.MinSize().Height
		if r.outline.Visible() || r.err.Visible() || !r.hint.Visible() {
			t.Errorf("%s is marked before anything happened", r.field.Name)
		}
	}
	test.Tap(h.button("Accept"))
	for _, r := range h.v.rows {
		invalid := r.field.Name != "agree"
		if r.outline.Visible() != invalid || r.err.Visible() != invalid || r.hint.Visible() == invalid {
			t.Errorf("%s: outline %v, error %v, hint %v", r.field.Name, r.outline.Visible(), r.err.Visible(), r.hint.Visible())
		}
		if got := r.box.MinSize().Height; got != heights[r.field.Name] {
			t.Errorf("%s: row height %v, was %v", r.field.Name, got, heights[r.field.Name])
		}
	}
	if got := h.v.summary.Text; got != "7 fields need attention." || !h.v.summary.Visible() || h.v.help.Visible() {
		t.Errorf("summary %q shown %v, help shown %v", got, h.v.summary.Visible(), h.v.help.Visible())
	}
	if got := h.v.bar.MinSize().Height; got != bar {
		t.Errorf("the buttons' bar is %v tall, was %v", got, bar)
	}
	test.Type(h.row("text").focus, "Ada")
	if r := h.row("text"); r.outline.Visible() || !r.hint.Visible() || r.hint.Text != "Your name" {
		t.Error("a fixed field is still marked")
	}
	if got := h.v.summary.Text; got != "6 fields need attention." {
		t.Errorf("summary %q", got)
	}
}

func TestButtonsExplainThemselves(t *testing.T) {
	h := open(t, `{"type":"object","properties":{"a":{"type":"string"}}}`)
	markup := test.RenderObjectToMarkup(h.v)
	for _, want := range []string{forms.DeclineHelp, forms.CancelHelp} {
		if !strings.Contains(markup, want) {
			t.Errorf("no %q", want)
		}
	}
	if h.button("Decline").Icon != nil {
		t.Error("Decline has an icon that reads as close")
	}
}

func TestToolCallIsCallOrCancel(t *testing.T) {
	schema := `{"type":"object","properties":{"q":{"type":"string"}},"additionalProperties":false}`
	h := openWith(t, schema, Options{ToolCall: true})
	var words []string
	for _, b := range h.v.buttons {
		words = append(words, b.Text)
	}
	if strings.Join(words, " ") != "Cancel Call" {
		t.Errorf("buttons %v", words)
	}
	markup := test.RenderObjectToMarkup(h.v)
	for _, never := range []string{"Decline", "Accept", "warning", "additionalProperties", forms.CancelHelp} {
		if strings.Contains(markup, never) {
			t.Errorf("a tool call shows %q", never)
		}
	}
	test.Type(h.row("q").focus, "x")
	test.Tap(h.button("Call"))
	if got := h.only(); got.Action != forms.Accept || string(got.Content) != `{"q":"x"}` {
		t.Errorf("got %+v", got)
	}
	if e := open(t, schema); !strings.Contains(test.RenderObjectToMarkup(e.v), "warning") {
		t.Error("the elicitation form lost its schema lint; the test above proves nothing")
	}
}

// TestEveryTabStopShowsFocus goes once round the focus chain: each stop is
// a field's control or a button, never a hidden or read-only widget.
func TestEveryTabStopShowsFocus(t *testing.T) {
	for name, schema := range map[string]string{"everything": everythingSchema(t), "dates": meetingSchema} {
		t.Run(name, func(t *testing.T) {
			h := open(t, schema)
			c := h.w.Canvas()
			c.Unfocus()
			c.FocusNext()
			first := c.Focused()
			for stop := first; ; {
				if !h.isStop(stop) {
					t.Errorf("Tab stops on %T, which shows no focus", stop)
				}
				c.FocusNext()
				if stop = c.Focused(); stop == first {
					break
				}
			}
		})
	}
}

// isStop reports whether f is one of the form's buttons or a part of a
// field's control that takes input (a button inside one, such as a
// calendar's, shows no focus).
func (h *harness) isStop(f fyne.Focusable) bool {
	for _, b := range h.v.buttons {
		if f == b {
			return true
		}
	}
	if _, button := f.(*widget.Button); button {
		return false
	}
	for _, r := range h.v.rows {
		if holds(r.object, f.(fyne.CanvasObject)) {
			return true
		}
	}
	return false
}

// holds reports whether o is target or has it inside.
func holds(o, target fyne.CanvasObject) bool {
	found := false
	visit(o, func(x fyne.CanvasObject) { found = found || x == target })
	return found
}

// isButton reports whether o is button b, or embeds it.
func isButton(o fyne.CanvasObject, b *widget.Button) bool {
	found, ok := uitest.Button(o)
	return ok && found == b
}

// visit calls f on o and on everything inside it.
func visit(o fyne.CanvasObject, f func(fyne.CanvasObject)) {
	f(o)
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			visit(c, f)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(x).Objects() {
			visit(c, f)
		}
	}
}

func TestEscapeAsksBeforeDiscarding(t *testing.T) {
	escape := func(h *harness) { h.row("a").focus.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape}) }
	closeWindow := func(h *harness) { h.w.intercept() }
	for name, leave := range map[string]func(*harness){"escape": escape, "closing": closeWindow} {
		t.Run(name, func(t *testing.T) {
			h := open(t, `{"type":"object","properties":{"a":{"type":"string"}}}`)
			test.Type(h.row("a").focus, "typed")
			leave(h)
			if len(h.results) != 0 || h.w.closed {
				t.Fatal("a filled-in form was discarded without asking")
			}
			if f, ok := h.w.Canvas().Focused().(fyne.CanvasObject); !ok || !isButton(f, h.overlayButton("Keep editing")) {
				t.Errorf("the question opens with the keyboard on %T, want Keep editing", h.w.Canvas().Focused())
			}
			h.w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape}) // from the focused button: keep editing
			if len(h.results) != 0 || h.w.Canvas().Overlays().Top() != nil {
				t.Fatal("Escape on the focused Keep editing did not keep editing")
			}
			leave(h)
			test.Tap(h.overlayButton("Keep editing"))
			if len(h.results) != 0 || h.w.closed || h.row("a").object.(*entry).Text != "typed" {
				t.Fatal("Keep editing lost the form")
			}
			leave(h)
			leave(h) // a second Escape or close, while asked, keeps editing
			if len(h.results) != 0 || h.w.closed || h.w.Canvas().Overlays().Top() != nil {
				t.Fatal("leaving twice discarded the form or left the question up")
			}
			leave(h)
			test.Tap(h.overlayButton("Discard"))
			if got := h.only(); got.Action != forms.Cancel {
				t.Errorf("discarding sent %s", got.Action)
			}
			if h.w.closed != (name == "closing") {
				t.Errorf("window closed: %v", h.w.closed)
			}
		})
	}
}

// overlayButton finds a button on the dialog or pop-up over the window.
func (h *harness) overlayButton(label string) *widget.Button {
	h.t.Helper()
	top := h.w.Canvas().Overlays().Top()
	if top == nil {
		h.t.Fatal("no dialog shows")
	}
	var found *widget.Button
	visit(top, func(o fyne.CanvasObject) {
		if b, ok := uitest.Button(o); ok && b.Text == label {
			found = b
		}
	})
	if found == nil {
		h.t.Fatalf("no %q on the dialog", label)
	}
	return found
}

// TestCalendarPicksInTheLocalesWay picks a day from the calendar and
// checks it is shown the locale's way and sent as ISO.
func TestCalendarPicksInTheLocalesWay(t *testing.T) {
	h := openWith(t, meetingSchema, Options{Zone: time.UTC, Dates: forms.DateStyleFor("de_DE")})
	e := h.row("start").object.(*dateEntry)
	test.Type(e, "14.02.2025")
	test.Tap(e.ActionItem.(*picker))
	test.Tap(h.overlayButton("20"))
	if e.Text != "20.02.2025" {
		t.Errorf("picked %q", e.Text)
	}
	if !strings.Contains(h.v.review.Text, `"start": "2025-02-20"`) {
		t.Errorf("review %q", h.v.review.Text)
	}
	if h.w.Canvas().Overlays().Top() != nil {
		t.Error("the calendar stays open")
	}
}

// TestControlsGetTheirWidth lays every kind of field out in a window as
// narrow as a request window at scale 2: the labels' column gives way, so
// no row of radio buttons or date and time is cut.
func TestControlsGetTheirWidth(t *testing.T) {
	h := open(t, everythingSchema(t))
	h.w.Resize(fyne.NewSize(716, 414))
	for _, r := range h.v.rows {
		if got, need := r.object.Size().Width, r.object.MinSize().Width; got < need {
			t.Errorf("%s is %v wide, needs %v", r.field.Name, got, need)
		}
	}
}

// TestReviewMakesRoom: a window fitted to a small form as it opens asks
// for the height its review needs as the person fills the form in (the
// JSON grows from "Not ready" to a line a field), and, grown as the app
// grows it, shows what Accept sends whole: the review no longer scrolls.
func TestReviewMakesRoom(t *testing.T) {
	var h *harness
	var asked float32
	h = openWith(t, `{"type":"object","properties":{"user":{"type":"string"},"password":{"type":"string"},"note":{"type":"string"}},"required":["user"]}`,
		Options{Grow: func(dh float32) {
			asked += dh
			h.w.Resize(h.w.Canvas().Size().AddWidthHeight(0, dh))
		}})
	h.w.Resize(fyne.NewSize(760, 10))
	h.w.Resize(fyne.NewSize(760, h.v.FullHeight())) // as the app fits it
	if asked != 0 {
		t.Fatalf("the fitted window was asked for %v more before anything was typed", asked)
	}
	test.Type(h.row("user").focus, "bob")
	test.Type(h.row("password").focus, "hunter22")
	test.Type(h.row("note").focus, "a note long enough to wrap in the review at this width, and then some more words")
	if asked <= 0 {
		t.Fatal("the review grew and asked for no room")
	}
	if need, have := unscrolled(h.v.card, h.v.reviewed), h.v.card.Size().Height; need > have+1 {
		t.Errorf("grown by %v, the review needs %v and has %v", asked, need, have)
	}
}
