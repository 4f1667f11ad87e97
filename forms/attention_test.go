package forms

import "testing"

func TestNeedAttention(t *testing.T) {
	for n, want := range map[int]string{1: "1 field needs attention", 2: "2 fields need attention", 0: "0 fields need attention"} {
		if got := NeedAttention(n); got != want {
			t.Errorf("%d: %q, want %q", n, got, want)
		}
	}
}

func TestNotReadyNamesFieldsByTitle(t *testing.T) {
	s, err := Parse([]byte(`{"type":"object","properties":{
		"start":{"type":"string","format":"date","title":"Start date"},
		"email":{"type":"string","format":"email","title":"Email"},
		"note":{"type":"string"},
		"n":{"type":"integer","maximum":3}
	},"required":["start","email","note"]}`))
	if err != nil {
		t.Fatal(err)
	}
	f := NewForm(s)
	f.SetText("note", "x")
	if got, want := f.NotReady(), "Not ready: 2 fields need attention — Start date: Required; Email: Required"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	f.SetText("start", "2020-12-31")
	f.SetText("n", "9")
	if got, want := f.NotReady(), "Not ready: 2 fields need attention — Email: Required; n: At most 3"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	f.SetText("email", "a@example.com")
	f.SetText("n", "2")
	if got := f.NotReady(); got != "" {
		t.Errorf("a ready form says %q", got)
	}
}

func TestNotReadyCountsPastTheNamed(t *testing.T) {
	s, err := Parse([]byte(`{"type":"object","properties":{
		"a":{"type":"string"},"b":{"type":"string"},"c":{"type":"string"},"d":{"type":"string"},
		"e":{"type":"string"},"f":{"type":"string"},"g":{"type":"string"}
	},"required":["a","b","c","d","e","f","g"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := NewForm(s).NotReady(), "Not ready: 7 fields need attention — a: Required; b: Required; c: Required; d: Required; e: Required; and 2 more"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

func TestNotSentNamesUnsetBooleans(t *testing.T) {
	f := NewForm(mustParse(t, `{"type":"object","properties":{
		"news":{"type":"boolean","title":"Newsletter"},
		"beta":{"type":"boolean"},
		"agree":{"type":"boolean"},
		"dark":{"type":"boolean","default":false}
	},"required":["agree"]}`))
	for _, tt := range []struct {
		do   func()
		want string
	}{
		{func() {}, "Not set, so not sent: Newsletter, beta"},
		{func() { f.SetChecked("news", false) }, "Not set, so not sent: beta"},
		{func() { f.SetChecked("beta", true) }, ""},
		{func() { f.ClearChecked("news") }, "Not set, so not sent: Newsletter"},
	} {
		tt.do()
		if got := f.NotSent(); got != tt.want {
			t.Errorf("NotSent %q, want %q", got, tt.want)
		}
	}
}

// TestNotReadyOfNoField: a problem the schema puts on no field of the form
// (a required name none of its properties has, behind allOf) is named,
// not left as "Not ready:" alone.
func TestNotReadyOfNoField(t *testing.T) {
	s, err := Parse([]byte(`{"type":"object","properties":{"a":{"type":"string"}},"allOf":[{"required":["zzz"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := NewForm(s).NotReady(), "Not ready: “zzz”, which the form has no field for: Required"; got != want {
		t.Errorf("NotReady = %q, want %q", got, want)
	}
}
