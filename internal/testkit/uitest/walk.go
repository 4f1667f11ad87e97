// Package uitest checks what a window shows a person. Its walker reads
// every text a Fyne canvas object tree can show, rendered or not yet
// (drop-down options, placeholders, menus), so a test can prove that no
// server-written character that hides or reorders text reaches the screen.
// It needs no display: the objects come from fyne.io/fyne/v2/test.
package uitest

import (
	"fmt"
	"reflect"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// Seen is one text a person can see, and where it is.
type Seen struct {
	Widget string // the object's type and which of its texts, "*widget.Select option"
	Text   string
}

// Texts collects every text in o and below it, hidden objects included:
// what is hidden now may show later.
func Texts(o fyne.CanvasObject) []Seen {
	var out []Seen
	walk(o, &out)
	return out
}

// WindowTexts is Texts of a window's content and overlays (pop-ups,
// dialogs), its title and its main menu.
func WindowTexts(w fyne.Window) []Seen {
	out := []Seen{{"window title", w.Title()}}
	if w.Content() != nil {
		walk(w.Content(), &out)
	}
	for _, o := range w.Canvas().Overlays().List() {
		walk(o, &out)
	}
	if m := w.MainMenu(); m != nil {
		for _, menu := range m.Items {
			out = append(out, MenuTexts(menu)...)
		}
	}
	return out
}

// MenuTexts is the label of a menu and of every item in it, submenus too.
func MenuTexts(m *fyne.Menu) []Seen {
	out := []Seen{{"menu label", m.Label}}
	for _, it := range m.Items {
		out = append(out, Seen{"menu item", it.Label})
		if it.ChildMenu != nil {
			out = append(out, MenuTexts(it.ChildMenu)...)
		}
	}
	return out
}

func walk(o fyne.CanvasObject, out *[]Seen) {
	if o == nil || reflect.ValueOf(o).IsNil() {
		return
	}
	kind := fmt.Sprintf("%T", o)
	add := func(which string, texts ...string) {
		for _, t := range texts {
			*out = append(*out, Seen{kind + " " + which, t})
		}
	}
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			walk(c, out)
		}
		return
	case *canvas.Text:
		add("text", x.Text)
		return
	}
	// A widget's own fields first: some texts are not rendered until the
	// person acts (a drop-down's options), and a type that embeds a widget
	// is matched through the embedded one.
	for _, w := range embedded(o) {
		switch x := w.(type) {
		case *widget.Label:
			add("text", x.Text)
		case *widget.RichText:
			for _, s := range x.Segments {
				if t, ok := s.(interface{ Textual() string }); ok {
					add("segment", t.Textual())
				}
				if h, ok := s.(*widget.HyperlinkSegment); ok && h.URL != nil {
					add("link", h.URL.String())
				}
			}
		case *widget.Entry:
			add("text", x.Text)
			add("placeholder", x.PlaceHolder)
		case *widget.Select:
			add("option", x.Options...)
			add("selected", x.Selected)
			add("placeholder", x.PlaceHolder)
		case *widget.SelectEntry:
			add("text", x.Text)
		case *widget.RadioGroup:
			add("option", x.Options...)
			add("selected", x.Selected)
		case *widget.CheckGroup:
			add("option", x.Options...)
			add("selected", x.Selected...)
		case *widget.Check:
			add("text", x.Text)
		case *widget.Button:
			add("text", x.Text)
		case *widget.Card:
			add("title", x.Title)
			add("subtitle", x.Subtitle)
			walk(x.Content, out)
		case *widget.Hyperlink:
			add("text", x.Text)
			if x.URL != nil {
				add("link", x.URL.String())
			}
		case *widget.Form:
			for _, it := range x.Items {
				add("item", it.Text, it.HintText)
				walk(it.Widget, out)
			}
		}
	}
	// Then what it renders now: labels inside rows, list items, the texts
	// a widget draws itself.
	if w, ok := o.(fyne.Widget); ok {
		for _, c := range test.WidgetRenderer(w).Objects() {
			walk(c, out)
		}
	}
}

// Button is the button o is, or embeds (a form's buttons are Fyne's with
// keys of their own), and whether it is one.
func Button(o fyne.CanvasObject) (*widget.Button, bool) {
	for _, w := range embedded(o) {
		if b, ok := w.(*widget.Button); ok {
			return b, true
		}
	}
	return nil, false
}

// embedded is o and the Fyne widgets embedded in its struct, so that an
// app's own entry type is read as the widget.Entry it extends.
func embedded(o fyne.CanvasObject) []any {
	found := []any{o}
	v := reflect.ValueOf(o)
	for v.Kind() == reflect.Pointer && v.Elem().Kind() == reflect.Struct {
		s := v.Elem()
		var next reflect.Value
		for i := 0; i < s.NumField(); i++ {
			if f := s.Type().Field(i); f.Anonymous && f.IsExported() && f.Type.Kind() == reflect.Struct && s.Field(i).CanAddr() {
				next = s.Field(i).Addr()
				found = append(found, next.Interface())
				break
			}
		}
		v = next
	}
	return found
}

// Forbidden returns the first rune of s no person may be shown raw, and
// its byte offset: a control character but \n and \t, a format character
// (bidi controls, zero-width and tag characters) but a joiner between
// non-Latin letters as untrusted keeps it, a line or paragraph separator,
// or another invisible character.
func Forbidden(s string) (r rune, at int, found bool) {
	prev := rune(-1)
	for i, r := range s {
		if r != '\n' && r != '\t' && bad(r, prev, s[i+utf8.RuneLen(r):]) {
			return r, i, true
		}
		prev = r
	}
	return 0, 0, false
}

// bad judges r between prev and the text after it.
func bad(r, prev rune, rest string) bool {
	switch {
	case r == utf8.RuneError:
		return false // shown as the replacement glyph
	case r == '\u200C' || r == '\u200D':
		next, _ := utf8.DecodeRuneInString(rest)
		return !nonLatin(prev) || !nonLatin(next)
	case unicode.Is(unicode.Variation_Selector, r):
		return prev < 0 || untrusted.Hidden(prev) || unicode.IsSpace(prev)
	}
	return untrusted.Hidden(r) || unicode.In(r, unicode.Zl, unicode.Zp)
}

// nonLatin reports whether a joiner next to r can change what is drawn.
func nonLatin(r rune) bool {
	return r > unicode.MaxASCII && !unicode.Is(unicode.Latin, r) && !untrusted.Hidden(r)
}
