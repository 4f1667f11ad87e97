package forms

import "fmt"

// Messages for problems that belong to no single keyword.
const (
	msgRequired = "Required"
	msgUnknown  = "Not a field of this form"
)

// FieldErrors maps each invalid field's name to what is wrong with it.
type FieldErrors map[string]string

// Validate checks content, a JSON object as encoding/json decodes it, against
// the schema: every required field present, every value right for its field,
// and no field the schema does not name.
func (s *Schema) Validate(content map[string]any) FieldErrors {
	errs := FieldErrors{}
	for i := range s.Fields {
		f := &s.Fields[i]
		v, ok := content[f.Name]
		if !ok {
			if f.Required {
				errs[f.Name] = msgRequired
			}
			continue
		}
		if msg := f.Check(v); msg != "" {
			errs[f.Name] = msg
		}
	}
	for name := range content {
		if s.Field(name) == nil {
			errs[name] = msgUnknown
		}
	}
	return errs
}

// ValidateJSON is Validate for raw JSON content. The error reports content
// that is not a JSON object or that names a field twice.
func (s *Schema) ValidateJSON(raw []byte) (FieldErrors, error) {
	n, problems, err := decodeTree(raw)
	if err != nil {
		return nil, err
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("content %s: %s", problems[0].path, problems[0].msg)
	}
	if n.kind != objectNode {
		return nil, fmt.Errorf("content must be a JSON object, not %s", article(n.kind))
	}
	return s.Validate(n.value().(map[string]any)), nil
}
