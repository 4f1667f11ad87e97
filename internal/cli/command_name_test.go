package cli

import (
	"encoding/json"
	"os"
	"testing"
)

func TestCommandName(t *testing.T) {
	data, err := os.ReadFile(cli("command-names.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Argv []string
		Dir  string // where it runs, when the case says
		Name string
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if got := commandName(c.Argv, c.Dir); got != c.Name {
			t.Errorf("%q in %q: %q, want %q", c.Argv, c.Dir, got, c.Name)
		}
	}
}
