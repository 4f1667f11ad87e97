package atspi

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/a11y"
	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/app/modal"
)

// field is a form field as an app extends Fyne's entry: embedded, with
// its title and hint for a screen reader.
type field struct {
	widget.Entry
	title, hint string
	bad         bool
}

func newField(title, hint, text string) *field {
	f := &field{title: title, hint: hint}
	f.Text = text
	f.ExtendBaseWidget(f)
	return f
}

func (f *field) AccessibleTitle() string       { return f.title }
func (f *field) AccessibleDescription() string { return f.hint }
func (f *field) AccessibleInvalid() bool       { return f.bad }

// group is a widget of its own that holds others.
type group struct {
	widget.BaseWidget
	parts []fyne.CanvasObject
}

func newGroup(parts ...fyne.CanvasObject) *group {
	g := &group{parts: parts}
	g.ExtendBaseWidget(g)
	return g
}

func (g *group) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewVBox(g.parts...))
}
func (g *group) AccessibleParts() []fyne.CanvasObject { return g.parts }

// options is a radio group drawn as one widget.
type options struct {
	widget.DisableableWidget
	list   []string
	chosen int
}

func newOptions(list ...string) *options {
	o := &options{list: list, chosen: -1}
	o.ExtendBaseWidget(o)
	return o
}

func (o *options) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(widget.NewLabel(strings.Join(o.list, " ")))
}
func (o *options) AccessibleOptions() ([]string, int) { return o.list, o.chosen }
func (o *options) AccessibleChoose(i int)             { o.chosen = i }
func (o *options) AccessibleTitle() string            { return "Size" }

// line is how a test writes a node: its depth, role and name, then its
// text, description and the states that matter here.
func line(n *node, depth int) string {
	s := fmt.Sprintf("%s%s %q", strings.Repeat("  ", depth), n.role, n.name)
	if n.text != "" {
		s += fmt.Sprintf(" text=%q", n.text)
	}
	if n.desc != "" {
		s += fmt.Sprintf(" desc=%q", n.desc)
	}
	for _, st := range []State{StateFocused, StateSelected, StateChecked, StateEditable, StateInvalidEntry, StateExpanded} {
		if n.states.Has(st) {
			s += " " + stateNames[st]
		}
	}
	if len(n.actions) > 0 {
		s += " [" + n.actions[0].name + "]"
	}
	return s
}

func lines(n *node, depth int) []string {
	out := []string{line(n, depth)}
	for _, c := range n.children {
		out = append(out, lines(c, depth+1)...)
	}
	return out
}

func buildOf(w fyne.Window) *tree {
	return build(nil, "App", []fyne.Window{w})
}

// TestTreeReadsWidgets builds the tree of a window of every kind of widget
// the adapter knows, as an app extends them, and reads it in order.
func TestTreeReadsWidgets(t *testing.T) {
	test.NewTempApp(t)
	password := widget.NewPasswordEntry()
	password.SetText("hunter2")
	check := widget.NewCheck("Newsletter", nil)
	check.SetChecked(true)
	email := newField("Email (required)", "An email address.", "ada@example.com")
	email.bad = true
	hidden := widget.NewLabel("hidden")
	hidden.Hide()
	choice := widget.NewSelect([]string{"red", "green"}, nil)
	choice.SetSelected("green")
	acc := look.NewDisclosure("Warnings", widget.NewLabel("one warning"))
	content := container.NewBorder(
		widget.NewLabel("Top"), // Border holds its centre first; the top reads first
		container.NewHBox(widget.NewButton("Cancel", nil), widget.NewButton("Accept", nil)),
		nil, nil,
		container.NewVScroll(newGroup(email, password, check, choice, newOptions("Small", "Large"), hidden, acc,
			widget.NewCard("Review", "", widget.NewLabel("{}")))),
	)
	w := test.NewWindow(content)
	w.SetTitle("demo: a form")
	w.Resize(fyne.NewSize(600, 800))
	w.Canvas().Focus(email)

	got := lines(buildOf(w).root, 0)
	want := []string{
		`application "App"`,
		`  frame "demo: a form"`,
		`    label "Top" text="Top"`,
		`    entry "Email (required)" text="ada@example.com" desc="An email address." focused editable invalid-entry`,
		`    password text "" text="•••••••" editable`,
		`    check box "Newsletter" checked [click]`,
		`    combo box "(Select one)" text="green"`,
		`      menu item "red" [click]`,
		`      menu item "green" selected [click]`,
		`    panel "Size"`,
		`      radio button "Small" [click]`,
		`      radio button "Large" [click]`,
		`    toggle button "Warnings" [click]`,
		`    panel "Review"`,
		`      label "{}" text="{}"`,
		`    push button "Cancel" [click]`,
		`    push button "Accept" [click]`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("the tree reads\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestTreeKeepsIDs rebuilds a tree: nodes for the same objects keep their
// ids, so a screen reader's references stay good; a new object gets a
// new id, and a removed one's id is gone.
func TestTreeKeepsIDs(t *testing.T) {
	test.NewTempApp(t)
	a, b := widget.NewLabel("a"), widget.NewLabel("b")
	box := container.NewVBox(a, b)
	w := test.NewWindow(box)
	w.Resize(fyne.NewSize(200, 200))
	first := build(nil, "App", []fyne.Window{w})
	box.Remove(a)
	c := widget.NewLabel("c")
	box.Add(c)
	second := build(first, "App", []fyne.Window{w})

	idOf := func(tr *tree, name string) uint64 {
		for id, n := range tr.byID {
			if n.name == name {
				return id
			}
		}
		return 0
	}
	if idOf(first, "b") != idOf(second, "b") || idOf(second, "b") == 0 {
		t.Errorf("b changed id: %d, then %d", idOf(first, "b"), idOf(second, "b"))
	}
	if id := idOf(second, "c"); id == 0 || id == idOf(first, "a") || id == idOf(first, "b") {
		t.Errorf("c took id %d (a had %d, b %d)", id, idOf(first, "a"), idOf(first, "b"))
	}
	if _, ok := second.byID[idOf(first, "a")]; ok {
		t.Error("a removed label still has a node")
	}
}

// TestChangesTell changes widgets between two trees: what a screen reader
// is told is what changed, and the focus with the window it is in.
func TestChangesTell(t *testing.T) {
	test.NewTempApp(t)
	email := newField("Email", "An email address.", "ada@example.com")
	check := widget.NewCheck("Newsletter", nil)
	gone := widget.NewLabel("Banner")
	box := container.NewVBox(gone, email, check)
	w := test.NewWindow(box)
	w.SetTitle("demo")
	w.Resize(fyne.NewSize(400, 400))
	prev := build(nil, "App", []fyne.Window{w})

	email.SetText("nope")
	email.hint, email.bad = "Not an email address.", true
	check.SetChecked(true)
	gone.Hide()
	w.Canvas().Focus(email)
	next := build(prev, "App", []fyne.Window{w})

	var got []string
	for _, e := range changes(prev, next) {
		got = append(got, fmt.Sprintf("%s %s:%s:%s %d %v", e.node.name, e.class, e.member, e.kind, e.detail1, valueOf(e.value)))
	}
	want := []string{
		`demo Object:StateChanged:active 1 0`,
		`demo Object:ChildrenChanged:remove 0 Banner`,
		`Email Object:PropertyChange:accessible-description 0 Not an email address.`,
		`Email Object:StateChanged:invalid-entry 1 0`,
		`Email Object:TextChanged:delete 0 ada@example.com`,
		`Email Object:TextChanged:insert 0 nope`,
		`Newsletter Object:StateChanged:checked 1 0`,
		`demo Window:Activate: 0 `,
		`Email Object:StateChanged:focused 1 0`,
		`Email Focus:Focus: 0 0`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("told\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func valueOf(v any) any {
	if n, ok := v.(*node); ok {
		return n.name
	}
	return v
}

// TestAsFindsEmbedded finds Fyne's widgets in the types that embed them,
// at any depth, and nothing in the types that don't.
func TestAsFindsEmbedded(t *testing.T) {
	type deeper struct{ field }
	f := newField("t", "", "")
	d := &deeper{}
	if as[widget.Entry](f) != &f.Entry {
		t.Error("the entry a field embeds was not found")
	}
	if as[widget.Entry](d) != &d.field.Entry {
		t.Error("an entry embedded two deep was not found")
	}
	if as[widget.Check](f) != nil || as[widget.Entry](widget.NewLabel("x")) != nil {
		t.Error("found a widget that is not there")
	}
}

// TestTreeReadsDialogs shows the dialogs the app shows over a window, its
// own (app/modal) and Fyne's: each is a dialog after the window's content,
// named by its first words, with its fields and buttons; the app's opens
// with the keyboard on its first button.
func TestTreeReadsDialogs(t *testing.T) {
	tests := []struct {
		name string
		show func(w fyne.Window)
		want []string
	}{
		{"the app's own", func(w fyne.Window) {
			modal.Show(w.Canvas(), "Add server", widget.NewEntry(), fyne.NewSize(400, 300), look.NewButton("Add", nil, nil))
		}, []string{`    dialog "Add server"`, `      label "Add server" text="Add server"`, `      entry "" editable`, `      push button "Add" focused [click]`}},
		{"Fyne's confirmation", func(w fyne.Window) {
			dialog.ShowConfirm("Remove demo?", "Its entry leaves servers.json.", func(bool) {}, w)
		}, []string{`    dialog "Remove demo?"`, `      label "Remove demo?" text="Remove demo?"`, `      label "Its entry leaves servers.json." text="Its entry leaves servers.json."`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			test.NewTempApp(t)
			w := test.NewWindow(widget.NewLabel("under"))
			w.SetTitle("Servers")
			w.Resize(fyne.NewSize(600, 600))
			tt.show(w)
			got := lines(buildOf(w).root, 0)
			if len(got) < 3+len(tt.want) || !slices.Equal(got[3:3+len(tt.want)], tt.want) {
				t.Errorf("the tree reads\n%s\nwant after the window's content\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestWireStrings keeps what D-Bus refuses out of every string: invalid
// UTF-8 and NUL would fail the whole reply they are in.
func TestWireStrings(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewWindow(container.NewVBox(widget.NewLabel("bad \xff byte"), widget.NewLabel("nul \x00 here")))
	w.Resize(fyne.NewSize(300, 300))
	for _, s := range Said(w) {
		for _, text := range []string{s.Name, s.Description, s.Text} {
			if !utf8.ValidString(text) || strings.ContainsRune(text, 0) {
				t.Errorf("%s %q goes to the bus as it is", s.Role, text)
			}
		}
	}
}

// hold is text that takes the keyboard, as a request window's key hold.
type hold struct{ widget.Label }

func newHold(text string) *hold {
	h := &hold{}
	h.Text = text
	h.ExtendBaseWidget(h)
	return h
}

func (h *hold) FocusGained()                           {}
func (h *hold) FocusLost()                             {}
func (h *hold) TypedRune(rune)                         {}
func (h *hold) TypedKey(*fyne.KeyEvent)                {}
func (h *hold) AccessibilityLabel() string             { return h.Text }
func (h *hold) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleText }

// TestFocusedText reads text that holds the keyboard as focused, so that a
// screen reader says it when the window is switched to.
func TestFocusedText(t *testing.T) {
	test.NewTempApp(t)
	h := newHold("Typing is held: press F6 to start typing here.")
	w := test.NewWindow(container.NewVBox(h, widget.NewEntry()))
	w.Resize(fyne.NewSize(300, 300))
	w.Canvas().Focus(h)
	n := buildOf(w).focused()
	if n == nil || n.name != h.Text || n.role != RoleLabel {
		t.Errorf("the focused node is %+v, want the hold's text", n)
	}
}

// TestFocusInActiveWindow gives the focus to the active window's focused
// object only: every window keeps one, and a screen reader told of two
// would follow whichever it heard last.
func TestFocusInActiveWindow(t *testing.T) {
	test.NewTempApp(t)
	var windows []fyne.Window
	for range 2 {
		e := widget.NewEntry()
		w := test.NewWindow(e)
		w.Canvas().Focus(e)
		windows = append(windows, w)
	}
	b := newBuilder(nil)
	root := &node{}
	b.add(root, b.window(windows[0], false))
	b.add(root, b.window(windows[1], true))
	var focused []*node
	for _, n := range order(root) {
		if n.states.Has(StateFocused) {
			focused = append(focused, n)
		}
	}
	if len(focused) != 1 || window(focused[0]) != root.children[1] {
		t.Errorf("focused: %d nodes, want the active window's entry alone", len(focused))
	}
}

// TestRadioGroupFocus says which option a focused radio group is on: the
// chosen one, else the first.
func TestRadioGroupFocus(t *testing.T) {
	for _, tt := range []struct {
		chosen, want int
	}{{-1, 0}, {1, 1}} {
		test.NewTempApp(t)
		o := focusableOptions{newOptions("Small", "Large")}
		o.chosen = tt.chosen
		b := newBuilder(nil)
		b.focused = o
		n := b.control(key{of: o}, o)
		got := -1
		for i, c := range n.children {
			if c.states.Has(StateFocused) {
				got = i
			}
		}
		if got != tt.want {
			t.Errorf("chosen %d: option %d focused, want %d", tt.chosen, got, tt.want)
		}
	}
}

// focusableOptions is options that take the keyboard, as formview's do.
type focusableOptions struct{ *options }

func (focusableOptions) FocusGained()            {}
func (focusableOptions) FocusLost()              {}
func (focusableOptions) TypedRune(rune)          {}
func (focusableOptions) TypedKey(*fyne.KeyEvent) {}

// TestParagraphs splits rich text into what a screen reader reads one by
// one: headings, paragraphs, list items and code, blank blocks left out.
func TestParagraphs(t *testing.T) {
	tests := []struct {
		markdown string
		want     []paragraph
	}{
		{"# Title\n\nSome *text*.\n\n## Sub\n", []paragraph{{"Title", true}, {"Some text.", false}, {"Sub", true}}},
		{"- one\n- two\n", []paragraph{{"• one", false}, {"• two", false}}},
		{"text\n\n```\n   \n```\n\nmore", []paragraph{{"text", false}, {"more", false}}},
	}
	test.NewTempApp(t)
	for _, tt := range tests {
		got := paragraphs(widget.NewRichTextFromMarkdown(tt.markdown).Segments)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q reads %v, want %v", tt.markdown, got, tt.want)
		}
	}
}

// asks is a window's content that asks something (Dialog), as the app's
// question windows' is.
type asks struct {
	widget.BaseWidget
	Content fyne.CanvasObject
}

func newAsks(content fyne.CanvasObject) *asks {
	a := &asks{Content: content}
	a.ExtendBaseWidget(a)
	return a
}

func (a *asks) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(a.Content) }
func (a *asks) AccessibleDialog()                   {}

// TestDialogWindow reads a window whose content asks the person something
// as a dialog of its own, with its words, not as a frame: so too when a
// request window's key hold, its sizing and xwin.Quiet wrap it.
func TestDialogWindow(t *testing.T) {
	test.NewTempApp(t)
	question := func() fyne.CanvasObject {
		return newAsks(container.NewVBox(widget.NewLabel("2 requests wait."), look.NewButton("Keep running", nil, nil)))
	}
	for _, content := range []fyne.CanvasObject{
		question(),
		container.NewStack(container.NewStack(widget.NewIcon(nil), container.NewBorder(nil, nil, nil, nil, container.NewStack(question())))),
	} {
		w := test.NewWindow(content)
		w.SetTitle("Quit Elicit Desk?")
		w.Resize(fyne.NewSize(400, 200))
		got := lines(buildOf(w).root, 0)
		want := []string{`application "App"`, `  dialog "Quit Elicit Desk?"`, `    label "2 requests wait." text="2 requests wait."`, `    push button "Keep running" [click]`}
		if !slices.Equal(got, want) {
			t.Errorf("the tree reads\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestNamedList reads a list the app names and whose selection it knows
// (a11y.List): named, its selected row marked, focused when the list it
// holds has the keyboard.
func TestNamedList(t *testing.T) {
	test.NewTempApp(t)
	names := []string{"demo", "github", "files"}
	l := a11y.NewList("Servers", func() int { return len(names) }, func() fyne.CanvasObject { return widget.NewLabel("") },
		func(i widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(names[i]) },
		func() (widget.ListItemID, bool) { return 1, true })
	_, keyboard := l.AccessibleList()
	w := test.NewWindow(l)
	w.SetTitle("Servers")
	w.Resize(fyne.NewSize(300, 300))
	w.Canvas().Focus(keyboard)
	got := lines(buildOf(w).root, 0)
	want := []string{`application "App"`, `  frame "Servers"`, `    list "Servers"`,
		`      list item "demo" focused [click]`, `      list item "github" selected [click]`, `      list item "files" [click]`}
	if !slices.Equal(got, want) {
		t.Errorf("the tree reads\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The arrows move the keyboard's row, not the selection: the screen
	// reader is told each row they reach.
	for _, step := range []struct {
		key  fyne.KeyName
		want string
	}{{fyne.KeyDown, "github"}, {fyne.KeyDown, "files"}, {fyne.KeyDown, "files"}, {fyne.KeyUp, "github"}, {fyne.KeyUp, "demo"}, {fyne.KeyUp, "demo"}} {
		keyboard.TypedKey(&fyne.KeyEvent{Name: step.key})
		if n := buildOf(w).focused(); n == nil || n.name != step.want || n.role != RoleListItem {
			t.Errorf("after %s the focused node is %+v, want the row %q", step.key, n, step.want)
		}
	}
}

// row is a control read as one, whose keyboard is a button inside it.
type row struct {
	widget.BaseWidget
	call *look.Button
}

func (r *row) CreateRenderer() fyne.WidgetRenderer    { return widget.NewSimpleRenderer(r.call) }
func (r *row) AccessibilityLabel() string             { return "Call Search files" }
func (r *row) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleButton }
func (r *row) AccessibleFocus() fyne.Focusable        { return r.call }

// TestFocusInside reads a control whose button has the keyboard as
// focused, so that a screen reader says it as Tab reaches it.
func TestFocusInside(t *testing.T) {
	test.NewTempApp(t)
	r := &row{call: look.NewButton("Call…", nil, nil)}
	r.ExtendBaseWidget(r)
	w := test.NewWindow(container.NewVBox(r))
	w.Resize(fyne.NewSize(300, 100))
	w.Canvas().Focus(r.call)
	n := buildOf(w).focused()
	if n == nil || n.name != "Call Search files" {
		t.Errorf("the focused node is %+v, want the row", n)
	}
}

// TestSelectableLabelFocus reads a selectable label as focused when Tab
// gives the keyboard to the object Fyne puts inside it, so that a screen
// reader says the text there rather than nothing.
func TestSelectableLabelFocus(t *testing.T) {
	test.NewTempApp(t)
	l := widget.NewLabel("/home/ada/.config/elicitdesk/servers.json")
	l.Selectable = true
	e := widget.NewEntry()
	w := test.NewWindow(container.NewVBox(e, l))
	w.Resize(fyne.NewSize(400, 200))
	w.Canvas().Focus(e)
	if n := buildOf(w).focused(); n == nil || n.role != RoleEntry {
		t.Fatalf("the focused node is %+v, want the entry", n)
	}
	w.Canvas().FocusNext()
	if w.Canvas().Focused() == nil || w.Canvas().Focused() == fyne.Focusable(e) {
		t.Fatal("Tab did not leave the entry for the label")
	}
	n := buildOf(w).focused()
	if n == nil || n.name != l.Text || n.role != RoleLabel || !n.states.Has(StateFocusable) {
		t.Errorf("the focused node is %+v, want the label's text", n)
	}
}

// status is a label that says it tells of changes (Status).
type status struct{ widget.Label }

func newStatus() *status {
	s := &status{}
	s.ExtendBaseWidget(s)
	return s
}

func (*status) AccessibleStatus() {}

// TestStatusSpoken reads a Status as a notification and tells a screen
// reader it shows when it appears and again when its words change, which
// Orca speaks; a plain label's change is only a new name.
func TestStatusSpoken(t *testing.T) {
	test.NewTempApp(t)
	s, plain := newStatus(), widget.NewLabel("Waiting.")
	w := test.NewWindow(container.NewVBox(plain, s))
	w.SetTitle("demo")
	w.Resize(fyne.NewSize(400, 200))
	var got []string
	prev := build(nil, "App", []fyne.Window{w})
	for _, words := range []string{"The link is copied.", "The browser did not open."} {
		s.SetText(words)
		plain.SetText("Still waiting.")
		next := build(prev, "App", []fyne.Window{w})
		for _, e := range changes(prev, next) {
			if e.member == "StateChanged" || e.member == "PropertyChange" {
				got = append(got, fmt.Sprintf("%s %s:%s:%s %d", e.node.name, e.class, e.member, e.kind, e.detail1))
			}
		}
		prev = next
	}
	want := []string{
		`Still waiting. Object:PropertyChange:accessible-name 0`,
		`The link is copied. Object:StateChanged:showing 1`,
		`The browser did not open. Object:StateChanged:showing 1`,
		`The browser did not open. Object:PropertyChange:accessible-name 0`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("told\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestDisclosure reads a disclosure's title as a toggle button that says
// whether it is open and when it has the keyboard, and what it holds
// after it once open.
func TestDisclosure(t *testing.T) {
	test.NewTempApp(t)
	d := look.NewDisclosure("Developer options", widget.NewLabel("MCP revision"))
	w := test.NewWindow(container.NewVBox(widget.NewEntry(), d))
	w.SetTitle("Add server")
	w.Resize(fyne.NewSize(400, 300))
	w.Canvas().FocusNext()
	w.Canvas().FocusNext()
	w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	got := lines(buildOf(w).root, 0)
	want := []string{`application "App"`, `  frame "Add server"`, `    entry "" editable`,
		`    toggle button "Developer options" focused expanded [click]`, `    label "MCP revision" text="MCP revision"`}
	if !slices.Equal(got, want) {
		t.Errorf("the tree reads\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestSelectOpen reads a drop-down's open list as the arrows move
// through it: the option they are on is focused (Fyne keeps it to
// itself); once one is chosen, the drop-down has the keyboard again and
// says it.
func TestSelectOpen(t *testing.T) {
	test.NewTempApp(t)
	s := widget.NewSelect([]string{"System", "Light", "Dark"}, nil)
	s.SetSelected("System")
	w := test.NewWindow(container.NewVBox(s))
	w.Resize(fyne.NewSize(300, 300))
	w.Canvas().Focus(s)
	s.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	for _, want := range []string{"System", "Light"} {
		w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
		if n := buildOf(w).focused(); n == nil || n.role != RoleMenuItem || n.name != want {
			t.Errorf("the focused node is %+v, want the option %q", n, want)
		}
	}
	w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if n := buildOf(w).focused(); n == nil || n.role != RoleComboBox || n.text != "Light" {
		t.Errorf("once chosen the focused node is %+v, want the drop-down saying Light", n)
	}
}

// barItem stands for the item of Fyne's menu bar that has the keyboard
// once the person opened the menu bar: its Menu field and Child method
// are what the GLFW driver's has.
type barItem struct {
	widget.BaseWidget
	Menu  *fyne.Menu
	child *widget.Menu
}

func (i *barItem) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(widget.NewLabel(i.Menu.Label))
}
func (i *barItem) Child() *widget.Menu     { return i.child }
func (i *barItem) FocusGained()            {}
func (i *barItem) FocusLost()              {}
func (i *barItem) TypedRune(rune)          {}
func (i *barItem) TypedKey(*fyne.KeyEvent) {}

// TestMenuBarOpen reads the window's menu that the person opened from the
// keyboard as focused, then the item the arrows reach in it, which Orca
// says as they move.
func TestMenuBarOpen(t *testing.T) {
	test.NewTempApp(t)
	menu := fyne.NewMenu("Elicit Desk", fyne.NewMenuItem("History…", func() {}), fyne.NewMenuItem("Settings…", func() {}))
	item := &barItem{Menu: menu, child: widget.NewMenu(menu)}
	item.ExtendBaseWidget(item)
	w := test.NewWindow(container.NewVBox(item))
	w.SetMainMenu(fyne.NewMainMenu(menu))
	w.Resize(fyne.NewSize(300, 300))
	w.Canvas().Focus(item)
	for _, want := range []struct {
		role Role
		name string
	}{{RoleMenu, "Elicit Desk"}, {RoleMenuItem, "History…"}, {RoleMenuItem, "Settings…"}} {
		if want.role == RoleMenuItem {
			item.child.ActivateNext()
		}
		if n := buildOf(w).focused(); n == nil || n.role != want.role || n.name != want.name {
			t.Errorf("the focused node is %+v, want the %s %q", n, want.role, want.name)
		}
	}
}

// TestTable reads a table a row at a time, each row named by its cells
// after their headings, the row the arrows are on focused and the
// selected one marked.
func TestTable(t *testing.T) {
	data := [][]string{{"19:42:01", "tools/call"}, {"19:42:02", "elicitation/create"}, {"19:42:05", "ok"}}
	fill := func(table *widget.Table) {
		table.Length = func() (int, int) { return len(data), 2 }
		table.CreateCell = func() fyne.CanvasObject { return widget.NewLabel("") }
		table.UpdateCell = func(id widget.TableCellID, o fyne.CanvasObject) { o.(*widget.Label).SetText(data[id.Row][id.Col]) }
		table.ShowHeaderRow = true
		table.CreateHeader = func() fyne.CanvasObject { return widget.NewLabel("") }
		table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
			o.(*widget.Label).SetText([]string{"Time", "Method"}[id.Col])
		}
	}
	plain := &widget.Table{}
	fill(plain)
	plain.ExtendBaseWidget(plain)
	named := &namedTable{}
	fill(&named.Table)
	named.ExtendBaseWidget(named)
	for _, tt := range []struct {
		name   string
		shown  fyne.Focusable // the table, or what extends it
		table  *widget.Table
		listed string
	}{
		{"Fyne's", plain, plain, `    list ""`},
		{"extended and named", named, &named.Table, `    list "Messages"`}, // Traffic's
	} {
		t.Run(tt.name, func(t *testing.T) {
			test.NewTempApp(t)
			w := test.NewWindow(tt.shown.(fyne.CanvasObject))
			w.SetTitle("Traffic")
			w.Resize(fyne.NewSize(500, 300))
			tt.table.Select(widget.TableCellID{Row: 2, Col: 0})
			w.Canvas().Focus(tt.shown)
			tt.shown.TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
			got := lines(buildOf(w).root, 0)
			want := []string{`application "App"`, `  frame "Traffic"`, tt.listed,
				`      list item "Time 19:42:01, Method tools/call" [click]`,
				`      list item "Time 19:42:02, Method elicitation/create" focused [click]`,
				`      list item "Time 19:42:05, Method ok" selected [click]`}
			if !slices.Equal(got, want) {
				t.Errorf("the tree reads\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// namedTable extends Fyne's table, as Traffic's does, and names it.
type namedTable struct{ widget.Table }

func (n *namedTable) AccessibilityLabel() string             { return "Messages" }
func (n *namedTable) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleContainer }

// TestHintSaidOnce drops the text under a field that the field says as its
// description: it is read when the field gets the keyboard, not again as
// text of its own (which a dialog reads as it opens); other text stays.
func TestHintSaidOnce(t *testing.T) {
	test.NewTempApp(t)
	hint := "Quoted as in a terminal: 'my file' is one argument."
	w := test.NewWindow(container.NewVBox(newField("Command line", hint, ""), widget.NewLabel(hint), widget.NewLabel("Added to the server's environment.")))
	w.SetTitle("Add server")
	w.Resize(fyne.NewSize(500, 300))
	got := lines(buildOf(w).root, 0)
	want := []string{`application "App"`, `  frame "Add server"`, `    entry "Command line" desc="Quoted as in a terminal: 'my file' is one argument." editable`,
		`    label "Added to the server's environment." text="Added to the server's environment."`}
	if !slices.Equal(got, want) {
		t.Errorf("the tree reads\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestLongTable reads at most listMost rows of a long table, around the
// one the arrows are on: the newest messages, at Traffic's end, are read.
func TestLongTable(t *testing.T) {
	test.NewTempApp(t)
	const rows = 3 * listMost
	table := widget.NewTable(func() (int, int) { return rows, 1 },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(id widget.TableCellID, o fyne.CanvasObject) {
			o.(*widget.Label).SetText(fmt.Sprintf("message %d", id.Row))
		})
	w := test.NewWindow(table)
	w.Resize(fyne.NewSize(300, 300))
	table.Select(widget.TableCellID{Row: rows - 1, Col: 0})
	w.Canvas().Focus(table)
	n := buildOf(w).focused()
	if n == nil || n.name != fmt.Sprintf("message %d", rows-1) {
		t.Errorf("the focused node is %+v, want the last row", n)
	}
	if list := n.parent; len(list.children) != listMost {
		t.Errorf("%d rows read, want %d", len(list.children), listMost)
	}
}
