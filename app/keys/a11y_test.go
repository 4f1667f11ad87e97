package keys

import (
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/elicitdesk/elicitdesk/app/a11y/a11ytest"
)

// TestAccessible checks an Entry says what it searches and what it holds.
func TestAccessible(t *testing.T) {
	tests := []struct {
		name        string
		search      bool // the window's search, for Ctrl+F
		placeholder string
		typed       string
		want        string
	}{
		{"placeholder, empty", true, "Search messages and servers", "", "Search messages and servers: empty"},
		{"placeholder, typed", true, "Search messages and servers", "disk", "Search messages and servers: “disk”"},
		{"search without placeholder", true, "", "disk", "Search: “disk”"},
		{"not a search", false, "", "", "Text field: empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			test.NewTempApp(t)
			w := test.NewTempWindow(t, nil)
			k := Close(w, func() {})
			e := k.NewEntry()
			if tt.search {
				k.Find(e)
			}
			e.SetPlaceHolder(tt.placeholder)
			w.SetContent(e)
			test.Type(e, tt.typed)
			a11ytest.Check(t, ".", e, k.NewCheck("Notifications", nil), k.NewSelect([]string{"Light"}, nil))
			if got := e.AccessibilityLabel(); got != tt.want {
				t.Errorf("label = %q, want %q", got, tt.want)
			}
		})
	}
}
