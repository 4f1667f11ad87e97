package app

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// TestHelpPaths renders Help's markdown with paths that markdown would
// change if they were plain text, and finds each path as it is.
func TestHelpPaths(t *testing.T) {
	tests := []struct {
		name, path, want string
	}{
		{"underscores", "/home/ada_b/.config/elicitdesk/servers.json", "/home/ada_b/.config/elicitdesk/servers.json"},
		{"backslashes", `C:\Users\ada\AppData\Local\elicitdesk\history.db`, `C:\Users\ada\AppData\Local\elicitdesk\history.db`},
		{"a backtick", "/home/a`b/servers.json", "/home/a`b/servers.json"},
		{"stars", "/srv/*x*/servers.json", "/srv/*x*/servers.json"},
		{"none", "", "unknown on this system"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			md := helpText(helpPaths{servers: tt.path, history: "/h.db", settings: "/p.json"})
			if got := richText(widget.NewRichTextFromMarkdown(md).Segments); !strings.Contains(got, "Servers (the list Elicit Desk starts and connects to): "+tt.want+".") {
				t.Errorf("Help does not show %q:\n%s", tt.want, got)
			}
		})
	}
}

// TestHelpWindow opens Help with F1 in the Servers window and from the
// menu: one window, offline, saying the keys and where the files are;
// Escape closes it.
func TestHelpWindow(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	var text string
	var windows int
	h.ui(func() {
		h.d.serversWin.Show()
		h.d.addAppKeys() // as after every window shown
		c := h.d.serversWin.Window().Canvas()
		c.Unfocus()
		c.OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyF1})
		for _, it := range h.d.appMenu().Items {
			if it.Label == "Help" {
				it.Action()
			}
		}
		for _, w := range h.d.fyne.Driver().AllWindows() {
			if w.Title() == "Help — Elicit Desk" {
				windows++
			}
		}
		if w := h.d.helpW; w != nil {
			for _, o := range test.LaidOutObjects(w.Content()) {
				if r, ok := o.(*widget.RichText); ok {
					text += richText(r.Segments)
				}
			}
		}
	})
	if windows != 1 {
		t.Fatalf("%d Help windows", windows)
	}
	for _, want := range []string{"Ctrl+Enter accepts", "press F6", "Ctrl+W or Escape closes", h.d.opts.ConfigPath, h.d.opts.HistoryPath} {
		if !strings.Contains(text, want) {
			t.Errorf("Help does not say %q:\n%s", want, text)
		}
	}
	h.ui(func() { h.d.helpW.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape}) })
	if h.d.helpW != nil {
		t.Error("Escape left Help open")
	}
}

// richText is the text of segments, lists' and paragraphs' included,
// which RichText.String leaves out.
func richText(segs []widget.RichTextSegment) string {
	var b strings.Builder
	for _, s := range segs {
		switch s := s.(type) {
		case *widget.ListSegment:
			b.WriteString(richText(s.Items))
		case *widget.ParagraphSegment:
			b.WriteString(richText(s.Texts))
		default:
			b.WriteString(s.Textual())
		}
	}
	return b.String()
}

// TestF1FromTextFields opens Help with F1 typed in a request form's field
// and in the Add server dialog's name, where a focused entry gets every
// key, and the menu shows F1 beside Help.
func TestF1FromTextFields(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	h.askForm(context.Background(), "shop", "Your name?")
	r := h.request(0)
	f1 := &fyne.KeyEvent{Name: fyne.KeyF1}
	helpOpen := func(where string, c fyne.Canvas) {
		t.Helper()
		f := c.Focused()
		if f == nil {
			t.Errorf("%s: no field has the keyboard", where)
			return
		}
		f.TypedKey(f1)
		if h.d.helpW == nil {
			t.Errorf("%s: F1 did not open Help (focus on %T)", where, f)
			return
		}
		h.d.helpW.Close()
	}
	h.ui(func() {
		helpOpen("a request's field", r.win.(*formWindow).w.Canvas())
		h.d.serversWin.AddServer()
		h.d.addAppKeys() // as after every window shown
		helpOpen("Add server's name", h.d.serversWin.Window().Canvas())

		// F1 stays with the window once the dialog it was added under
		// closes (Escape, with nothing focused).
		c := h.d.serversWin.Window().Canvas()
		c.Unfocus()
		c.OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
		if c.Overlays().Top() != nil {
			t.Error("Escape left Add server open")
		}
		c.OnTypedKey()(f1)
		if h.d.helpW == nil {
			t.Error("F1 in Servers opens no Help once the dialog it was added under closed")
		} else {
			h.d.helpW.Close()
		}

		menu := widget.NewMenu(h.d.appMenu())
		test.NewTempWindow(t, menu)
		var shown bool
		for _, o := range test.LaidOutObjects(menu) {
			if x, ok := o.(*canvas.Text); ok && x.Text == "F1" && x.Visible() {
				shown = true
			}
		}
		if !shown {
			t.Error("the menu shows no F1")
		}
	})
}
