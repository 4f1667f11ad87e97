package formview

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/forms"
)

// longSchema has n text fields, then a radio choice, a check box and an
// optional boolean: far more than a window shows.
func longSchema(n int) string {
	var props []string
	for i := range n {
		props = append(props, fmt.Sprintf(`"f%02d":{"type":"string","title":"Field %d","default":"value %d"}`, i, i, i))
	}
	props = append(props, `"size":{"type":"string","enum":["s","m","l"]}`,
		`"agree":{"type":"boolean","title":"I agree","default":false}`,
		`"news":{"type":"boolean","title":"Newsletter"}`)
	return `{"type":"object","properties":{` + strings.Join(props, ",") + `},"required":["size"]}`
}

// shows reports whether o lies whole inside the fields' scroll as it is
// scrolled now.
func (h *harness) shows(o fyne.CanvasObject) bool {
	d := fyne.CurrentApp().Driver()
	top := d.AbsolutePositionForObject(o).Y - d.AbsolutePositionForObject(h.v.fields).Y
	return top >= 0 && top+o.Size().Height <= h.v.fields.Size().Height
}

// TestFocusScrollsIntoView goes round a form far taller than its window
// with Tab and with Shift+Tab: every field that takes the keyboard scrolls
// into sight.
func TestFocusScrollsIntoView(t *testing.T) {
	h := open(t, longSchema(30))
	h.w.Resize(fyne.NewSize(900, 400))
	c := h.w.Canvas()
	for _, step := range []struct {
		name string
		move func(fyne.Canvas)
	}{{"Tab", (fyne.Canvas).FocusNext}, {"Shift+Tab", (fyne.Canvas).FocusPrevious}} {
		seen := 0
		for range 2 * len(h.v.rows) {
			step.move(c)
			r := h.rowOf(c.Focused())
			if r == nil {
				continue // a button: always in sight
			}
			seen++
			if !h.shows(c.Focused().(fyne.CanvasObject)) {
				t.Errorf("%s: %s has the keyboard out of sight (offset %v)", step.name, r.field.Name, h.v.fields.Offset.Y)
			}
		}
		if seen < len(h.v.rows) {
			t.Errorf("%s: reached %d fields of %d", step.name, seen, len(h.v.rows))
		}
	}
	// Focus given otherwise, such as to the first invalid field, follows too.
	c.Focus(h.row("f00").focus)
	test.Tap(h.button("Accept"))
	if c.Focused() != h.row("size").focus || !h.shows(h.row("size").object) {
		t.Errorf("the first invalid field is not focused in sight")
	}
}

// rowOf returns the row whose control holds f, or nil.
func (h *harness) rowOf(f fyne.Focusable) *row {
	for i := range h.v.rows {
		if f != nil && holds(h.v.rows[i].object, f.(fyne.CanvasObject)) {
			return &h.v.rows[i]
		}
	}
	return nil
}

// TestTabStops counts Tab from the first field round to it again: one
// stop per field (a group of radio buttons is one), then each button, and
// nothing else: no stop after the last field before the buttons.
func TestTabStops(t *testing.T) {
	schema := `{"type":"object","properties":{
		"name":{"type":"string","default":"Ada"},
		"n":{"type":"integer"},
		"day":{"type":"string","format":"date"},
		"color":{"type":"string","enum":["red","green","blue"]},
		"size":{"type":"string","oneOf":[{"const":"s","title":"Small"},{"const":"l","title":"Large"}]},
		"many":{"type":"string","enum":["1","2","3","4","5","6"]},
		"agree":{"type":"boolean","default":true},
		"news":{"type":"boolean"},
		"notes":{"type":"string","maxLength":1000}
	}}`
	about := widget.NewButton("About this server", func() {})
	h := openWith(t, schema, Options{Header: about})
	c := h.w.Canvas()
	c.Focus(h.v.rows[0].focus)
	var stops []string
	for c.Focused() != h.button("Accept") && len(stops) < 50 {
		c.FocusNext()
		stops = append(stops, h.stopName(c.Focused()))
	}
	want := []string{"n", "day", "color", "size", "many", "agree", "news", "notes", "Decline", "Cancel", "Accept"}
	if strings.Join(stops, " ") != strings.Join(want, " ") {
		t.Errorf("Tab from the first field stops at\n %v\nwant\n %v", stops, want)
	}
	// The header comes before the fields, in reading order.
	c.FocusNext()
	if c.Focused() != about {
		t.Errorf("Tab from Accept goes to %s, not the header", h.stopName(c.Focused()))
	}
	c.FocusNext()
	if c.Focused() != h.v.rows[0].focus {
		t.Errorf("Tab from the header goes to %s, not the first field", h.stopName(c.Focused()))
	}
}

// stopName names a Tab stop by its field or its button.
func (h *harness) stopName(f fyne.Focusable) string {
	if r := h.rowOf(f); r != nil {
		return r.field.Name
	}
	if b, ok := f.(*button); ok {
		return b.Text
	}
	return fmt.Sprintf("%T", f)
}

// TestRadioArrows moves the choice of a radio group with the arrow keys,
// as the one Tab stop it is; Space chooses, Escape still cancels.
func TestRadioArrows(t *testing.T) {
	h := open(t, `{"type":"object","properties":{"color":{"type":"string","enum":["red","green","blue"]}},"required":["color"]}`)
	r := h.row("color").object.(*radios)
	c := h.w.Canvas()
	c.FocusNext()
	if c.Focused() != r {
		t.Fatalf("Tab goes to %T", c.Focused())
	}
	for _, step := range []struct {
		key  fyne.KeyName
		want string
	}{
		{fyne.KeyDown, "red"}, // nothing chosen: the first
		{fyne.KeyDown, "green"},
		{fyne.KeyRight, "blue"},
		{fyne.KeyDown, "red"}, // round the end
		{fyne.KeyUp, "blue"},
		{fyne.KeyLeft, "green"},
	} {
		r.TypedKey(&fyne.KeyEvent{Name: step.key})
		if got := h.v.m.form.Chosen("color"); len(got) != 1 || got[0] != step.want || r.Selected() != step.want {
			t.Errorf("after %s: chosen %v, shown %q, want %s", step.key, got, r.Selected(), step.want)
		}
	}
	r.TypedRune(' ')
	if r.Selected() != "green" {
		t.Errorf("Space on the chosen option of a required group changed it to %q", r.Selected())
	}
	test.TapAt(r, fyne.NewPos(r.item().Width*2+1, 1))
	if r.Selected() != "blue" {
		t.Errorf("a click on the third option chose %q", r.Selected())
	}
	r.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	h.overlayButton("Discard") // Escape leaves, asking first as something was chosen
}

// TestCheckLabelTicks clicks a check box's label: it ticks the box, which
// takes the keyboard, and the box sits just before the label.
func TestCheckLabelTicks(t *testing.T) {
	h := open(t, `{"type":"object","properties":{"confirm":{"type":"boolean","title":"Confirm","description":"Tick to confirm.","default":false}},"required":["confirm"]}`)
	r := h.row("confirm")
	box := r.object.(*check)
	var label *widget.Label
	var area *tapArea
	visit(r.box, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && l.Text == "Confirm" { // no "*": required, it is sent ticked or not
			label = l
		}
		if a, ok := o.(*tapArea); ok {
			area = a
		}
	})
	if label == nil || area == nil || !holds(area, label) {
		t.Fatal("the label is not in a clickable area")
	}
	for _, want := range []bool{true, false} {
		test.Tap(area)
		if box.Checked != want || h.v.m.form.Checked("confirm") != want {
			t.Errorf("a click on the label left the box %v, want %v", box.Checked, want)
		}
	}
	if h.w.Canvas().Focused() != box {
		t.Error("the box did not take the keyboard")
	}
	d := fyne.CurrentApp().Driver()
	gap := d.AbsolutePositionForObject(label).X - (d.AbsolutePositionForObject(box).X + box.Size().Width)
	if gap < 0 || gap > theme.Padding()*2 {
		t.Errorf("the label is %v from the box", gap)
	}
	box.Disable()
	test.Tap(area)
	if box.Checked {
		t.Error("a click on the label ticked a disabled box")
	}
}

// TestOptionalBooleanNotSet follows an optional boolean without a default:
// it starts Not set and is left out, as the review says, until set.
func TestOptionalBooleanNotSet(t *testing.T) {
	for _, tt := range []struct {
		name    string
		choose  int // the option clicked, or -1
		content string
		notSent string
	}{
		{"untouched", -1, `{"agree":false}`, "Not set, so not sent: Newsletter"},
		{"yes", 0, `{"news":true,"agree":false}`, ""},
		{"no", 1, `{"news":false,"agree":false}`, ""},
		{"not set again", 2, `{"agree":false}`, "Not set, so not sent: Newsletter"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := open(t, `{"type":"object","properties":{
				"news":{"type":"boolean","title":"Newsletter"},
				"agree":{"type":"boolean","title":"Agree"}
			},"required":["agree"]}`)
			r := h.row("news").object.(*radios)
			if _, ok := h.row("agree").object.(*check); !ok {
				t.Error("a required boolean is not a check box")
			}
			if strings.Join(r.options, "|") != "Yes|No|Not set" || r.Selected() != "Not set" {
				t.Fatalf("options %v, %q chosen", r.options, r.Selected())
			}
			if tt.choose >= 0 {
				r.choose(1 - tt.choose%2) // from elsewhere first, so that the click changes it
				test.TapAt(r, fyne.NewPos(r.item().Width*float32(tt.choose)+1, 1))
			}
			if got := h.v.notSent.Text; got != tt.notSent || h.v.notSent.Visible() != (tt.notSent != "") {
				t.Errorf("under the review %q (shown %v), want %q", got, h.v.notSent.Visible(), tt.notSent)
			}
			if !strings.Contains(h.v.review.Text, "agree") || strings.Contains(h.v.review.Text, "news") != (tt.notSent == "") {
				t.Errorf("review %q", h.v.review.Text)
			}
			test.Tap(h.button("Accept"))
			if got := h.only(); string(got.Content) != tt.content {
				t.Errorf("sent %s, want %s", got.Content, tt.content)
			}
		})
	}
}

// pressCtrlEnter delivers Ctrl+Enter as Fyne's desktop driver does: to
// the focused widget when it takes shortcuts, else to the window.
func (h *harness) pressCtrlEnter() {
	s := &desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierShortcutDefault}
	if f, ok := h.w.Canvas().Focused().(fyne.Shortcutable); ok {
		f.TypedShortcut(s)
		return
	}
	h.w.Canvas().(fyne.Shortcutable).TypedShortcut(s)
}

// TestMayAnswerGatesKeys presses the keys that answer in each state the
// window may be in: Enter answers only from a field, Ctrl+Enter from
// anywhere, and neither while MayAnswer says no.
func TestMayAnswerGatesKeys(t *testing.T) {
	schema := `{"type":"object","properties":{"a":{"type":"string","default":"x"},"b":{"type":"boolean","default":true},
		"c":{"type":"string","enum":["1","2"],"default":"1"}}}`
	enter := &fyne.KeyEvent{Name: fyne.KeyReturn}
	keys := []struct {
		name      string
		press     func(h *harness)
		fromField bool // answers only with a field focused
	}{
		{"Enter in a text field", func(h *harness) { h.w.Canvas().Focus(h.row("a").focus); h.row("a").focus.TypedKey(enter) }, true},
		{"Enter on a check box", func(h *harness) { h.w.Canvas().Focus(h.row("b").focus); h.row("b").focus.TypedKey(enter) }, true},
		{"Enter on radio buttons", func(h *harness) { h.w.Canvas().Focus(h.row("c").focus); h.row("c").focus.TypedKey(enter) }, true},
		{"Enter with nothing focused", func(h *harness) {
			h.w.Canvas().Unfocus()
			h.w.Canvas().(interface{ OnTypedKey() func(*fyne.KeyEvent) }).OnTypedKey()(enter)
		}, false},
		{"Ctrl+Enter in a text field", func(h *harness) { h.w.Canvas().Focus(h.row("a").focus); h.pressCtrlEnter() }, true},
		{"Ctrl+Enter on radio buttons", func(h *harness) { h.w.Canvas().Focus(h.row("c").focus); h.pressCtrlEnter() }, true},
		{"Ctrl+Enter with nothing focused", func(h *harness) { h.w.Canvas().Unfocus(); h.pressCtrlEnter() }, true},
	}
	for _, k := range keys {
		for _, may := range []string{"nil", "yes", "no"} {
			t.Run(k.name+"/MayAnswer "+may, func(t *testing.T) {
				opts := Options{}
				switch may {
				case "yes":
					opts.MayAnswer = func() bool { return true }
				case "no":
					opts.MayAnswer = func() bool { return false }
				}
				h := openWith(t, schema, opts)
				k.press(h)
				answers := k.fromField && may != "no"
				if answers != (len(h.results) == 1) {
					t.Fatalf("results %v, want an answer: %v", h.results, answers)
				}
				if answers && string(h.only().Content) != `{"a":"x","b":true,"c":"1"}` {
					t.Errorf("sent %s", h.only().Content)
				}
			})
		}
	}
}

// TestPrefilledEntered gives the keyboard to pre-filled fields: typing
// replaces a line's text, selected, and adds to the end of several lines;
// once entered, a field keeps the caret where the person left it.
func TestPrefilledEntered(t *testing.T) {
	h := open(t, `{"type":"object","properties":{
		"status":{"type":"string","default":"Ada Lovelace"},
		"count":{"type":"integer","default":12},
		"notes":{"type":"string","maxLength":1000,"default":"line one\nline two"}
	}}`)
	for name, want := range map[string]string{"status": "!", "count": "3", "notes": "line one\nline two!"} {
		f := h.row(name).focus
		h.w.Canvas().Focus(f)
		typed := "!"
		if name == "count" {
			typed = "3"
		}
		test.Type(f, typed)
		if got := h.v.m.form.Text(name); got != want {
			t.Errorf("%s holds %q, want %q", name, got, want)
		}
	}
	f := h.row("status").focus
	h.w.Canvas().Focus(h.row("count").focus)
	h.w.Canvas().Focus(f) // back to a field entered before: nothing selected
	test.Type(f, "?")
	if got := h.v.m.form.Text("status"); got != "!?" {
		t.Errorf("status holds %q, want the typing added where the caret was", got)
	}
}

// TestButtonKeys: a focused button takes Enter as it takes Space, as on
// the desktop, and passes Escape on to the form, which cancels.
func TestButtonKeys(t *testing.T) {
	for _, c := range []struct {
		key  fyne.KeyName
		want forms.Action
	}{{fyne.KeyReturn, forms.Decline}, {fyne.KeyEnter, forms.Decline}, {fyne.KeySpace, forms.Decline}, {fyne.KeyEscape, forms.Cancel}} {
		t.Run(string(c.key), func(t *testing.T) {
			h := open(t, `{"type":"object","properties":{"n":{"type":"string"}}}`)
			decline := h.button("Decline")
			h.w.Canvas().Focus(decline)
			h.w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: c.key})
			if c.key == fyne.KeySpace { // then its character, as the desktop sends it
				h.w.Canvas().Focused().TypedRune(' ')
			}
			if len(h.results) != 1 || h.results[0].Action != c.want {
				t.Errorf("%s on the focused Decline answered %+v, want %s", c.key, h.results, c.want)
			}
		})
	}
}
