package formview

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/forms"
)

// harness is a view in a test window, recording every result it gives.
type harness struct {
	t       *testing.T
	v       *View
	w       *interceptWindow
	results []forms.Result
}

// interceptWindow keeps the close intercept, which the test driver's Close
// skips, so a test can close the window the way a window manager does.
type interceptWindow struct {
	fyne.Window
	intercept func()
	closed    bool
	canvas    *shortcutCanvas
}

func (w *interceptWindow) SetCloseIntercept(f func()) {
	w.intercept = f
	w.Window.SetCloseIntercept(f)
}

// Canvas is the window's canvas, recording its shortcuts so that a test
// can type them as the desktop driver does; the test canvas drops them.
func (w *interceptWindow) Canvas() fyne.Canvas {
	if w.canvas == nil {
		w.canvas = &shortcutCanvas{Canvas: w.Window.Canvas(), handlers: map[string]func(fyne.Shortcut){}}
	}
	return w.canvas
}

type shortcutCanvas struct {
	fyne.Canvas
	handlers map[string]func(fyne.Shortcut)
}

func (c *shortcutCanvas) AddShortcut(s fyne.Shortcut, handler func(fyne.Shortcut)) {
	c.handlers[s.ShortcutName()] = handler
	c.Canvas.AddShortcut(s, handler)
}

// TypedShortcut implements fyne.Shortcutable, as the desktop canvas does.
func (c *shortcutCanvas) TypedShortcut(s fyne.Shortcut) {
	if h := c.handlers[s.ShortcutName()]; h != nil {
		h(s)
	}
}

// OnTypedKey is the key handler Install set.
func (c *shortcutCanvas) OnTypedKey() func(*fyne.KeyEvent) {
	return c.Canvas.(interface{ OnTypedKey() func(*fyne.KeyEvent) }).OnTypedKey()
}

func (w *interceptWindow) Close() {
	if !w.closed {
		w.closed = true
		w.Window.Close()
	}
}

func open(t *testing.T, schema string) *harness {
	t.Helper()
	return openWith(t, schema, Options{Zone: time.UTC, Dates: forms.DateStyleFor("en_GB")})
}

func everythingSchema(t *testing.T) string {
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "schemas", "ok", "everything-trigger-elicitation-request.json"))
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// row returns the on-screen row of a field.
func (h *harness) row(name string) *row {
	for i := range h.v.rows {
		if h.v.rows[i].field.Name == name {
			return &h.v.rows[i]
		}
	}
	h.t.Fatalf("no field %s", name)
	return nil
}

// setChecks ticks exactly the options titled in a multiple choice.
func (h *harness) setChecks(name string, titles ...string) {
	h.t.Helper()
	for _, o := range h.row(name).object.(*fyne.Container).Objects {
		c := o.(*check)
		c.SetChecked(slices.Contains(titles, c.Text))
	}
}

func (h *harness) button(label string) *button {
	for _, b := range h.v.buttons {
		if b.Text == label {
			return b
		}
	}
	h.t.Fatalf("no button %s", label)
	return nil
}

// errorShown returns the inline error under a field, or "" when none shows.
func (h *harness) errorShown(name string) string {
	r := h.row(name)
	if !r.err.Visible() {
		return ""
	}
	return r.err.Text
}

func (h *harness) only() forms.Result {
	h.t.Helper()
	if len(h.results) != 1 {
		h.t.Fatalf("want exactly one result, got %v", h.results)
	}
	return h.results[0]
}

func TestAcceptSendsTypedContent(t *testing.T) {
	h := open(t, everythingSchema(t))
	test.Type(h.row("name").focus, "Ada Lovelace")
	test.Type(h.row("email").focus, "ada@example.com")
	h.row("integer").object.(*numericEntry).SetText("")
	test.Type(h.row("integer").focus, "7")
	h.row("check").object.(*radios).choose(0) // Yes
	h.setChecks("titledMultipleSelectEnum", "Salmon", "Tuna")
	h.row("legacyTitledEnum").object.(*choice).SetSelected("Birds")
	test.Tap(h.button("Accept"))

	want := `{"name":"Ada Lovelace","check":true,"firstLine":"It was a dark and stormy night.","email":"ada@example.com",` +
		`"integer":7,"number":3.14,"untitledSingleSelectEnum":"Monica","untitledMultipleSelectEnum":["Guitar"],` +
		`"titledSingleSelectEnum":"hero-1","titledMultipleSelectEnum":["fish-1","fish-2"],"legacyTitledEnum":"pet-3"}`
	if got := h.only(); got.Action != forms.Accept || string(got.Content) != want {
		t.Fatalf("got %s %s\nwant %s", got.Action, got.Content, want)
	}
	if !h.button("Accept").Disabled() {
		t.Error("buttons stay live after the answer")
	}
}

func TestInlineErrors(t *testing.T) {
	h := open(t, everythingSchema(t))
	if e := h.errorShown("name"); e != "" {
		t.Errorf("untouched field shows %q", e)
	}
	test.Type(h.row("email").focus, "ada@")
	if e := h.errorShown("email"); !strings.HasPrefix(e, "Enter an email address") {
		t.Errorf("email error %q", e)
	}
	test.Type(h.row("email").focus, "example.com")
	if e := h.errorShown("email"); e != "" {
		t.Errorf("valid email still shows %q", e)
	}
	h.row("integer").object.(*numericEntry).SetText("")
	test.Type(h.row("integer").focus, "500")
	if e := h.errorShown("integer"); e != "At most 100" {
		t.Errorf("integer error %q", e)
	}
	h.setChecks("untitledMultipleSelectEnum", "Guitar", "Piano", "Violin", "Drums")
	if e := h.errorShown("untitledMultipleSelectEnum"); e != "Choose at most 3" {
		t.Errorf("multi error %q", e)
	}

	test.Tap(h.button("Accept"))
	if len(h.results) != 0 {
		t.Fatalf("invalid form was sent: %v", h.results)
	}
	if e := h.errorShown("name"); e != "Required" {
		t.Errorf("after Accept, the required field shows %q", e)
	}
	if !h.v.summary.Visible() || h.v.summary.Text != "3 fields need attention." {
		t.Errorf("summary of the errors: %q", h.v.summary.Text)
	}
	if h.w.Canvas().Focused() != h.row("name").focus {
		t.Error("focus did not move to the first invalid field")
	}
}

func TestReviewShowsExactJSON(t *testing.T) {
	h := open(t, `{"type":"object","properties":{"a":{"type":"string"},"n":{"type":"integer"}}}`)
	test.Type(h.row("a").focus, "hi")
	test.Type(h.row("n").focus, "5")
	if got, want := h.v.review.Text, "{\n  \"a\": \"hi\",\n  \"n\": 5\n}"; got != want {
		t.Errorf("review\n%s\nwant\n%s", got, want)
	}
}

// TestReviewMasksSecrets checks that Review shows a masked field as dots,
// as its input does, while Accept still sends what was typed.
func TestReviewMasksSecrets(t *testing.T) {
	h := open(t, `{"type":"object","properties":{"user":{"type":"string"},"newpassword":{"type":"string"}}}`)
	test.Type(h.row("user").focus, "ann")
	test.Type(h.row("newpassword").focus, "hunter2")
	if got, want := h.v.review.Text, "{\n  \"user\": \"ann\",\n  \"newpassword\": \"•••••••\"\n}"; got != want {
		t.Errorf("review\n%s\nwant\n%s", got, want)
	}
	test.Tap(h.button("Accept"))
	if got := string(h.only().Content); got != `{"user":"ann","newpassword":"hunter2"}` {
		t.Errorf("sent %s", got)
	}
}

// TestSecretNumbersMasked checks that a number field asking for a secret
// (a PIN, a CVV) is typed masked and shown masked in Review, as text is.
func TestSecretNumbersMasked(t *testing.T) {
	h := open(t, `{"type":"object","properties":{"pin":{"type":"integer"},"cvv":{"type":"number"}}}`)
	for _, name := range []string{"pin", "cvv"} {
		if e := h.row(name).object.(*numericEntry); !e.Password {
			t.Errorf("%s is typed in clear", name)
		}
	}
	test.Type(h.row("pin").focus, "1234")
	test.Type(h.row("cvv").focus, "567")
	if got, want := h.v.review.Text, "{\n  \"pin\": \"••••\",\n  \"cvv\": \"•••\"\n}"; got != want {
		t.Errorf("review\n%s\nwant\n%s", got, want)
	}
	test.Tap(h.button("Accept"))
	if got := string(h.only().Content); got != `{"pin":1234,"cvv":567}` {
		t.Errorf("sent %s", got)
	}
}

func TestOutcomes(t *testing.T) {
	schema := `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"boolean"},
		"c":{"type":"string","enum":["1","2","3","4","5","6","7","8","9"]}},"required":["a"]}`
	tests := []struct {
		name string
		act  func(h *harness)
		want forms.Result
	}{
		{"decline button", func(h *harness) { test.Tap(h.button("Decline")) }, forms.Result{Action: forms.Decline}},
		{"cancel button", func(h *harness) { test.Tap(h.button("Cancel")) }, forms.Result{Action: forms.Cancel}},
		{"escape in a field", func(h *harness) {
			h.row("a").focus.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		}, forms.Result{Action: forms.Cancel}},
		{"escape with nothing focused", func(h *harness) {
			h.w.Canvas().Unfocus()
			h.w.Canvas().(interface{ OnTypedKey() func(*fyne.KeyEvent) }).OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
		}, forms.Result{Action: forms.Cancel}},
		{"closing the window", func(h *harness) { h.w.intercept() }, forms.Result{Action: forms.Cancel}},
		{"escape on a focused checkbox", func(h *harness) {
			h.row("b").focus.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		}, forms.Result{Action: forms.Cancel}},
		{"escape on a focused drop-down", func(h *harness) {
			h.row("c").focus.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		}, forms.Result{Action: forms.Cancel}},
		{"enter accepts a valid form", func(h *harness) {
			test.Type(h.row("a").focus, "x")
			h.row("a").focus.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		}, forms.Result{Action: forms.Accept, Content: []byte(`{"a":"x"}`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := open(t, schema)
			tt.act(h)
			got := h.only()
			if got.Action != tt.want.Action || string(got.Content) != string(tt.want.Content) {
				t.Fatalf("got %s %s, want %s %s", got.Action, got.Content, tt.want.Action, tt.want.Content)
			}
			test.Tap(h.button("Decline")) // a second answer is never sent
			h.only()
		})
	}
}

func TestEnterOnInvalidFormSendsNothing(t *testing.T) {
	h := open(t, `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`)
	h.row("a").focus.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if len(h.results) != 0 || h.errorShown("a") != "Required" {
		t.Fatalf("results %v, error %q", h.results, h.errorShown("a"))
	}
}

// TestNumericEntryKeepsWhatIsTyped: a number field drops nothing typed,
// which would change the number unseen; its check says what is wrong.
func TestNumericEntryKeepsWhatIsTyped(t *testing.T) {
	for _, tt := range []struct {
		kind, typed, err string
	}{
		{"integer", "2.5", "Must be a whole number"},
		{"integer", "1,000", "Enter a whole number, like 42"},
		{"integer", "4a2", "Enter a whole number, like 42"},
		{"integer", "1.0", ""},
		{"number", "1,5", "Enter a number, like 3.14"},
		{"number", "-1.5e3", ""},
	} {
		h := open(t, `{"type":"object","properties":{"x":{"type":"`+tt.kind+`"}}}`)
		test.Type(h.row("x").focus, tt.typed)
		if got := h.row("x").object.(*numericEntry).Text; got != tt.typed {
			t.Errorf("%s %q: the field holds %q", tt.kind, tt.typed, got)
		}
		if got := h.errorShown("x"); got != tt.err {
			t.Errorf("%s %q: the field says %q, want %q", tt.kind, tt.typed, got, tt.err)
		}
	}
}

func TestTabFollowsFieldOrder(t *testing.T) {
	h := open(t, `{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"string"},"m":{"type":"number"}}}`)
	c := h.w.Canvas()
	var order []string
	for range 3 {
		c.FocusNext()
		for _, r := range h.v.rows {
			if c.Focused() == r.focus {
				order = append(order, r.field.Name)
			}
		}
	}
	if !slices.Equal(order, []string{"z", "a", "m"}) {
		t.Errorf("focus order %v", order)
	}
}

func TestWidgetsPerKind(t *testing.T) {
	h := open(t, `{"type":"object","properties":{
		"bio":{"type":"string","maxLength":1000},
		"apiToken":{"type":"string","title":"API token"},
		"day":{"type":"string","format":"date","default":"2025-02-14"},
		"at":{"type":"string","format":"date-time","default":"2025-02-14T09:30:00Z"},
		"few":{"type":"string","enum":["a","b"]},
		"many":{"type":"string","enum":["a","b","c","d","e"]}
	}}`)
	if e := h.row("bio").object.(*entry); !e.MultiLine {
		t.Error("long text is not multi-line")
	}
	if e := h.row("apiToken").object.(*entry); !e.Password {
		t.Error("secret field is not masked")
	}
	if !slices.ContainsFunc(test.LaidOutObjects(h.v), func(o fyne.CanvasObject) bool {
		l, ok := o.(*widget.Label)
		return ok && l.Text == secretWarning && l.Visible()
	}) {
		t.Error("no warning beside the secret field")
	}
	if _, ok := h.row("few").object.(*radios); !ok {
		t.Error("few options are not radio buttons")
	}
	if _, ok := h.row("many").object.(*choice); !ok {
		t.Error("many options are not a drop-down")
	}
	if d := h.row("day").object.(*dateEntry); d.Text != "14/02/2025" {
		t.Errorf("date default shown as %q", d.Text)
	}
	if got := h.v.m.form.Text("at"); got != "2025-02-14T09:30:00Z" {
		t.Errorf("date-time default: %q", got)
	}
	h.row("day").object.(*dateEntry).SetText("01/03/2025")
	test.Tap(h.button("Accept"))
	if got := string(h.only().Content); !strings.Contains(got, `"day":"2025-03-01"`) || !strings.Contains(got, `"at":"2025-02-14T09:30:00Z"`) {
		t.Errorf("content %s", got)
	}
}

// TestOptionalDropDownClears: an optional drop-down's first entry, Not
// chosen, takes a choice back (its default too), so the field is left out
// of what is sent, and a server's option of that title is told apart from
// it; a required drop-down has no such entry.
func TestOptionalDropDownClears(t *testing.T) {
	h := open(t, `{"type":"object","properties":{
		"country":{"type":"string","enum":["de","fr","it","es","Not chosen"],"default":"fr"},
		"size":{"type":"string","oneOf":[{"const":"s","title":"Small"},{"const":"m","title":"Medium"},{"const":"l","title":"Large"},
			{"const":"xl","title":"Huge"},{"const":"xxl","title":"Huger"}]}
	},"required":["size"]}`)
	country, size := h.row("country").object.(*choice), h.row("size").object.(*choice)
	if want := []string{notChosen, "de", "fr", "it", "es", "Not chosen (Not chosen)"}; !slices.Equal(country.Options, want) || country.Selected != "fr" {
		t.Fatalf("optional drop-down: options %q, selected %q; want %q, fr", country.Options, country.Selected, want)
	}
	if size.Options[0] != "Small" {
		t.Errorf("required drop-down: options %q", size.Options)
	}
	size.SetSelected("Huge")
	country.SetSelected(notChosen)
	if country.Selected != "" {
		t.Errorf("after Not chosen the drop-down shows %q, want its placeholder", country.Selected)
	}
	test.Tap(h.button("Accept"))
	if got := string(h.only().Content); got != `{"size":"xl"}` {
		t.Errorf("content %s, want the country left out", got)
	}
}

func TestEmptyFormIsMessageAndButtons(t *testing.T) {
	h := open(t, `{"type":"object","properties":{}}`)
	markup := test.RenderObjectToMarkup(h.v)
	for _, want := range []string{"Please answer", "Accept", "Decline", "Cancel"} {
		if !strings.Contains(markup, want) {
			t.Errorf("missing %q", want)
		}
	}
	test.Tap(h.button("Accept"))
	if got := h.only(); got.Action != forms.Accept || string(got.Content) != "{}" {
		t.Fatalf("got %+v", got)
	}
}

// TestEveryDefaultShown builds a form whose every field has a default, so
// that filling them in during construction is exercised.
func TestEveryDefaultShown(t *testing.T) {
	h := open(t, `{"type":"object","properties":{
		"b":{"type":"boolean","default":true},
		"s":{"type":"string","default":"x"},
		"n":{"type":"number","default":1.5},
		"c":{"type":"string","enum":["p","q"],"default":"q"},
		"m":{"type":"array","items":{"enum":["p","q"]},"default":["p"]},
		"d":{"type":"string","format":"date","default":"2025-02-14"},
		"t":{"type":"string","format":"date-time","default":"2025-02-14T09:30:00Z"}
	}}`)
	want := `{"b":true,"s":"x","n":1.5,"c":"q","m":["p"],"d":"2025-02-14","t":"2025-02-14T09:30:00Z"}`
	if got := string(h.v.m.form.Content()); got != want {
		t.Fatalf("content %s, want %s", got, want)
	}
	if h.v.m.dirty() {
		t.Error("building the form counted as an edit")
	}
}

// TestFreezeDisablesEverythingAndSendsNothing freezes a form, and opens
// one as a replay, which starts frozen: nothing takes input or answers,
// and the review says what it shows.
func TestFreezeDisablesEverythingAndSendsNothing(t *testing.T) {
	for _, tt := range []struct{ name, replay, review string }{
		{"frozen", "", "Nothing was sent"},
		{"replay", "What you sent then", "What you sent then"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := openWith(t, everythingSchema(t), Options{Zone: time.UTC, Dates: forms.DateStyleFor("en_GB"), Replay: tt.replay})
			if tt.replay == "" {
				h.v.Freeze()
			}
			for _, r := range h.v.rows {
				var enabled []string
				walkDisableable(r.object, func(d fyne.Disableable) {
					if !d.Disabled() {
						enabled = append(enabled, r.field.Name)
					}
				})
				if len(enabled) > 0 {
					t.Errorf("field %s still takes input", r.field.Name)
				}
			}
			if h.v.bar.Visible() {
				t.Error("the buttons still show")
			}
			// The body takes their room: no blank strip at the bottom.
			size := fyne.NewSize(760, 500)
			h.v.Resize(size)
			if bottom := h.v.body.Position().Y + h.v.body.Size().Height; bottom < size.Height-1 {
				t.Errorf("the body ends %v above the bottom, where the buttons were", size.Height-bottom)
			}
			if h.v.promise.Text != tt.review {
				t.Errorf("the review says %q, want %q", h.v.promise.Text, tt.review)
			}
			// A stale request has nothing pending: no "Not ready", nothing left out.
			if stale := tt.replay == ""; stale && (h.v.review.Text != "" || h.v.notSent.Visible()) {
				t.Errorf("a stale form's review still says %q, %q", h.v.review.Text, h.v.notSent.Text)
			}
			h.w.intercept()
			h.v.Accept()
			h.v.Decline()
			if len(h.results) != 0 {
				t.Fatalf("a frozen form answered %v", h.results)
			}
		})
	}
}

func walkDisableable(o fyne.CanvasObject, f func(fyne.Disableable)) {
	switch o := o.(type) {
	case fyne.Disableable:
		f(o)
	case *fyne.Container:
		for _, c := range o.Objects {
			walkDisableable(c, f)
		}
	}
}

// TestLongErrorMovesNothing: an error longer than its room in the labels'
// column is cut there, so the field below stays put, at any width; the
// Review says it whole.
func TestLongErrorMovesNothing(t *testing.T) {
	const schema = `{"type":"object","properties":{
		"email":{"type":"string","format":"email","title":"Email"},
		"code":{"type":"string","title":"Code","pattern":"^[A-Z]{3}-[0-9]{4}-[a-z]{2,5}(-[A-Z0-9]{8})?$"},
		"site":{"type":"string","format":"uri","title":"Website","description":"A URI."}
	},"required":["email"]}`
	for _, tt := range []struct {
		field, typed, whole string
		width               float32
	}{
		{"email", "not-an-email", "Email: Enter an email address like name@example.com", 480},
		{"email", "not-an-email", "Email: Enter an email address like name@example.com", 900},
		{"email", "not-an-email", "Email: Enter an email address like name@example.com", 1400},
		{"email", "", "Email: Required", 900},
		{"code", "x", "Code: Must match the pattern ^[A-Z]{3}-[0-9]{4}-[a-z]{2,5}(-[A-Z0-9]{8})?$", 700},
	} {
		t.Run(fmt.Sprint(tt.field, tt.typed, tt.width), func(t *testing.T) {
			h := open(t, schema)
			h.w.Resize(fyne.NewSize(tt.width, 600))
			d := fyne.CurrentApp().Driver()
			below := func() fyne.Position { return d.AbsolutePositionForObject(h.row("site").object) }
			before := below()
			test.Type(h.row(tt.field).focus, tt.typed)
			test.Tap(h.button("Accept")) // shows the errors of untouched fields too
			h.w.Content().Refresh()      // lays out again, as a window does when sizes change
			if h.errorShown(tt.field) == "" {
				t.Fatal("no error shows")
			}
			if after := below(); after != before {
				t.Errorf("the field below moved from %v to %v", before, after)
			}
			if !strings.Contains(h.v.review.Text, tt.whole) {
				t.Errorf("the Review says %q, not %q", h.v.review.Text, tt.whole)
			}
		})
	}
}
