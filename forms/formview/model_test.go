package formview

import (
	"testing"

	"github.com/elicitdesk/elicitdesk/forms"
)

// TestLook follows a model through a person's steps, without a window:
// errors show only on touched fields until Accept is pressed, and the
// review is the JSON only when Accept would send it.
func TestLook(t *testing.T) {
	s, err := forms.Parse([]byte(`{"type":"object","properties":{
		"name":{"type":"string","title":"Name"},
		"email":{"type":"string","format":"email","title":"Email"}
	},"required":["name","email"]}`))
	if err != nil {
		t.Fatal(err)
	}
	m := newModel(forms.NewForm(s), false)
	type want struct {
		errs    [2]string
		review  string
		summary string
	}
	steps := []struct {
		name string
		do   func()
		want want
	}{
		{"untouched", func() {}, want{review: "Not ready: 2 fields need attention — Name: Required; Email: Required"}},
		{"typing a bad email", func() { m.form.SetText("email", "ada@"); m.touched[1] = true },
			want{errs: [2]string{"", "Enter an email address like name@example.com"}, review: "Not ready: 2 fields need attention — Name: Required; Email: Enter an email address like name@example.com"}},
		{"accept pressed", func() { m.attempted = true },
			want{errs: [2]string{"Required", "Enter an email address like name@example.com"}, review: "Not ready: 2 fields need attention — Name: Required; Email: Enter an email address like name@example.com", summary: "2 fields need attention."}},
		{"name filled", func() { m.form.SetText("name", "Ada"); m.touched[0] = true },
			want{errs: [2]string{"", "Enter an email address like name@example.com"}, review: "Not ready: 1 field needs attention — Email: Enter an email address like name@example.com", summary: "1 field needs attention."}},
		{"all good", func() { m.form.SetText("email", "ada@example.com") },
			want{review: "{\n  \"name\": \"Ada\",\n  \"email\": \"ada@example.com\"\n}"}},
	}
	for _, step := range steps {
		step.do()
		l := m.look()
		got := want{errs: [2]string{l.rows[0].err, l.rows[1].err}, review: l.review, summary: l.summary}
		if got != step.want {
			t.Errorf("%s:\n got %+v\nwant %+v", step.name, got, step.want)
		}
		promise := "Accept sends nothing yet"
		if step.name == "all good" {
			promise = "Accept sends exactly this JSON"
		}
		if l.ready != (step.name == "all good") || l.promise != promise {
			t.Errorf("%s: ready %v, %q", step.name, l.ready, l.promise)
		}
	}
	if !m.dirty() {
		t.Error("a form typed in is not dirty")
	}
}

// TestFrozenLook freezes a model in each state a request can go stale in:
// the review says only that nothing was sent, whatever Accept would have
// said, and nothing is summed up beside the (gone) buttons.
func TestFrozenLook(t *testing.T) {
	s, err := forms.Parse([]byte(`{"type":"object","properties":{
		"name":{"type":"string","title":"Name"},
		"news":{"type":"boolean","title":"Newsletter"}
	},"required":["name"]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		do   func(m *model)
	}{
		{"not ready", func(*model) {}},
		{"refused", func(m *model) { m.attempted = true }},
		{"ready", func(m *model) { m.form.SetText("name", "Ada") }},
	} {
		m := newModel(forms.NewForm(s), false)
		tt.do(m)
		if l := m.look(); l.review == "" || l.notSent == "" {
			t.Fatalf("%s: before freezing, review %q, not sent %q", tt.name, l.review, l.notSent)
		}
		m.done, m.frozen = true, true
		l := m.look()
		if l.promise != "Nothing was sent" || l.review != "" || l.notSent != "" || l.summary != "" || l.ready || l.buttons {
			t.Errorf("%s: frozen look %+v", tt.name, l)
		}
	}
}
