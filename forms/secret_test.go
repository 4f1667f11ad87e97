package forms

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// secretCase is one field of testdata/secrets.json and whether it asks for
// a secret.
type secretCase struct {
	Name        string `json:"name"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Secret      bool   `json:"secret"`
}

func readSecretCases(tb testing.TB) []secretCase {
	raw, err := os.ReadFile(filepath.Join("testdata", "secrets.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var cases []secretCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		tb.Fatal(err)
	}
	return cases
}

// TestSecret runs the corpus of testdata/secrets.json: credentials however
// spelt are secret, ordinary fields that merely share letters are not.
func TestSecret(t *testing.T) {
	cases := readSecretCases(t)
	var secret, ordinary int
	for _, tt := range cases {
		f := Field{Name: tt.Name, Title: untrusted.Text(tt.Title), Description: untrusted.Text(tt.Description)}
		if got := f.Secret(); got != tt.Secret {
			t.Errorf("Secret(name %q, title %q, description %q) = %v, want %v", tt.Name, tt.Title, tt.Description, got, tt.Secret)
		}
		if tt.Secret {
			secret++
		} else {
			ordinary++
		}
	}
	if secret < 60 || ordinary < 60 {
		t.Errorf("the corpus has %d secret and %d ordinary cases; keep at least 60 of each", secret, ordinary)
	}
}

func TestSplitWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"apiKey", []string{"api", "key"}},
		{"\u0261ate \u0251\u0585\u043a", []string{"gate", "aok"}},
		{"APIKey", []string{"api", "key"}},
		{"api_key", []string{"api", "key"}},
		{"API-key", []string{"api", "key"}},
		{"password2", []string{"password", "2"}},
		{"2FA code", []string{"2", "fa", "code"}},
		{"Pass\u200bword", []string{"password"}},
		{"\u0420\u0430ssword", []string{"password"}},
		{"ＡＰＩ　ｋｅｙ", []string{"api", "key"}},
		{"पासवर्ड", []string{"पासवर्ड"}},
	}
	for _, tt := range tests {
		got := splitWords(tt.in)
		if len(got) != len(tt.want) {
			t.Errorf("splitWords(%q) = %q, want %q", tt.in, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("splitWords(%q) = %q, want %q", tt.in, got, tt.want)
				break
			}
		}
	}
}

// FuzzSecret checks that Secret never panics and that hiding characters
// between a secret word's letters never hides it.
func FuzzSecret(f *testing.F) {
	for _, c := range readSecretCases(f) {
		f.Add(c.Name, c.Title)
	}
	f.Fuzz(func(t *testing.T, name, title string) {
		(&Field{Name: name, Title: untrusted.Text(title)}).Secret()
		hidden := Field{Name: name + "_pass\u200bw\u2060ord"}
		if !hidden.Secret() {
			t.Errorf("%q not secret", hidden.Name)
		}
	})
}
