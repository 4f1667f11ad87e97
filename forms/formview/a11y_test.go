package formview

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/elicitdesk/elicitdesk/app/a11y/a11ytest"
	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/testkit/uitest"
)

// a11yView is the form of testdata/a11y.json, one field of each kind.
func a11yView(t *testing.T) *View {
	t.Helper()
	raw, err := os.ReadFile("testdata/a11y.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := forms.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return New(forms.NewForm(s), "Please answer", Options{Zone: time.UTC, Dates: forms.DateStyleFor("en-GB")})
}

// widgetsOf is every object under o that reflect finds in the rows: the
// controls, and the calendar buttons of date entries.
func widgetsOf(v *View) []fyne.CanvasObject {
	var out []fyne.CanvasObject
	var add func(o fyne.CanvasObject)
	add = func(o fyne.CanvasObject) {
		out = append(out, o)
		if d, ok := o.(*dateEntry); ok {
			add(d.ActionItem)
		}
		if c, ok := o.(*fyne.Container); ok {
			for _, o := range c.Objects {
				add(o)
			}
		}
	}
	for _, r := range v.rows {
		add(r.object)
	}
	return out
}

// tapAreasOf is the check boxes' clickable labels, which are beside the
// rows' controls, not in them.
func tapAreasOf(v *View) []fyne.CanvasObject {
	var out []fyne.CanvasObject
	for _, r := range v.rows {
		visit(r.box, func(o fyne.CanvasObject) {
			if a, ok := o.(*tapArea); ok {
				out = append(out, a)
			}
		})
	}
	return out
}

// TestAccessible checks every custom widget of the package, as a form
// builds it, says something to a screen reader, and what.
func TestAccessible(t *testing.T) {
	test.NewTempApp(t)
	v := a11yView(t)
	// One of each of this package's widget types.
	here := reflect.TypeOf(v).Elem().PkgPath()
	seen := map[reflect.Type]bool{}
	var table []fyne.CanvasObject
	for _, o := range slices.Concat([]fyne.CanvasObject{v, v.buttons[0]}, widgetsOf(v), tapAreasOf(v)) {
		typ := reflect.TypeOf(o)
		if typ.Elem().PkgPath() == here && !seen[typ] {
			seen[typ] = true
			table = append(table, o)
		}
	}
	a11ytest.Check(t, ".", table...)

	var got []string
	for _, o := range widgetsOf(v) {
		if a, ok := o.(fyne.Accessible); ok && a.AccessibilityRole() != fyne.AccessibleRoleContainer {
			got = append(got, a.AccessibilityLabel())
		}
	}
	want := []string{
		"Name (required): “Ada”",
		"Age: “36”",
		"API token: empty",
		"Birthday: empty",
		"Calendar for Birthday",
		"Meeting, date: empty",
		"Calendar for Meeting, date",
		"Meeting, time of day: empty",
		"Newsletter: checked",
		"Colour: blue",
		"Size: M",
		"Tags, work: not checked",
		"Tags, home: not checked",
	}
	// The date-time's zone offset is a stock label, not a control.
	got = dropPrefix(got, "UTC")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("controls say\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// A check box's clickable label reads as its text; the box says its state.
	areas := tapAreasOf(v)
	if len(areas) != 1 || areas[0].(*tapArea).AccessibilityLabel() != "Newsletter\nOne email a month" {
		t.Errorf("the check box's label area says %q, want its label and hint", labels(areas))
	}

	// The view says the whole form, in the order it shows: a group of
	// options in one line, its title and what is chosen.
	label := v.AccessibilityLabel()
	order := []string{
		"Please answer",
		"Name (required): “Ada”", "What to call you",
		"API token: empty", secretWarning,
		"Newsletter: checked", "One email a month",
		"Colour: blue",
		"Size: M",
		"Tags: nothing chosen",
		forms.DeclineHelp,
		"Decline", "Cancel", v.m.words.send,
	}
	at := 0
	for _, w := range order {
		i := strings.Index(label[at:], w)
		if i < 0 {
			t.Fatalf("the view's label lacks %q after byte %d:\n%s", w, at, label)
		}
		at += i + len(w)
	}
	if strings.Contains(label, "work") {
		t.Errorf("the view's label reads an option not chosen:\n%s", label)
	}

	// Values the person types are read back; a password never is.
	v.rows[0].object.(*entry).SetText("Grace")
	v.rows[2].object.(*entry).SetText("s3cret")
	v.rows[7].object.(*radios).TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
	for _, o := range v.rows[8].object.(*fyne.Container).Objects {
		test.Tap(o.(*check))
	}
	v.Accept()
	label = v.AccessibilityLabel()
	for _, w := range []string{"Name (required): “Grace”", "API token: hidden", "Size: S", "Tags: work, home"} {
		if !strings.Contains(label, w) {
			t.Errorf("the view's label lacks %q:\n%s", w, label)
		}
	}
	if strings.Contains(label, "s3cret") {
		t.Errorf("the view's label reads a password out:\n%s", label)
	}
	if got := v.rows[8].object.(*fyne.Container).Objects[0].(*check).AccessibilityLabel(); got != "Tags, work: checked" {
		t.Errorf("a ticked option says %q, want \"Tags, work: checked\"", got)
	}
}

// labels is what each object says to a screen reader.
func labels(objects []fyne.CanvasObject) []string {
	var out []string
	for _, o := range objects {
		out = append(out, o.(fyne.Accessible).AccessibilityLabel())
	}
	return out
}

func dropPrefix(ss []string, prefix string) []string {
	var out []string
	for _, s := range ss {
		if !strings.HasPrefix(s, prefix) {
			out = append(out, s)
		}
	}
	return out
}

// TestAccessibleNoFields checks a form without fields still reads in order.
func TestAccessibleNoFields(t *testing.T) {
	test.NewTempApp(t)
	s, err := forms.Parse([]byte(`{"type":"object","properties":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	v := New(forms.NewForm(s), "Proceed?", Options{})
	label := v.AccessibilityLabel()
	if !strings.HasPrefix(label, "Proceed?\nNo fields: ") {
		t.Errorf("label = %q, want the message and then the body", label)
	}
}

// TestAccessibleHostile checks a screen reader hears no server text raw:
// every label goes through an untrusted view.
func TestAccessibleHostile(t *testing.T) {
	for _, h := range uitest.HostileStrings(t) {
		t.Run(h.Name, func(t *testing.T) {
			test.NewTempApp(t)
			s, err := forms.Parse(uitest.HostileSchema(h.Text))
			if err != nil {
				t.Fatal(err)
			}
			v := New(forms.NewForm(s), untrusted.Text(h.Text), Options{Zone: time.UTC})
			seen := []uitest.Seen{{Widget: "View accessibility label", Text: v.AccessibilityLabel()}}
			for _, o := range slices.Concat(widgetsOf(v), tapAreasOf(v)) {
				if a, ok := o.(fyne.Accessible); ok {
					seen = append(seen, uitest.Seen{Widget: reflect.TypeOf(o).String() + " accessibility label", Text: a.AccessibilityLabel()})
				}
			}
			uitest.Check(t, "form", seen)
		})
	}
}
