package forms

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDateStyleFor reads testdata/dates/locales.json: for each locale, the
// pattern a person is told, how a date is shown, what typing is accepted
// (always sent as ISO) and what is refused.
func TestDateStyleFor(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "dates", "locales.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Locale, Pattern, Shown string
		Typed, Refused         []string
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	day := time.Date(2020, 12, 31, 0, 0, 0, 0, time.UTC)
	for _, c := range cases {
		t.Run(c.Locale, func(t *testing.T) {
			d := DateStyleFor(c.Locale)
			if got := d.Pattern(); got != c.Pattern {
				t.Errorf("pattern %q, want %q", got, c.Pattern)
			}
			if got := d.Format(day); got != c.Shown {
				t.Errorf("shown %q, want %q", got, c.Shown)
			}
			for _, typed := range c.Typed {
				if iso, invalid := d.DateValue(typed); iso != "2020-12-31" || invalid != "" {
					t.Errorf("%q gives %q %q", typed, iso, invalid)
				}
			}
			for _, typed := range c.Refused {
				if iso, invalid := d.DateValue(typed); iso != "" || !strings.Contains(invalid, c.Pattern) {
					t.Errorf("%q gives %q %q, want a hint with %s", typed, iso, invalid, c.Pattern)
				}
			}
		})
	}
}

func TestLocaleOf(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"LANG": "en_US.UTF-8"}, "en_US.UTF-8"},
		{map[string]string{"LANG": "en_US.UTF-8", "LC_TIME": "de_DE.UTF-8"}, "de_DE.UTF-8"},
		{map[string]string{"LANG": "en_US.UTF-8", "LC_TIME": "de_DE.UTF-8", "LC_ALL": "fr_FR"}, "fr_FR"},
		{map[string]string{}, ""},
	}
	for _, tt := range tests {
		if got := LocaleOf(func(k string) string { return tt.env[k] }); got != tt.want {
			t.Errorf("%v: %q, want %q", tt.env, got, tt.want)
		}
	}
}

// TestDateValueSaysWhy: a date written the right way that no calendar has
// is told so, not told how to write a date.
func TestDateValueSaysWhy(t *testing.T) {
	us := DateStyleFor("en_US")
	for _, tt := range []struct{ typed, invalid string }{
		{"02/30/2025", "That month has no such day"},
		{"2/29/2025", "That month has no such day"},
		{"2025-02-30", "That month has no such day"},
		{"13/01/2025", "Enter a date as MM/DD/YYYY"}, // the day and month swapped, most likely
		{"2025/02/14", "Enter a date as MM/DD/YYYY"},
	} {
		if iso, invalid := us.DateValue(tt.typed); iso != "" || invalid != tt.invalid {
			t.Errorf("%q: %q %q, want %q", tt.typed, iso, invalid, tt.invalid)
		}
	}
	if _, invalid := us.DateTimeValue("02/30/2025", "09:30", time.UTC); invalid != "That month has no such day" {
		t.Errorf("with a time: %q", invalid)
	}
}

func TestDateTimeValue(t *testing.T) {
	zone := time.FixedZone("CET", 3600)
	us := DateStyleFor("en_US")
	tests := []struct {
		date, clock, want, invalid string
	}{
		{"", "", "", ""},
		{"12/31/2020", "09:30", "2020-12-31T09:30:00+01:00", ""},
		{"2020-12-31", "9:30 PM", "2020-12-31T21:30:00+01:00", ""},
		{"12/31/2020", "", "", "Enter a time like 09:30"},
		{"31/12/2020", "09:30", "", "Enter a date as MM/DD/YYYY"},
		{"", "09:30", "", "Enter a date as MM/DD/YYYY"},
	}
	for _, tt := range tests {
		got, invalid := us.DateTimeValue(tt.date, tt.clock, zone)
		if got != tt.want || invalid != tt.invalid {
			t.Errorf("%q %q: %q %q, want %q %q", tt.date, tt.clock, got, invalid, tt.want, tt.invalid)
		}
	}
}

// FuzzDateValue checks that whatever is typed, a date either gives ISO
// text that the spec's format check accepts and that reads back as the
// same day, or a hint and no value.
func FuzzDateValue(f *testing.F) {
	for _, s := range []string{"12/31/2020", "31.12.2020", "2020-12-31", "1/2/2025", "", "2020-02-30", "99/99/9999"} {
		f.Add("en_US", s)
		f.Add("de_DE", s)
	}
	f.Fuzz(func(t *testing.T, locale, typed string) {
		d := DateStyleFor(locale)
		iso, invalid := d.DateValue(typed)
		if (iso == "") == (invalid == "") && strings.TrimSpace(typed) != "" {
			t.Fatalf("%q: value %q and hint %q", typed, iso, invalid)
		}
		if iso == "" {
			return
		}
		if !validFormat(FormatDate, iso) {
			t.Fatalf("%q gives %q, not a spec date", typed, iso)
		}
		if back, _ := d.DateValue(d.Format(mustDate(t, iso))); back != iso {
			t.Fatalf("%q gives %q, shown and read back as %q", typed, iso, back)
		}
	})
}

func mustDate(t *testing.T, iso string) time.Time {
	day, err := time.Parse(time.DateOnly, iso)
	if err != nil {
		t.Fatal(err)
	}
	return day
}
