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
	if got, want := f.NotReady(), "Not ready: 2 fields need attention — Start date, Email"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	f.SetText("start", "2020-12-31")
	f.SetText("n", "9")
	if got, want := f.NotReady(), "Not ready: 2 fields need attention — Email, n"; got != want {
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
	if got, want := NewForm(s).NotReady(), "Not ready: 7 fields need attention — a, b, c, d, e, and 2 more"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}
