package history

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSecretsStoredRedacted stores an answer whose secret fields are named
// or described in ways forms.Field.Secret learnt to see through, and checks
// that no secret value reaches the database file, Get or the JSON export.
func TestSecretsStoredRedacted(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	e := fixtures()[4]
	e.Schema = json.RawMessage(`{"type":"object","properties":{
		"note":{"type":"string"},
		"newpassword":{"type":"string"},
		"cyrillic":{"type":"string","title":"\u0420\u0430ssword"},
		"hidden":{"type":"string","title":"Pass\u200bword"},
		"x":{"type":"string","description":"Enter your password here"},
		"code":{"type":"string","title":"2FA code"},
		"authtoken":{"type":"string"}}}`)
	secrets := []string{"s3cret-one", "s3cret-two", "s3cret-three", "s3cret-four", "s3cret-five", "s3cret-six"}
	e.Content = json.RawMessage(`{"note":"kept","newpassword":"s3cret-one","cyrillic":"s3cret-two","hidden":"s3cret-three",` +
		`"x":"s3cret-four","code":"s3cret-five","authtoken":"s3cret-six"}`)
	id, err := s.Add(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"note":"kept","newpassword":"[redacted]","cyrillic":"[redacted]","hidden":"[redacted]",` +
		`"x":"[redacted]","code":"[redacted]","authtoken":"[redacted]"}`
	if string(got.Content) != want {
		t.Errorf("stored content %s\nwant %s", got.Content, want)
	}
	var export bytes.Buffer
	if err := s.Export(ctx, &export, Query{}); err != nil {
		t.Fatal(err)
	}
	path := s.Path()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(path + "*") // the database and any WAL beside it
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range secrets {
			if bytes.Contains(raw, []byte(secret)) {
				t.Errorf("%s holds %q in clear", filepath.Base(f), secret)
			}
			if bytes.Contains(export.Bytes(), []byte(secret)) {
				t.Errorf("the export holds %q in clear", secret)
			}
		}
	}
	if len(files) == 0 {
		t.Fatalf("no database file at %s", path)
	}
}

// historyOutputs stores e and returns everything History gives of it: the
// entry as Get and Search return it (what the app's detail and replay show),
// its request as replay sends it, the JSON export (`history -json`) and the
// database files themselves.
func historyOutputs(t *testing.T, e Entry) map[string][]byte {
	t.Helper()
	s := newStore(t)
	ctx := context.Background()
	id, err := s.Add(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	found, err := s.Search(ctx, Query{})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 {
		t.Fatalf("Search found %d entries, want 1", len(found))
	}
	var export bytes.Buffer
	if err := s.Export(ctx, &export, Query{}); err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{
		"Get schema":    got.Schema,
		"Search schema": found[0].Schema,
		"Get content":   got.Content,
		"Request":       got.Request(),
		"export":        export.Bytes(),
	}
	path := s.Path()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(path + "*") // the database and any WAL beside it
	if len(files) == 0 {
		t.Fatalf("no database file at %s", path)
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = raw
	}
	return out
}

// TestSecretDefaultsRedacted runs testdata/secret_defaults.json: a secret
// field's default, which a person accepting it sends as the value, is
// redacted in the stored schema as the value is in the content, in every
// output of History; ordinary defaults are kept.
func TestSecretDefaultsRedacted(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "secret_defaults.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name            string
		Outcome         Outcome
		Schema, Content json.RawMessage
		Secrets, Kept   []string
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	absent, total := 0, 0
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			e := fixtures()[0]
			e.Schema, e.Content, e.Outcome = tt.Schema, tt.Content, tt.Outcome
			if e.Outcome == "" {
				e.Outcome = Accepted
			}
			outputs := historyOutputs(t, e)
			for _, secret := range tt.Secrets {
				total++
				leaked := false
				for where, out := range outputs {
					if bytes.Contains(out, []byte(secret)) {
						t.Errorf("%s holds %q in clear", where, secret)
						leaked = true
					}
				}
				if !leaked {
					absent++
				}
			}
			for _, kept := range tt.Kept {
				if !bytes.Contains(outputs["Get schema"], []byte(kept)) {
					t.Errorf("the stored schema %s lost %q", outputs["Get schema"], kept)
				}
			}
			if !json.Valid(outputs["Get schema"]) {
				t.Errorf("the stored schema %s is not JSON", outputs["Get schema"])
			}
		})
	}
	t.Logf("%d of %d secret defaults absent from every History output", absent, total)
}

// TestCorpusSecretDefaultsRedacted gives every secret field of the forms
// corpus (forms/testdata/secrets.json) a default that the person accepted,
// and checks that no such value survives in History's stored schema or its
// JSON export.
func TestCorpusSecretDefaultsRedacted(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "forms", "testdata", "secrets.json"))
	if err != nil {
		t.Fatal(err)
	}
	var corpus []struct {
		Name, Title, Description string
		Secret                   bool
	}
	if err := json.Unmarshal(raw, &corpus); err != nil {
		t.Fatal(err)
	}
	type field struct {
		Type        string `json:"type"`
		Title       string `json:"title,omitempty"`
		Description string `json:"description,omitempty"`
		Default     string `json:"default"`
	}
	var secrets []string
	var entries []Entry
	for i, c := range corpus {
		if !c.Secret {
			continue
		}
		value := fmt.Sprintf("corpus-default-%03d", i)
		schema, _ := json.Marshal(map[string]any{"type": "object", "properties": map[string]field{
			c.Name: {Type: "string", Title: c.Title, Description: c.Description, Default: value}}})
		content, _ := json.Marshal(map[string]string{c.Name: value})
		e := fixtures()[0]
		e.Schema, e.Content, e.Outcome = schema, content, Accepted
		e.Received = e.Received.Add(time.Duration(i) * time.Second)
		entries = append(entries, e)
		secrets = append(secrets, value)
	}
	s := newStore(t)
	ctx := context.Background()
	if _, err := s.addAll(ctx, entries); err != nil {
		t.Fatal(err)
	}
	var export bytes.Buffer
	if err := s.Export(ctx, &export, Query{}); err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(export.Bytes(), []byte("\n")); n != len(entries) {
		t.Fatalf("the export has %d lines, want %d", n, len(entries))
	}
	absent := 0
	for _, secret := range secrets {
		if bytes.Contains(export.Bytes(), []byte(secret)) {
			t.Errorf("the export holds %q in clear", secret)
		} else {
			absent++
		}
	}
	t.Logf("%d of %d corpus secret defaults absent from the export", absent, len(secrets))
}

// TestCutSchemaSecretDefault: a schema too large to keep whole loses its
// secret default before it is cut, so neither the kept prefix nor anything
// else holds it.
func TestCutSchemaSecretDefault(t *testing.T) {
	filler := strings.Repeat("x", MaxSchemaBytes)
	e := fixtures()[0]
	e.Outcome = Accepted
	e.Schema = json.RawMessage(`{"type":"object","properties":{"password":{"type":"string","default":"dflt-cut-secret"},` +
		`"note":{"type":"string","description":"` + filler + `"}}}`)
	e.Content = json.RawMessage(`{"password":"dflt-cut-secret","note":"n"}`)
	for where, out := range historyOutputs(t, e) {
		if bytes.Contains(out, []byte("dflt-cut-secret")) {
			t.Errorf("%s holds the secret default in clear", where)
		}
	}
	if got := Shorten(e); got.Cut == nil {
		t.Fatal("the schema was not cut; the test needs a larger one")
	}
}
