package signin

import (
	"encoding/json"
	"net/http"
	"os"
	"testing"
)

func TestParseChallenge(t *testing.T) {
	b, err := os.ReadFile("testdata/challenges.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Header string
		Want   Challenge
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		h := http.Header{}
		h.Set("WWW-Authenticate", c.Header)
		if got := ParseChallenge(h); got != c.Want {
			t.Errorf("%s\n got %+v\nwant %+v", c.Header, got, c.Want)
		}
	}
}

// FuzzParseChallenge: any header a server sends parses without panic or
// endless loop, and a value never holds more than the header did.
func FuzzParseChallenge(f *testing.F) {
	b, _ := os.ReadFile("testdata/challenges.json")
	var cases []struct{ Header string }
	json.Unmarshal(b, &cases)
	for _, c := range cases {
		f.Add(c.Header)
	}
	f.Fuzz(func(t *testing.T, v string) {
		h := http.Header{}
		h.Set("WWW-Authenticate", v)
		c := ParseChallenge(h)
		if len(c.ResourceMetadata)+len(c.Scope)+len(c.Error) > len(v) {
			t.Errorf("%q gave %+v", v, c)
		}
	})
}
