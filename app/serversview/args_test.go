package serversview

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/servers"
)

// Schemas under testdata/args named form-* fit a form; json-* need the JSON editor.
func TestArgsForm(t *testing.T) {
	forEachFile(t, "args", func(file string, raw []byte) {
		// Read as the tools listed are, so the schema goes through servers.ParseTool.
		tool, err := servers.ParseTool([]byte(`{"name":"t","inputSchema":` + string(raw) + `}`))
		if err != nil {
			t.Fatal(file, err)
		}
		schema, why := argsForm(tool)
		wantForm := strings.HasPrefix(filepath.Base(file), "form-")
		if (schema != nil) != wantForm {
			t.Errorf("%s: form %v (%s), want form %v", file, schema != nil, why, wantForm)
		}
		if !wantForm && !strings.Contains(why, "#/properties/") {
			t.Errorf("%s: the reason %q names no field", file, why)
		}
	})
}

// A tool that lists no inputSchema gets the JSON editor, saying so.
func TestArgsFormWithoutSchema(t *testing.T) {
	for _, raw := range []string{`{"name":"t"}`, `{"name":"t","inputSchema":null}`} {
		tool, err := servers.ParseTool([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		if schema, why := argsForm(tool); schema != nil || !strings.Contains(why, "no inputSchema") {
			t.Errorf("%s: form %v, why %q", raw, schema != nil, why)
		}
	}
}

// The form's fields keep the order the server wrote them in.
func TestArgsFormKeepsOrder(t *testing.T) {
	raw, _ := os.ReadFile(filepath.Join("testdata", "args", "form-every-kind.json"))
	tool, err := servers.ParseTool([]byte(`{"name":"t","inputSchema":` + string(raw) + `}`))
	if err != nil {
		t.Fatal(err)
	}
	schema, _ := argsForm(tool)
	var got []string
	for _, f := range schema.Fields {
		got = append(got, f.Name)
	}
	if want := []string{"path", "limit", "ratio", "recursive", "order", "tags"}; !reflect.DeepEqual(got, want) {
		t.Errorf("fields %q, want %q", got, want)
	}
}

func TestParseArgs(t *testing.T) {
	for _, tc := range []struct {
		text string
		want map[string]any
		err  string
	}{
		{text: "{}", want: map[string]any{}},
		{text: ` { "n": 12345678901234567890, "s": "x", "l": [1, true] } `, want: map[string]any{"n": json.Number("12345678901234567890"), "s": "x", "l": []any{json.Number("1"), true}}},
		{text: "", err: "enter a JSON object, such as {}"},
		{text: "  \n", err: "enter a JSON object, such as {}"},
		{text: "[]", err: "the arguments must be a JSON object, in { }"},
		{text: "null", err: "the arguments must be a JSON object, in { }"},
		{text: "{\n  \"a\": 1,\n}", err: "line 3, column 1: invalid character '}' looking for beginning of object key string"},
		{text: "{} {}", err: "line 1, column 4: there is more after the object"},
		{text: `{"a": tru}`, err: "line 1, column 10: invalid character '}' in literal true (expecting 'e')"},
	} {
		got, err := parseArgs(tc.text)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("parseArgs(%q) error = %v, want %q", tc.text, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parseArgs(%q) = %#v, %v; want %#v", tc.text, got, err, tc.want)
		}
	}
}

func TestArgsJSONReadsBack(t *testing.T) {
	if got := argsJSON(nil); got != "{}" {
		t.Errorf("argsJSON(nil) = %q", got)
	}
	args := map[string]any{"url": "https://x.example.com/?a=1&b=<2>", "n": json.Number("3")}
	got, err := parseArgs(argsJSON(args))
	if err != nil || !reflect.DeepEqual(got, args) {
		t.Errorf("read back %#v, %v; want %#v", got, err, args)
	}
	if text := argsJSON(args); !strings.Contains(text, "&b=<2>") {
		t.Errorf("argsJSON escapes HTML: %s", text)
	}
}

func TestFillForm(t *testing.T) {
	raw, _ := os.ReadFile(filepath.Join("testdata", "args", "form-every-kind.json"))
	schema, err := forms.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	f := forms.NewForm(schema)
	if err := fillForm(f, map[string]any{"path": "/tmp", "limit": json.Number("5"), "recursive": true, "tags": []any{"a", "c"}}); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(f.Content(), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"path": "/tmp", "limit": 5.0, "recursive": true, "tags": []any{"a", "c"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("content %v, want %v", got, want)
	}
	for _, tc := range []struct {
		args map[string]any
		err  string
	}{
		{map[string]any{"nope": 1}, `the form has no field "nope"`},
		{map[string]any{"order": "up"}, "order: "},
		{map[string]any{"limit": "many"}, "limit: "},
	} {
		err := fillForm(forms.NewForm(schema), tc.args)
		if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
			t.Errorf("fillForm(%v) = %v, want %q…", tc.args, err, tc.err)
		}
	}
}
