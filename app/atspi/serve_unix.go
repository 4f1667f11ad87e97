//go:build linux || freebsd || openbsd || netbsd

package atspi

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"github.com/godbus/dbus/v5"
)

// The AT-SPI2 names this file serves, from at-spi2-core's xml/*.xml.
const (
	pathPrefix = "/org/a11y/atspi/accessible/"
	rootPath   = dbus.ObjectPath(pathPrefix + "root")
	cachePath  = dbus.ObjectPath("/org/a11y/atspi/cache")
	nullPath   = dbus.ObjectPath("/org/a11y/atspi/null")

	ifaceAccessible   = "org.a11y.atspi.Accessible"
	ifaceApplication  = "org.a11y.atspi.Application"
	ifaceComponent    = "org.a11y.atspi.Component"
	ifaceAction       = "org.a11y.atspi.Action"
	ifaceText         = "org.a11y.atspi.Text"
	ifaceEditableText = "org.a11y.atspi.EditableText"
	ifaceSelection    = "org.a11y.atspi.Selection"
	ifaceCache        = "org.a11y.atspi.Cache"
	ifaceProperties   = "org.freedesktop.DBus.Properties"
)

// ref is an object on the accessibility bus: (so).
type ref struct {
	Name string
	Path dbus.ObjectPath
}

// relation is one of GetRelationSet's: a(ua(so)).
type relation struct {
	Type    uint32
	Targets []ref
}

// cacheItem is one of Cache.GetItems': ((so)(so)(so)iiassusau).
type cacheItem struct {
	Object, App, Parent ref
	Index, ChildCount   int32
	Interfaces          []string
	Name                string
	Role                uint32
	Description         string
	States              []uint32
}

// server answers AT-SPI calls on one accessibility bus connection from
// the view's trees. Each call reads a current tree; actions run on the UI
// goroutine.
type server struct {
	ctx     context.Context
	conn    *dbus.Conn
	view    *view
	desktop ref          // the registry's root, the application's parent
	appID   atomic.Int32 // the registry's number for the app; calls come at once
}

func (s *server) path(n *node) dbus.ObjectPath {
	if n.id == 0 {
		return rootPath
	}
	return dbus.ObjectPath(pathPrefix + strconv.FormatUint(n.id, 10))
}

func (s *server) ref(n *node) ref {
	if n == nil {
		return ref{s.conn.Names()[0], nullPath}
	}
	return ref{s.conn.Names()[0], s.path(n)}
}

func (s *server) parent(n *node) ref {
	if n.id == 0 {
		return s.desktop
	}
	return s.ref(n.parent)
}

// lookup is the node m is addressed to, in a current tree.
func (s *server) lookup(m dbus.Message) (*node, *dbus.Error) {
	p, _ := m.Headers[dbus.FieldPath].Value().(dbus.ObjectPath)
	rest, ok := strings.CutPrefix(string(p), pathPrefix)
	if !ok {
		return nil, dbus.MakeFailedError(errGone)
	}
	var id uint64
	if rest != "root" {
		var err error
		if id, err = strconv.ParseUint(rest, 10, 64); err != nil || id == 0 {
			return nil, dbus.MakeFailedError(errGone)
		}
	}
	n, err := s.view.node(s.ctx, id)
	if err != nil {
		return nil, dbus.MakeFailedError(err)
	}
	return n, nil
}

// interfaces is what n answers to.
func (s *server) interfaces(n *node) []string {
	ifaces := []string{ifaceAccessible}
	if n.id == 0 {
		return append(ifaces, ifaceApplication)
	}
	ifaces = append(ifaces, ifaceComponent)
	if len(n.actions) > 0 {
		ifaces = append(ifaces, ifaceAction)
	}
	if n.text != "" || n.edit != nil {
		ifaces = append(ifaces, ifaceText)
	}
	if n.edit != nil {
		ifaces = append(ifaces, ifaceEditableText)
	}
	if n.chooser {
		ifaces = append(ifaces, ifaceSelection)
	}
	return ifaces
}

// export puts every interface's methods on the bus, for every path under
// the accessible prefix.
func (s *server) export() error {
	tables := map[string]map[string]any{
		ifaceAccessible:   s.accessible(),
		ifaceApplication:  s.application(),
		ifaceComponent:    s.component(),
		ifaceAction:       s.action(),
		ifaceText:         s.text(),
		ifaceEditableText: s.editableText(),
		ifaceSelection:    s.selection(),
		ifaceProperties:   s.properties(),
	}
	for iface, methods := range tables {
		if err := s.conn.ExportSubtreeMethodTable(methods, dbus.ObjectPath(strings.TrimSuffix(pathPrefix, "/")), iface); err != nil {
			return err
		}
	}
	return s.conn.ExportMethodTable(map[string]any{
		"GetItems": func(dbus.Message) ([]cacheItem, *dbus.Error) {
			t, err := s.view.current(s.ctx)
			if err != nil {
				return nil, dbus.MakeFailedError(err)
			}
			items := make([]cacheItem, 0, len(t.byID))
			for _, n := range t.byID {
				items = append(items, s.cacheItem(n))
			}
			return items, nil
		},
	}, cachePath, ifaceCache)
}

func (s *server) cacheItem(n *node) cacheItem {
	return cacheItem{
		Object: s.ref(n), App: ref{s.conn.Names()[0], rootPath}, Parent: s.parent(n),
		Index: int32(n.index), ChildCount: int32(len(n.children)), Interfaces: s.interfaces(n),
		Name: n.name, Role: uint32(n.role), Description: n.desc, States: n.states.words(),
	}
}

func (s *server) accessible() map[string]any {
	return map[string]any{
		"GetChildAtIndex": func(m dbus.Message, i int32) (ref, *dbus.Error) {
			n, err := s.lookup(m)
			if err != nil {
				return ref{}, err
			}
			if i < 0 || int(i) >= len(n.children) {
				return s.ref(nil), nil
			}
			return s.ref(n.children[i]), nil
		},
		"GetChildren": func(m dbus.Message) ([]ref, *dbus.Error) {
			n, err := s.lookup(m)
			if err != nil {
				return nil, err
			}
			refs := make([]ref, len(n.children))
			for i, c := range n.children {
				refs[i] = s.ref(c)
			}
			return refs, nil
		},
		"GetIndexInParent": func(m dbus.Message) (int32, *dbus.Error) {
			n, err := s.lookup(m)
			if err != nil {
				return 0, err
			}
			if n.id == 0 {
				return -1, nil
			}
			return int32(n.index), nil
		},
		"GetRelationSet": func(m dbus.Message) ([]relation, *dbus.Error) {
			_, err := s.lookup(m)
			return []relation{}, err
		},
		"GetRole": func(m dbus.Message) (uint32, *dbus.Error) {
			n, err := s.lookup(m)
			if err != nil {
				return 0, err
			}
			return uint32(n.role), nil
		},
		"GetRoleName": func(m dbus.Message) (string, *dbus.Error) {
			n, err := s.lookup(m)
			if err != nil {
				return "", err
			}
			return n.role.String(), nil
		},
		"GetLocalizedRoleName": func(m dbus.Message) (string, *dbus.Error) {
			n, err := s.lookup(m)
			if err != nil {
				return "", err
			}
			return n.role.String(), nil
		},
		"GetState": func(m dbus.Message) ([]uint32, *dbus.Error) {
			n, err := s.lookup(m)
			if err != nil {
				// A closed window's objects say they are gone, as
				// libatspi expects of a defunct object, rather than fail.
				return States(0).With(StateDefunct).words(), nil
			}
			return n.states.words(), nil
		},
		"GetAttributes": func(m dbus.Message) (map[string]string, *dbus.Error) {
			_, err := s.lookup(m)
			return map[string]string{"toolkit": "Fyne"}, err
		},
		"GetApplication": func(m dbus.Message) (ref, *dbus.Error) {
			return ref{s.conn.Names()[0], rootPath}, nil
		},
		"GetInterfaces": func(m dbus.Message) ([]string, *dbus.Error) {
			n, err := s.lookup(m)
			if err != nil {
				return nil, err
			}
			return s.interfaces(n), nil
		},
	}
}

func (s *server) application() map[string]any {
	return map[string]any{
		"GetLocale": func(dbus.Message, uint32) (string, *dbus.Error) {
			return "", nil
		},
		"GetApplicationBusAddress": func(dbus.Message) (string, *dbus.Error) {
			return "", nil // no peer-to-peer connection: everything goes over the bus
		},
	}
}

// property is one property of n on iface, and whether there is one.
func (s *server) property(n *node, iface, name string) (any, bool) {
	switch iface + "." + name {
	case ifaceAccessible + ".Name":
		return n.name, true
	case ifaceAccessible + ".Description":
		return n.desc, true
	case ifaceAccessible + ".Parent":
		return s.parent(n), true
	case ifaceAccessible + ".ChildCount":
		return int32(len(n.children)), true
	case ifaceAccessible + ".Locale":
		return "", true
	case ifaceAccessible + ".AccessibleId":
		return strconv.FormatUint(n.id, 10), true
	case ifaceAccessible + ".HelpText":
		return "", true
	case ifaceApplication + ".ToolkitName":
		return "Fyne", true
	case ifaceApplication + ".Version":
		return s.view.app.Metadata().Version, true
	case ifaceApplication + ".AtspiVersion":
		return "2.1", true
	case ifaceApplication + ".Id":
		return s.appID.Load(), true
	case ifaceAction + ".NActions":
		return int32(len(n.actions)), true
	case ifaceText + ".CharacterCount":
		return int32(utf8.RuneCountInString(n.text)), true
	case ifaceText + ".CaretOffset":
		return int32(utf8.RuneCountInString(n.text)), true
	case ifaceSelection + ".NSelectedChildren":
		return int32(len(selected(n))), true
	}
	return nil, false
}

func (s *server) properties() map[string]any {
	return map[string]any{
		"Get": func(m dbus.Message, iface, name string) (dbus.Variant, *dbus.Error) {
			n, err := s.lookup(m)
			if err != nil {
				return dbus.MakeVariant(""), err
			}
			v, ok := s.property(n, iface, name)
			if !ok {
				return dbus.MakeVariant(""), dbus.MakeFailedError(fmt.Errorf("no property %q of %q", name, iface))
			}
			return dbus.MakeVariant(v), nil
		},
		"GetAll": func(m dbus.Message, iface string) (map[string]dbus.Variant, *dbus.Error) {
			n, err := s.lookup(m)
			if err != nil {
				return nil, err
			}
			all := map[string]dbus.Variant{}
			for _, name := range []string{"Name", "Description", "Parent", "ChildCount", "Locale", "AccessibleId",
				"ToolkitName", "Version", "AtspiVersion", "Id", "NActions", "CharacterCount", "CaretOffset", "NSelectedChildren"} {
				if v, ok := s.property(n, iface, name); ok {
					all[name] = dbus.MakeVariant(v)
				}
			}
			return all, nil
		},
		"Set": func(m dbus.Message, iface, name string, v dbus.Variant) *dbus.Error {
			if iface == ifaceApplication && name == "Id" {
				if id, ok := v.Value().(int32); ok {
					s.appID.Store(id)
					return nil
				}
			}
			return dbus.MakeFailedError(fmt.Errorf("%q of %q cannot be set", name, iface))
		},
	}
}

// extents is a rectangle: (iiii).
type extents struct{ X, Y, W, H int32 }

// box is where n is, in coords: ATSPI_COORD_TYPE_SCREEN (0), _WINDOW (1)
// or _PARENT (2). A frame's place in the window is its whole.
func box(n *node, coords uint32) extents {
	at := n.pos
	switch {
	case coords == 0 && topLevel(n):
		at = n.origin
	case coords == 0 && n.parent != nil:
		at = at.Add(window(n).origin)
	case coords == 2 && n.parent != nil && !topLevel(n.parent) && n.parent.id != 0:
		at = at.Subtract(n.parent.pos)
	}
	return extents{int32(at.X), int32(at.Y), int32(n.size.Width), int32(n.size.Height)}
}

// inside is whether x, y falls in e.
func (e extents) inside(x, y int32) bool { return x >= e.X && y >= e.Y && x < e.X+e.W && y < e.Y+e.H }

func (s *server) component() map[string]any {
	return map[string]any{
		"Contains": func(m dbus.Message, x, y int32, coords uint32) (bool, *dbus.Error) {
			n, err := s.lookup(m)
			if err != nil {
				return false, err
			}
			return box(n, coords).inside(x, y), nil
		},
		"GetAccessibleAtPoint": func(m dbus.Message, x, y int32, coords uint32) (ref, *dbus.Error) {
			n, err := s.lookup(m)
			if err != nil {
				return ref{}, err
			}
			for _, c := range n.children {
				if box(c, coords).inside(x, y) {
					return s.ref(c), nil
				}
			}
			return s.ref(nil), nil
		},
		"GetExtents": func(m dbus.Message, coords uint32) (extents, *dbus.Error) {
			n, err := s.lookup(m)
			if err != nil {
				return extents{}, err
			}
			return box(n, coords), nil
		},
		"GetPosition": func(m dbus.Message, coords uint32) (int32, int32, *dbus.Error) {
			n, err := s.lookup(m)
			if err != nil {
				return 0, 0, err
			}
			e := box(n, coords)
			return e.X, e.Y, nil
		},
		"GetSize": func(m dbus.Message) (int32, int32, *dbus.Error) {
			n, err := s.lookup(m)
			if err != nil {
				return 0, 0, err
			}
			return int32(n.size.Width), int32(n.size.Height), nil
		},
		"GetLayer": func(m dbus.Message) (uint32, *dbus.Error) {
			n, err := s.lookup(m)
			if err != nil {
				return 0, err
			}
			if topLevel(n) {
				return 7, nil // ATSPI_LAYER_WINDOW
			}
			return 3, nil // ATSPI_LAYER_WIDGET
		},
		"GetMDIZOrder": func(dbus.Message) (int16, *dbus.Error) { return -1, nil },
		"GetAlpha":     func(dbus.Message) (float64, *dbus.Error) { return 1, nil },
		"GrabFocus": func(m dbus.Message) (bool, *dbus.Error) {
			n, err := s.lookup(m)
			if err != nil {
				return false, err
			}
			if n.focus == nil {
				return false, nil
			}
			return true, s.fail(s.view.do(s.ctx, n.focus))
		},
	}
}

func (s *server) fail(err error) *dbus.Error {
	if err == nil {
		return nil
	}
	return dbus.MakeFailedError(err)
}

func (s *server) action() map[string]any {
	nth := func(m dbus.Message, i int32) (*node, *action, *dbus.Error) {
		n, err := s.lookup(m)
		if err != nil {
			return nil, nil, err
		}
		if i < 0 || int(i) >= len(n.actions) {
			return nil, nil, dbus.MakeFailedError(fmt.Errorf("no action %d", i))
		}
		return n, &n.actions[i], nil
	}
	name := func(m dbus.Message, i int32) (string, *dbus.Error) {
		_, a, err := nth(m, i)
		if err != nil {
			return "", err
		}
		return a.name, nil
	}
	return map[string]any{
		"GetName":          name,
		"GetLocalizedName": name,
		"GetDescription": func(m dbus.Message, i int32) (string, *dbus.Error) {
			_, _, err := nth(m, i)
			return "", err
		},
		"GetKeyBinding": func(m dbus.Message, i int32) (string, *dbus.Error) {
			_, _, err := nth(m, i)
			return "", err
		},
		"GetActions": func(m dbus.Message) ([]struct{ Name, Description, KeyBinding string }, *dbus.Error) {
			n, err := s.lookup(m)
			if err != nil {
				return nil, err
			}
			out := make([]struct{ Name, Description, KeyBinding string }, len(n.actions))
			for i, a := range n.actions {
				out[i].Name = a.name
			}
			return out, nil
		},
		// DoAction answers at once: libatspi gives up after 2 s, and a
		// button may open a dialog that waits for a person.
		"DoAction": func(m dbus.Message, i int32) (bool, *dbus.Error) {
			_, a, err := nth(m, i)
			if err != nil {
				return false, err
			}
			fyne.Do(a.do)
			s.view.touch()
			return true, nil
		},
	}
}

// runes is the part [start, end) of text, in characters; end -1 is its end.
func runes(text string, start, end int32) (string, int32, int32) {
	r := []rune(text)
	if end < 0 || int(end) > len(r) {
		end = int32(len(r))
	}
	start = max(0, min(start, end))
	return string(r[start:end]), start, end
}

func (s *server) text() map[string]any {
	// at is the piece of text an offset is in: a character, else all of
	// it (a field's value is short; a label is read whole).
	at := func(m dbus.Message, offset int32, boundary uint32) (string, int32, int32, *dbus.Error) {
		n, err := s.lookup(m)
		if err != nil {
			return "", 0, 0, err
		}
		if boundary == 0 { // ATSPI_TEXT_BOUNDARY_CHAR, ATSPI_TEXT_GRANULARITY_CHAR
			str, start, end := runes(n.text, offset, offset+1)
			return str, start, end, nil
		}
		str, start, end := runes(n.text, 0, -1)
		return str, start, end, nil
	}
	return map[string]any{
		"GetText": func(m dbus.Message, start, end int32) (string, *dbus.Error) {
			n, err := s.lookup(m)
			if err != nil {
				return "", err
			}
			str, _, _ := runes(n.text, start, end)
			return str, nil
		},
		"GetTextAtOffset":   at,
		"GetStringAtOffset": at,
		// Before and after the one piece a text is in beyond its
		// characters, there is nothing: a client stepping through it
		// reaches its end.
		"GetTextBeforeOffset": func(m dbus.Message, offset int32, boundary uint32) (string, int32, int32, *dbus.Error) {
			if boundary == 0 {
				return at(m, offset-1, boundary)
			}
			_, err := s.lookup(m)
			return "", 0, 0, err
		},
		"GetTextAfterOffset": func(m dbus.Message, offset int32, boundary uint32) (string, int32, int32, *dbus.Error) {
			if boundary == 0 {
				return at(m, offset+1, boundary)
			}
			n, err := s.lookup(m)
			if err != nil {
				return "", 0, 0, err
			}
			end := int32(utf8.RuneCountInString(n.text))
			return "", end, end, nil
		},
		"GetCharacterAtOffset": func(m dbus.Message, offset int32) (int32, *dbus.Error) {
			n, err := s.lookup(m)
			if err != nil {
				return 0, err
			}
			str, _, _ := runes(n.text, offset, offset+1)
			r, _ := utf8.DecodeRuneInString(str)
			return r, nil
		},
		"SetCaretOffset": func(dbus.Message, int32) (bool, *dbus.Error) { return false, nil },
		"GetNSelections": func(dbus.Message) (int32, *dbus.Error) { return 0, nil },
		"GetSelection": func(dbus.Message, int32) (int32, int32, *dbus.Error) {
			return 0, 0, nil
		},
		"GetAttributes": func(dbus.Message, int32) (map[string]string, int32, int32, *dbus.Error) {
			return map[string]string{}, 0, 0, nil
		},
		"GetAttributeRun": func(m dbus.Message, _ int32, _ bool) (map[string]string, int32, int32, *dbus.Error) {
			n, err := s.lookup(m)
			if err != nil {
				return nil, 0, 0, err
			}
			return map[string]string{}, 0, int32(utf8.RuneCountInString(n.text)), nil
		},
		"GetDefaultAttributes":   func(dbus.Message) (map[string]string, *dbus.Error) { return map[string]string{}, nil },
		"GetDefaultAttributeSet": func(dbus.Message) (map[string]string, *dbus.Error) { return map[string]string{}, nil },
		"GetOffsetAtPoint":       func(dbus.Message, int32, int32, uint32) (int32, *dbus.Error) { return -1, nil },
		"GetCharacterExtents": func(m dbus.Message, _ int32, _ uint32) (int32, int32, int32, int32, *dbus.Error) {
			return 0, 0, 0, 0, nil
		},
		"GetRangeExtents": func(m dbus.Message, _, _ int32, _ uint32) (int32, int32, int32, int32, *dbus.Error) {
			return 0, 0, 0, 0, nil
		},
		"AddSelection":           func(dbus.Message, int32, int32) (bool, *dbus.Error) { return false, nil },
		"RemoveSelection":        func(dbus.Message, int32) (bool, *dbus.Error) { return false, nil },
		"SetSelection":           func(dbus.Message, int32, int32, int32) (bool, *dbus.Error) { return false, nil },
		"ScrollSubstringTo":      func(dbus.Message, int32, int32, uint32) (bool, *dbus.Error) { return false, nil },
		"ScrollSubstringToPoint": func(dbus.Message, int32, int32, uint32, int32, int32) (bool, *dbus.Error) { return false, nil },
	}
}

func (s *server) editableText() map[string]any {
	// edit sets the node's text to what change makes of it, from the
	// text as it is then, on the UI goroutine.
	edit := func(m dbus.Message, change func(old []rune) string) (bool, *dbus.Error) {
		n, err := s.lookup(m)
		if err != nil {
			return false, err
		}
		if n.edit == nil {
			return false, nil
		}
		return true, s.fail(s.view.do(s.ctx, func() {
			n.edit(func(old string) string { return change([]rune(old)) })
		}))
	}
	clamp := func(i int32, r []rune) int {
		return max(0, min(int(i), len(r)))
	}
	return map[string]any{
		"SetTextContents": func(m dbus.Message, text string) (bool, *dbus.Error) {
			return edit(m, func([]rune) string { return text })
		},
		"InsertText": func(m dbus.Message, pos int32, text string, length int32) (bool, *dbus.Error) {
			if length >= 0 && int(length) < utf8.RuneCountInString(text) {
				text = string([]rune(text)[:length])
			}
			return edit(m, func(old []rune) string {
				at := clamp(pos, old)
				return string(old[:at]) + text + string(old[at:])
			})
		},
		"DeleteText": func(m dbus.Message, start, end int32) (bool, *dbus.Error) {
			return edit(m, func(old []rune) string {
				a, b := clamp(start, old), clamp(end, old)
				if end < 0 {
					b = len(old)
				}
				if a > b {
					a, b = b, a
				}
				return string(old[:a]) + string(old[b:])
			})
		},
		"CopyText":  func(dbus.Message, int32, int32) *dbus.Error { return nil },
		"CutText":   func(dbus.Message, int32, int32) (bool, *dbus.Error) { return false, nil },
		"PasteText": func(dbus.Message, int32) (bool, *dbus.Error) { return false, nil },
	}
}

// selected is the children of n that are chosen.
func selected(n *node) []*node {
	var out []*node
	for _, c := range n.children {
		if isChosen(c) {
			out = append(out, c)
		}
	}
	return out
}

// isChosen is whether an option is the one chosen: a drop-down's item is
// selected, a radio button checked.
func isChosen(c *node) bool { return c.states.Has(StateSelected) || c.states.Has(StateChecked) }

func (s *server) selection() map[string]any {
	choose := func(m dbus.Message, i int32) (bool, *dbus.Error) {
		n, err := s.lookup(m)
		if err != nil {
			return false, err
		}
		if i < 0 || int(i) >= len(n.children) || len(n.children[i].actions) == 0 {
			return false, nil
		}
		return true, s.fail(s.view.do(s.ctx, n.children[i].actions[0].do))
	}
	return map[string]any{
		"GetSelectedChild": func(m dbus.Message, i int32) (ref, *dbus.Error) {
			n, err := s.lookup(m)
			if err != nil {
				return ref{}, err
			}
			if sel := selected(n); i >= 0 && int(i) < len(sel) {
				return s.ref(sel[i]), nil
			}
			return s.ref(nil), nil
		},
		"SelectChild": choose,
		"IsChildSelected": func(m dbus.Message, i int32) (bool, *dbus.Error) {
			n, err := s.lookup(m)
			if err != nil {
				return false, err
			}
			return i >= 0 && int(i) < len(n.children) && isChosen(n.children[i]), nil
		},
		"DeselectSelectedChild": func(dbus.Message, int32) (bool, *dbus.Error) { return false, nil },
		"DeselectChild":         func(dbus.Message, int32) (bool, *dbus.Error) { return false, nil },
		"SelectAll":             func(dbus.Message) (bool, *dbus.Error) { return false, nil },
		"ClearSelection":        func(dbus.Message) (bool, *dbus.Error) { return false, nil },
	}
}
