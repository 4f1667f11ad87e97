package history

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
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
