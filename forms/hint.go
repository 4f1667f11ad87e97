package forms

// Placeholder is the grey hint an empty input shows: an example of the
// expected shape, or the allowed range of a number. Dates have none here:
// their shape is the person's locale's (DateStyle.Pattern).
func (f *Field) Placeholder() string {
	switch f.Kind {
	case Number, Integer:
		switch {
		case f.Minimum != nil && f.Maximum != nil:
			return "from " + f.Minimum.String() + " to " + f.Maximum.String()
		case f.Minimum != nil:
			return f.Minimum.String() + " or more"
		case f.Maximum != nil:
			return f.Maximum.String() + " or less"
		case f.Kind == Integer:
			return "a whole number"
		}
		return "a number"
	case Text:
		switch f.Format {
		case FormatEmail:
			return "name@example.com"
		case FormatURI:
			return "https://example.com"
		}
	}
	return ""
}
