package forms

import (
	"errors"
	"strings"
	"time"
)

// DateStyle is how a person's locale writes a date: the order of day, month
// and year and what separates them, as a Go layout with a four-digit year
// ("01/02/2006" for en_US). Dates are shown and typed this way and always
// sent as ISO 8601; ISO is accepted as typed input in every style.
type DateStyle struct {
	layout string
}

// ISODates is the style for a locale without a known pattern: 2025-12-31.
var ISODates = DateStyle{layout: time.DateOnly}

// The three orders CLDR's short date patterns use, with their separators.
const (
	mdySlash = "01/02/2006"
	dmySlash = "02/01/2006"
	dmyDot   = "02.01.2006"
	dmyDash  = "02-01-2006"
	ymdSlash = "2006/01/02"
)

// dateLayouts maps a language, or language_REGION where the region differs
// from its language, to the order of CLDR's short date pattern (with the
// year always written in full). A locale not listed writes ISO dates.
var dateLayouts = map[string]string{
	"en": dmySlash, "en_US": mdySlash, "en_PH": mdySlash, "en_CA": time.DateOnly, "en_ZA": ymdSlash,
	"fr": dmySlash, "fr_CA": time.DateOnly, "fr_CH": dmyDot,
	"de": dmyDot, "es": dmySlash, "it": dmySlash, "pt": dmySlash, "el": dmySlash, "ca": dmySlash,
	"nl": dmyDash, "nl_BE": dmySlash, "da": dmyDot, "nb": dmyDot, "nn": dmyDot, "no": dmyDot,
	"fi": dmyDot, "pl": dmyDot, "cs": dmyDot, "sk": dmyDot, "ru": dmyDot, "uk": dmyDot, "tr": dmyDot,
	"ro": dmyDot, "hr": dmyDot, "sl": dmyDot, "sr": dmyDot, "bg": dmyDot, "et": dmyDot, "lv": dmyDot,
	"id": dmySlash, "vi": dmySlash, "ms": dmySlash, "he": dmyDot, "ar": dmySlash, "hi": dmySlash,
	"ja": ymdSlash, "zh": ymdSlash, "zh_TW": ymdSlash, "sv": time.DateOnly, "lt": time.DateOnly,
}

// DateStyleFor returns the date style of a POSIX locale name such as
// "en_US.UTF-8", "de_DE@euro" or "fr"; "C", "POSIX", "" and unknown
// locales give ISODates.
func DateStyleFor(locale string) DateStyle {
	name, _, _ := strings.Cut(locale, ".")
	name, _, _ = strings.Cut(name, "@")
	name = strings.ReplaceAll(name, "-", "_")
	lang, region, _ := strings.Cut(name, "_")
	lang = strings.ToLower(lang)
	if l, ok := dateLayouts[lang+"_"+strings.ToUpper(region)]; ok {
		return DateStyle{layout: l}
	}
	if l, ok := dateLayouts[lang]; ok {
		return DateStyle{layout: l}
	}
	return ISODates
}

// LocaleOf returns the locale that governs how dates are written, from
// the environment getenv reads, as POSIX decides it: LC_ALL, then
// LC_TIME, then LANG.
func LocaleOf(getenv func(string) string) string {
	for _, name := range []string{"LC_ALL", "LC_TIME", "LANG"} {
		if v := getenv(name); v != "" {
			return v
		}
	}
	return ""
}

// Format writes a date in this style.
func (d DateStyle) Format(t time.Time) string { return t.Format(d.layoutOrISO()) }

// Pattern is the style spelled out for a person: "MM/DD/YYYY".
func (d DateStyle) Pattern() string {
	return strings.NewReplacer("2006", "YYYY", "01", "MM", "02", "DD").Replace(d.layoutOrISO())
}

// Parse reads a date typed in this style or as ISO 8601. Single-digit
// days and months are accepted, as people type them (1/2/2025).
func (d DateStyle) Parse(text string) (time.Time, bool) {
	t, invalid := d.parse(text)
	return t, invalid == ""
}

// parse is Parse with what to tell the person when text is no date: a
// day its month does not have, or else how to type one (a month out of
// range is most often the day and month swapped).
func (d DateStyle) parse(text string) (time.Time, string) {
	text = strings.TrimSpace(text)
	loose := strings.NewReplacer("01", "1", "02", "2").Replace(d.layoutOrISO())
	invalid := d.dateHint()
	for _, layout := range []string{d.layoutOrISO(), loose, time.DateOnly} {
		t, err := time.Parse(layout, text)
		var pe *time.ParseError
		switch {
		case err == nil:
			return t, ""
		case errors.As(err, &pe) && strings.HasSuffix(pe.Message, "day out of range"): // written right, as 02/30/2025
			invalid = "That month has no such day"
		}
	}
	return time.Time{}, invalid
}

// DateValue is a typed date as the ISO text to send, or, when it is not a
// date yet, what to tell the person.
func (d DateStyle) DateValue(text string) (iso, invalid string) {
	if strings.TrimSpace(text) == "" {
		return "", ""
	}
	t, invalid := d.parse(text)
	if invalid != "" {
		return "", invalid
	}
	return t.Format(time.DateOnly), ""
}

// dateHint tells the person how to type a date.
func (d DateStyle) dateHint() string { return "Enter a date as " + d.Pattern() }

// DateTimeValue joins a typed date and time of day, in zone, into the
// RFC 3339 text to send; or, when they do not make one yet, says what is
// missing. Both empty is no value at all.
func (d DateStyle) DateTimeValue(date, clock string, zone *time.Location) (rfc3339, invalid string) {
	date, clock = strings.TrimSpace(date), strings.TrimSpace(clock)
	if date == "" && clock == "" {
		return "", ""
	}
	day, invalid := d.parse(date)
	if invalid != "" {
		return "", invalid
	}
	for _, layout := range clockLayouts {
		if c, err := time.ParseInLocation(layout, clock, zone); err == nil {
			y, m, dd := day.Date()
			return time.Date(y, m, dd, c.Hour(), c.Minute(), c.Second(), 0, zone).Format(time.RFC3339), ""
		}
	}
	return "", "Enter a time like 09:30"
}

// clockLayouts are the time-of-day spellings a person may type.
var clockLayouts = []string{"15:04", "15:04:05", "3:04 PM", "3:04PM", "3:04 pm", "3:04pm"}

func (d DateStyle) layoutOrISO() string {
	if d.layout == "" {
		return time.DateOnly
	}
	return d.layout
}
