package atspi

import (
	"cmp"
	"reflect"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// A node is one object a screen reader sees: a window, a control, a piece
// of text. The tree of nodes is rebuilt from the windows' widgets on the
// UI goroutine (see tree.build) and read from the bus goroutine, never
// changed after it is built: a change builds a new tree.
type node struct {
	id       uint64 // stable for the object it stands for, while that object lives
	role     Role
	name     string
	desc     string
	text     string // what the Text interface reads: an entry's value, a label's words
	states   States
	actions  []action
	edit     func(change func(old string) string) // sets the text to what change makes of it; nil when it cannot be edited
	focus    func()                               // gives the node the keyboard; nil when it takes none
	chooser  bool                                 // its children are options, one chosen (Selection)
	parent   *node
	children []*node
	index    int // in parent.children

	// pos and size are where the node is in its window, in pixels;
	// origin is where a window is on the screen.
	pos    fyne.Position
	size   fyne.Size
	origin fyne.Position
}

// action is something a screen reader can do to a node: click a button,
// tick a box, pick an option. do runs on the UI goroutine.
type action struct {
	name string
	do   func()
}

// Parent is a widget made of parts a screen reader reads one by one, in
// the order Parts gives. Fyne lets no one but its drivers look inside a
// widget, so a widget that holds other widgets says what they are.
type Parent interface {
	AccessibleParts() []fyne.CanvasObject
}

// Dialog is what a window shows that asks the person something (whether
// to quit, a server's request), however its window wraps it: the window
// is a dialog, whose words a screen reader reads as it opens, not a
// frame, of which it says only the title.
type Dialog interface {
	AccessibleDialog()
}

// Listing holds a list and names it (Titled), and says which of its rows
// is selected (Selection), which Fyne's list keeps to itself. It gives
// the list and what takes the keyboard for it: the list, or a widget
// that extends it.
type Listing interface {
	AccessibleList() (*widget.List, fyne.Focusable)
}

// Highlighter says which row of a list the arrow keys are on, and
// whether the list has the keyboard, which Fyne keeps to itself.
type Highlighter interface {
	Highlighted() (row int, ok bool)
}

// Focuser is a control read as one whose keyboard focus is a widget
// inside it (a tool's row, focused on its Call button): the node is
// focused while that widget is.
type Focuser interface {
	AccessibleFocus() fyne.Focusable
}

// Selection says which row of a list is selected.
type Selection interface {
	AccessibleSelected() (row int, ok bool)
}

// Titled is a control whose name is not its value: a form field is called
// by its title ("Email (required)") and holds what was typed.
type Titled interface {
	AccessibleTitle() string
}

// Described is a control with more to say after its name: a field's hint,
// or its error once it has one.
type Described interface {
	AccessibleDescription() string
}

// OneOf is a group of options of which one may be chosen, drawn as one
// widget: each option becomes a radio button of its own.
type OneOf interface {
	AccessibleOptions() (options []string, selected int)
	AccessibleChoose(i int)
}

// Status is text that tells of a change the person did not ask to be
// told by moving the keyboard: a link copied, a browser that did not open,
// a request the server gave up. It reads as a notification, which Orca
// speaks when it shows and each time its words change.
type Status interface {
	AccessibleStatus()
}

// Expander is a button that shows and hides what it heads (a
// disclosure's title): a toggle button, expanded or not.
type Expander interface {
	AccessibleExpanded() bool
}

// Invalid is a control that knows its value is refused.
type Invalid interface {
	AccessibleInvalid() bool
}

// key is what a node stands for: a window, an object, or the i-th option
// of an object. It keeps a node's id across rebuilds.
type key struct {
	of any
	i  int
}

// listMost is the most items of a list a screen reader is given: a list
// is read by making its rows anew (Fyne makes only those on screen), and
// History may hold thousands.
const listMost = 200

// builder makes one tree. ids carries over from the tree before, so an
// object keeps its id (and its D-Bus path) while it is shown; so do the
// rows made to read lists by.
type builder struct {
	ids, kept  map[key]uint64
	rows, made map[any][]fyne.CanvasObject // a list's rows, a table's cells or headings
	next       uint64                      // the last id given
	canvas     fyne.Canvas
	// label and hint name the controls of a form item being walked that
	// do not name themselves: the item's text and hint.
	label, hint string
	focused     fyne.Focusable
	scale       float32
	at          fyne.Position // where the object being walked is in its window
	asks        bool          // the window's content holds a Dialog, however wrapped
}

// newBuilder is a builder that keeps prev's ids and rows, if any.
func newBuilder(prev *tree) *builder {
	b := &builder{ids: map[key]uint64{}, kept: map[key]uint64{}, rows: map[any][]fyne.CanvasObject{}, made: map[any][]fyne.CanvasObject{}}
	if prev != nil {
		b.ids, b.rows, b.next = prev.ids, prev.rows, prev.next
	}
	return b
}

func (b *builder) node(k key, role Role, name string) *node {
	id, ok := b.ids[k]
	if !ok {
		b.next++
		id = b.next
	}
	b.kept[k] = id
	return &node{id: id, role: role, name: name}
}

func (b *builder) add(parent, child *node) {
	child.parent = parent
	child.index = len(parent.children)
	parent.children = append(parent.children, child)
}

// place sets where n is in its window: where the object being walked is,
// with o's size.
func (b *builder) place(n *node, o fyne.CanvasObject) {
	n.pos = fyne.NewPos(b.at.X*b.scale, b.at.Y*b.scale)
	s := o.Size()
	n.size = fyne.NewSize(s.Width*b.scale, s.Height*b.scale)
}

// window builds the node of w: its title, then what it shows, then what
// floats over it (a dialog, a drop-down's menu). Only the active window's
// focused object is focused: each window keeps one.
func (b *builder) window(w fyne.Window, active bool) *node {
	c := w.Canvas()
	n := b.node(key{of: w}, RoleFrame, w.Title())
	n.states = n.states.With(StateEnabled, StateSensitive, StateVisible, StateShowing, StateResizable)
	b.canvas, b.focused = c, nil
	if active {
		n.states = n.states.With(StateActive)
		b.focused = c.Focused()
	}
	b.scale = c.Scale()
	n.size = fyne.NewSize(c.Size().Width*b.scale, c.Size().Height*b.scale)
	if m := w.MainMenu(); m != nil {
		b.menuBar(n, m)
	}
	b.asks = false
	b.walk(n, c.Content())
	if b.asks {
		n.role = RoleDialog
	}
	for _, o := range c.Overlays().List() {
		d := b.node(key{of: o}, RoleDialog, "")
		d.states = d.states.With(StateVisible, StateShowing, StateModal)
		b.at = o.Position()
		b.place(d, o)
		b.at = fyne.Position{}
		b.walk(d, o)
		if len(d.children) > 0 {
			d.name = d.children[0].name
			b.add(n, d)
		}
	}
	return n
}

// menuBar adds a window's menus: Fyne draws them outside its content.
func (b *builder) menuBar(parent *node, m *fyne.MainMenu) {
	bar := b.node(key{of: m}, RoleMenuBar, "")
	bar.states = States(0).With(StateEnabled, StateSensitive, StateVisible, StateShowing)
	open, on := menuOpen(b.focused)
	for _, menu := range m.Items {
		n := b.menu(menu)
		if menu == open { // the keyboard is in it: on its item the arrows reached, else on it
			n.states = n.states.With(StateFocused)
			for _, item := range n.children {
				if on != "" && item.name == on {
					n.states = n.states.Without(StateFocused)
					item.states = item.states.With(StateFocused)
				}
			}
		}
		b.add(bar, n)
	}
	b.add(parent, bar)
}

// menuOpen is the window's menu that has the keyboard, and the label of
// its item the arrow keys are on ("" for none), when the person opened
// the menu bar (Alt): Fyne focuses a bar item of its own, which holds
// the menu (its Menu field) and shows it (Child). nil when f is no such
// item.
func menuOpen(f fyne.Focusable) (*fyne.Menu, string) {
	item, ok := f.(interface{ Child() *widget.Menu })
	if !ok || reflect.ValueOf(f).Kind() != reflect.Pointer {
		return nil, ""
	}
	field := reflect.ValueOf(f).Elem().FieldByName("Menu")
	if !field.IsValid() || !field.CanInterface() {
		return nil, ""
	}
	m, _ := field.Interface().(*fyne.Menu)
	if m == nil {
		return nil, ""
	}
	label, _ := activeLabel(item.Child())
	return m, label
}

func (b *builder) menu(m *fyne.Menu) *node {
	n := b.node(key{of: m}, RoleMenu, m.Label)
	n.states = States(0).With(StateEnabled, StateSensitive, StateVisible, StateShowing, StateSelectable)
	for _, it := range m.Items {
		if it.IsSeparator {
			continue
		}
		if it.ChildMenu != nil {
			b.add(n, b.menu(it.ChildMenu))
			continue
		}
		item := b.node(key{of: it}, RoleMenuItem, it.Label)
		item.states = States(0).With(StateVisible, StateShowing, StateSelectable)
		if !it.Disabled {
			item.states = item.states.With(StateEnabled, StateSensitive)
		}
		if it.Checked {
			item.states = item.states.With(StateCheckable, StateChecked)
		}
		if it.Action != nil && !it.Disabled {
			item.actions = []action{{"click", it.Action}}
		}
		b.add(n, item)
	}
	return n
}

// list adds the items of l, each named by the words its row shows.
func (b *builder) list(k key, l *widget.List) *node {
	n := b.node(k, RoleList, "")
	n.states = States(0).With(StateVisible, StateShowing, StateEnabled, StateSensitive, StateFocusable)
	if l.Length == nil || l.CreateItem == nil || l.UpdateItem == nil {
		return n
	}
	count := min(l.Length(), listMost)
	rows := b.rows[l]
	for len(rows) < count {
		rows = append(rows, l.CreateItem())
	}
	b.made[l] = rows
	for i := range count {
		l.UpdateItem(i, rows[i])
		item := b.node(key{of: l, i: i + 1}, RoleListItem, b.words(rows[i]))
		item.states = States(0).With(StateVisible, StateShowing, StateEnabled, StateSensitive, StateSelectable, StateFocusable)
		item.actions = []action{{"click", func() { l.Select(i) }}}
		b.add(n, item)
	}
	return n
}

// headings stands for a table's column headings among the objects the
// builder makes to read them by.
type headings struct{ of *widget.Table }

// table adds the rows of t, read as a list's items (a table of messages
// is read a message at a time), each named by its cells' words after
// their columns' headings; the row the arrow keys are on is focused while
// t has the keyboard, and the row of the selected cell is selected. o is
// t or a widget extending it, which takes the keyboard for it and may
// name it (fyne.Accessible).
func (b *builder) table(k key, t *widget.Table, o fyne.CanvasObject) *node {
	n := b.node(k, RoleList, accessibleLabel(o, ""))
	n.states = States(0).With(StateVisible, StateShowing, StateEnabled, StateSensitive, StateFocusable)
	if t.Length == nil || t.CreateCell == nil || t.UpdateCell == nil {
		return n
	}
	rows, cols := t.Length()
	on, focused, selected := tableState(t)
	// At most listMost rows, around the one the arrows are on: Traffic's
	// newest messages are at its end.
	first := max(0, min(on-listMost/2, rows-listMost))
	last := min(rows, first+listMost)
	heads := make([]string, cols)
	if t.CreateHeader != nil && t.UpdateHeader != nil {
		made := b.rows[headings{t}]
		for len(made) < cols {
			made = append(made, t.CreateHeader())
		}
		b.made[headings{t}] = made
		for c := range cols {
			t.UpdateHeader(widget.TableCellID{Row: -1, Col: c}, made[c])
			heads[c] = b.words(made[c])
		}
	}
	cells := b.rows[t]
	for len(cells) < (last-first)*cols {
		cells = append(cells, t.CreateCell())
	}
	b.made[t] = cells
	for r := first; r < last; r++ {
		var said []string
		for c := range cols {
			cell := cells[(r-first)*cols+c]
			t.UpdateCell(widget.TableCellID{Row: r, Col: c}, cell)
			if words := b.words(cell); words != "" {
				said = append(said, strings.TrimSpace(heads[c]+" "+words))
			}
		}
		item := b.node(key{of: t, i: r + 1}, RoleListItem, strings.Join(said, ", "))
		item.states = States(0).With(StateVisible, StateShowing, StateEnabled, StateSensitive, StateSelectable, StateFocusable)
		if r == selected {
			item.states = item.states.With(StateSelected)
		}
		if f, ok := o.(fyne.Focusable); ok && focused && r == on && f == b.focused {
			item.states = item.states.With(StateFocused)
		}
		item.actions = []action{{"click", func() { t.Select(widget.TableCellID{Row: r, Col: 0}) }}}
		b.add(n, item)
	}
	return n
}

// words is what o says, its nodes' names joined.
func (b *builder) words(o fyne.CanvasObject) string {
	said := &node{}
	b.walk(said, o)
	var out []string
	for _, w := range said.children {
		if w.name != "" {
			out = append(out, w.name)
		}
	}
	return strings.Join(out, ", ")
}

// tableState is the row of t the arrow keys are on, whether t has the
// keyboard, and the row of its selected cell (-1 for none), which Fyne
// keeps in unexported fields.
func tableState(t *widget.Table) (on int, focused bool, selected int) {
	v := reflect.ValueOf(t).Elem()
	row := func(cell reflect.Value) int { // a TableCellID's Row, -1 when Fyne changed it
		if cell.Kind() != reflect.Struct {
			return -1
		}
		if r := cell.FieldByName("Row"); r.CanInt() {
			return int(r.Int())
		}
		return -1
	}
	on, selected = row(v.FieldByName("currentHighlight")), -1
	if f := v.FieldByName("focused"); f.Kind() == reflect.Bool {
		focused = f.Bool() && on >= 0
	}
	if s := v.FieldByName("selectedCell"); s.Kind() == reflect.Pointer && !s.IsNil() {
		selected = row(s.Elem())
	}
	return on, focused, selected
}

// form adds each item of f: its label, then its widget, whose controls
// take the label's text as their name and its hint as their description.
func (b *builder) form(k key, f *widget.Form) *node {
	n := b.node(k, RolePanel, "")
	n.states = States(0).With(StateVisible, StateShowing)
	for _, item := range f.Items {
		if item.Text != "" {
			if l := b.text(key{of: item}, item.Text); l != nil {
				b.add(n, l)
			}
		}
		label, hint := b.label, b.hint
		b.label, b.hint = item.Text, item.HintText
		b.walk(n, item.Widget)
		b.label, b.hint = label, hint
	}
	return n
}

// tabs adds a tab list, each tab a page tab, and the open tab's content.
func (b *builder) tabs(k key, t *container.AppTabs) *node {
	n := b.node(k, RolePanel, "")
	n.states = States(0).With(StateVisible, StateShowing)
	list := b.node(key{of: t, i: -1}, RolePageTabList, "")
	list.states = n.states.With(StateEnabled, StateSensitive)
	for _, item := range t.Items {
		tab := b.node(key{of: item}, RolePageTab, item.Text)
		tab.states = list.states.With(StateSelectable)
		if item == t.Selected() {
			tab.states = tab.states.With(StateSelected)
		}
		tab.actions = []action{{"click", func() { t.Select(item) }}}
		b.add(list, tab)
	}
	b.add(n, list)
	if sel := t.Selected(); sel != nil {
		b.walk(n, sel.Content)
	}
	return n
}

// walk adds the nodes o makes under parent. Each object's position is
// its parent's, so the walk adds them up as it goes: asking Fyne where
// each object is searches the whole window each time.
func (b *builder) walk(parent *node, o fyne.CanvasObject) {
	if o == nil || !o.Visible() {
		return
	}
	if _, ok := o.(Dialog); ok {
		b.asks = true
	}
	outer := b.at
	b.at = b.at.Add(o.Position())
	defer func() { b.at = outer }()
	if n := b.object(o); n != nil {
		if n.role == RoleLabel && describes(parent, n.name) {
			return // a field's hint under it, which the field says as its description
		}
		b.place(n, o)
		b.add(parent, n)
		parent = n
		if n.role != RolePanel {
			return // a control reads as one: its parts are drawn, not said
		}
	}
	for _, child := range parts(o) {
		b.walk(parent, child)
	}
}

// parts is what o holds that a screen reader reads, in reading order:
// what it says it holds, a container's objects, a split's two sides, or
// the Content of a scroll, a pop-up, a card or any other holder.
func parts(o fyne.CanvasObject) []fyne.CanvasObject {
	if p, ok := o.(Parent); ok {
		return p.AccessibleParts()
	}
	if c, ok := o.(*fyne.Container); ok {
		return inReadingOrder(c.Objects)
	}
	if s := as[container.Split](o); s != nil {
		return []fyne.CanvasObject{s.Leading, s.Trailing}
	}
	return content(o)
}

// canvasObject is the type of a field that holds a canvas object.
var canvasObject = reflect.TypeFor[fyne.CanvasObject]()

// content is what a holder shows: the object in its exported Content
// field, its own or one it embeds, as Fyne's holders have (among them
// the overlay a modal pop-up is shown in, of an internal package).
func content(o fyne.CanvasObject) []fyne.CanvasObject {
	v := reflect.ValueOf(o)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	f := v.Elem().FieldByName("Content")
	if !f.IsValid() || f.Type() != canvasObject || f.IsNil() {
		return nil
	}
	return []fyne.CanvasObject{f.Interface().(fyne.CanvasObject)}
}

// object is the node o makes itself, or nil when o only holds others (a
// container) or says nothing (a rectangle, an icon).
func (b *builder) object(o fyne.CanvasObject) *node {
	k := key{of: o}
	focusable, _ := o.(fyne.Focusable)
	n := b.control(k, o)
	if n == nil {
		return nil
	}
	if l := as[widget.Label](o); l != nil && l.Selectable {
		// Fyne gives the keyboard to an object inside the label (for
		// Ctrl+C), which is no node: the label is read when Tab reaches it.
		n.states = n.states.With(StateFocusable)
		if selecting(l, b.focused) {
			n.states = n.states.With(StateFocused)
		}
	}
	if f, ok := o.(Focuser); ok && focusable == nil {
		focusable = f.AccessibleFocus()
		n.states = n.states.With(StateFocusable)
	}
	if n.role == RoleLabel && takesFocus(o) {
		// Text that holds the keyboard (a request window's key hold) is
		// read when it gets it: what it says is why typing does nothing.
		n.states = n.states.With(StateFocusable)
	}
	if n.states.Has(StateFocusable) && focusable != nil {
		if focusable == b.focused && !slices.ContainsFunc(n.children, func(c *node) bool { return c.states.Has(StateFocused) }) {
			n.states = n.states.With(StateFocused) // not when a row it holds says it has the keyboard
		}
		c := b.canvas
		n.focus = func() { c.Focus(focusable) }
	}
	if _, ok := o.(Status); ok && n.role == RoleLabel {
		n.role = RoleNotification
	}
	if d, ok := o.(Described); ok {
		n.desc = d.AccessibleDescription()
	} else if n.states.Has(StateFocusable) {
		n.desc = b.hint
	}
	if v, ok := o.(Invalid); ok && v.AccessibleInvalid() {
		n.states = n.states.With(StateInvalidEntry)
	}
	return n
}

// control maps the widgets Fyne has, and those that embed them, to
// nodes; other widgets say what they are through fyne.Accessible.
func (b *builder) control(k key, o fyne.CanvasObject) *node {
	// title is what names a control: its own title, else the form
	// item's label, else what it shows (a check's text, a placeholder).
	titled := func() string {
		if t, ok := o.(Titled); ok {
			return t.AccessibleTitle()
		}
		return ""
	}
	title := func(shown string) string { return cmp.Or(titled(), b.label, shown) }
	live := States(0).With(StateVisible, StateShowing)
	enabled := func(d interface{ Disabled() bool }) States {
		if d.Disabled() {
			return live
		}
		return live.With(StateEnabled, StateSensitive, StateFocusable)
	}
	tap := func() {
		if t, ok := o.(fyne.Tappable); ok {
			t.Tapped(&fyne.PointEvent{})
		}
	}

	if one, ok := o.(OneOf); ok {
		n := b.node(k, RolePanel, title(""))
		n.chooser = true
		n.states = live.With(StateEnabled, StateSensitive)
		if d, ok := o.(interface{ Disabled() bool }); ok && d.Disabled() {
			n.states = live
		}
		options, selected := one.AccessibleOptions()
		for i, opt := range options {
			r := b.node(key{of: o, i: i + 1}, RoleRadioButton, opt)
			r.states = n.states.With(StateCheckable, StateFocusable)
			if i == selected {
				r.states = r.states.With(StateChecked)
			}
			r.actions = []action{{"click", func() { one.AccessibleChoose(i) }}}
			b.place(r, o)
			b.add(n, r)
		}
		// The group takes the keyboard as one: the option it is on,
		// the chosen one or the first, has it.
		if f, ok := o.(fyne.Focusable); ok && f == b.focused && len(n.children) > 0 {
			n.children[max(selected, 0)].states = n.children[max(selected, 0)].states.With(StateFocused)
		}
		return n
	}
	if e := as[widget.Entry](o); e != nil {
		n := b.node(k, RoleEntry, title(e.PlaceHolder))
		n.text = e.Text
		if e.Password {
			n.role = RolePasswordText
			n.text = strings.Repeat("•", len([]rune(e.Text)))
		}
		n.states = enabled(e).With(StateSingleLine)
		if e.MultiLine {
			n.states = n.states.Without(StateSingleLine).With(StateMultiLine)
		}
		if !e.Disabled() {
			n.states = n.states.With(StateEditable)
			// From the text as it is when the edit runs: the tree's may
			// be a moment old, and a password's reads as bullets.
			n.edit = func(change func(string) string) { e.SetText(change(e.Text)) }
		}
		return n
	}
	if c := as[widget.Check](o); c != nil {
		n := b.node(k, RoleCheckBox, title(""))
		if titled() == "" && c.Text != "" {
			n.name = c.Text // the words beside the box name it, as a label does
		}
		n.states = enabled(c).With(StateCheckable)
		if c.Checked {
			n.states = n.states.With(StateChecked)
		}
		n.actions = []action{{"click", tap}}
		return n
	}
	if s := as[widget.Select](o); s != nil {
		n := b.node(k, RoleComboBox, title(s.PlaceHolder))
		n.chooser = true
		n.text = s.Selected
		n.states = enabled(s).With(StateHasPopup)
		for i, opt := range s.Options {
			item := b.node(key{of: o, i: i + 1}, RoleMenuItem, opt)
			item.states = n.states.Without(StateFocusable, StateHasPopup).With(StateSelectable)
			if opt == s.Selected {
				item.states = item.states.With(StateSelected)
			}
			item.actions = []action{{"click", func() { s.SetSelected(opt) }}}
			b.place(item, o)
			b.add(n, item)
		}
		// Open, its menu has the keyboard: the option the arrows are on
		// is focused, which Orca reads as they move.
		if menu, ok := b.focused.(*widget.PopUpMenu); ok && opened(s, menu) {
			if label, ok := activeLabel(menu.Menu); ok {
				for _, item := range n.children {
					if item.name == label {
						item.states = item.states.With(StateFocused)
					}
				}
			}
		}
		return n
	}
	if lw, ok := o.(Listing); ok {
		l, keyboard := lw.AccessibleList()
		n := b.list(k, l)
		n.name = title("")
		if s, ok := o.(Selection); ok {
			if row, ok := s.AccessibleSelected(); ok && row >= 0 && row < len(n.children) {
				n.children[row].states = n.children[row].states.With(StateSelected)
			}
		}
		if keyboard == b.focused { // the list it holds has the keyboard
			// on the row the arrows reached, which Orca reads as they move
			row, ok := 0, false
			if h, is := o.(Highlighter); is {
				row, ok = h.Highlighted()
			}
			if ok && row >= 0 && row < len(n.children) {
				n.children[row].states = n.children[row].states.With(StateFocused)
			} else {
				n.states = n.states.With(StateFocused)
			}
		}
		c := b.canvas
		n.focus = func() { c.Focus(keyboard) }
		return n
	}
	if l := as[widget.List](o); l != nil {
		return b.list(k, l)
	}
	if t := as[widget.Table](o); t != nil {
		return b.table(k, t, o)
	}
	if f := as[widget.Form](o); f != nil {
		return b.form(k, f)
	}
	if t := as[container.AppTabs](o); t != nil {
		return b.tabs(k, t)
	}
	if btn := as[widget.Button](o); btn != nil {
		n := b.node(k, RolePushButton, accessibleLabel(o, btn.Text))
		if t, ok := o.(Titled); ok {
			n.name = t.AccessibleTitle() // an icon's, say, whose label is its file's name
		}
		n.states = enabled(btn)
		n.actions = []action{{"click", tap}}
		if x, ok := o.(Expander); ok {
			n.role = RoleToggleButton
			n.states = n.states.With(StateExpandable)
			if x.AccessibleExpanded() {
				n.states = n.states.With(StateExpanded, StatePressed)
			}
		}
		return n
	}
	if l := as[widget.Hyperlink](o); l != nil {
		n := b.node(k, RoleLink, l.Text)
		n.states = live.With(StateEnabled, StateSensitive, StateFocusable)
		n.actions = []action{{"jump", tap}}
		return n
	}
	if l := as[widget.Label](o); l != nil {
		return b.text(k, l.Text)
	}
	if r := as[widget.RichText](o); r != nil {
		return b.richText(k, r)
	}
	if t, ok := o.(*canvas.Text); ok {
		return b.text(k, t.Text)
	}
	if c := as[widget.Card](o); c != nil && c.Title != "" {
		n := b.node(k, RolePanel, c.Title)
		n.states = live
		return n
	}
	if a, ok := o.(fyne.Accessible); ok {
		switch a.AccessibilityRole() {
		case fyne.AccessibleRoleButton:
			n := b.node(k, RolePushButton, a.AccessibilityLabel())
			n.states = live.With(StateEnabled, StateSensitive)
			if _, ok := o.(fyne.Focusable); ok {
				n.states = n.states.With(StateFocusable)
			}
			n.actions = []action{{"click", tap}}
			return n
		case fyne.AccessibleRoleLink:
			n := b.node(k, RoleLink, a.AccessibilityLabel())
			n.states = live.With(StateEnabled, StateSensitive)
			n.actions = []action{{"jump", tap}}
			return n
		case fyne.AccessibleRoleText:
			if parts(o) != nil {
				return nil // its parts say it, one by one
			}
			return b.text(k, a.AccessibilityLabel())
		}
	}
	return nil
}

// opened reports whether menu is s's open list of options, which Fyne
// keeps in an unexported field.
func opened(s *widget.Select, menu *widget.PopUpMenu) bool {
	v := reflect.ValueOf(s).Elem().FieldByName("popUp")
	return v.Kind() == reflect.Pointer && !v.IsNil() && v.Pointer() == reflect.ValueOf(menu).Pointer()
}

// activeLabel is the label of the item of m that the arrow keys are on,
// which Fyne keeps in an unexported field, if one is.
func activeLabel(m *widget.Menu) (string, bool) {
	active := reflect.ValueOf(m).Elem().FieldByName("activeItem")
	if active.Kind() != reflect.Pointer || active.IsNil() {
		return "", false
	}
	item := active.Elem().FieldByName("Item")
	if item.Kind() != reflect.Pointer || item.IsNil() {
		return "", false
	}
	return item.Elem().FieldByName("Label").String(), true
}

// describes reports whether words are the description of a control
// among parent's children: said when the control gets the keyboard, they
// are not said again as text of their own (a dialog's text, read as it
// opens, would hold every field's hint out of context).
func describes(parent *node, words string) bool {
	words = strings.TrimSpace(words)
	return words != "" && slices.ContainsFunc(parent.children, func(c *node) bool {
		return c.states.Has(StateFocusable) && strings.TrimSpace(c.desc) == words
	})
}

// selecting reports whether f, the window's focused object, is the one
// inside l that Fyne focuses for a selectable label: its unexported
// selection, compared by address, as nothing else tells it.
func selecting(l *widget.Label, f fyne.Focusable) bool {
	sel := reflect.ValueOf(l).Elem().FieldByName("selection")
	v := reflect.ValueOf(f)
	return f != nil && sel.Kind() == reflect.Pointer && !sel.IsNil() && v.Kind() == reflect.Pointer && sel.Pointer() == v.Pointer()
}

// takesFocus reports whether o takes the keyboard now.
func takesFocus(o fyne.CanvasObject) bool {
	if _, ok := o.(fyne.Focusable); !ok {
		return false
	}
	d, ok := o.(fyne.Disableable)
	return !ok || !d.Disabled()
}

// text is a node of words a person reads and cannot change.
func (b *builder) text(k key, words string) *node {
	if strings.TrimSpace(words) == "" {
		return nil
	}
	n := b.node(k, RoleLabel, words)
	n.text = words
	n.states = States(0).With(StateVisible, StateShowing, StateEnabled, StateSensitive)
	return n
}

// paragraph is a block of a rich text: a heading, a paragraph, a list
// item, a code block.
type paragraph struct {
	words   string
	heading bool
}

// paragraphs is the blocks of rich text segs, in order.
func paragraphs(segs []widget.RichTextSegment) []paragraph {
	var out []paragraph
	var line strings.Builder
	heading := false
	flush := func() {
		if w := strings.TrimSpace(line.String()); w != "" {
			out = append(out, paragraph{words: w, heading: heading})
		}
		line.Reset()
		heading = false
	}
	for _, seg := range segs {
		switch seg := seg.(type) {
		case *widget.TextSegment:
			// Markdown's heading is inline text of a heading's size, and
			// an empty block after it ends the line.
			size := seg.Style.SizeName
			heading = heading || size == theme.SizeNameHeadingText || size == theme.SizeNameSubHeadingText
			line.WriteString(seg.Text)
			if !seg.Inline() {
				flush()
			}
		case *widget.HyperlinkSegment:
			line.WriteString(seg.Text)
		case *widget.ParagraphSegment:
			flush()
			out = append(out, paragraphs(seg.Texts)...)
		case *widget.ListSegment:
			flush()
			for _, item := range seg.Items {
				for _, p := range paragraphs([]widget.RichTextSegment{item}) {
					p.words = "• " + p.words
					out = append(out, p)
				}
			}
		case *widget.CodeBlockSegment:
			flush()
			if w := strings.TrimSpace(seg.Text); w != "" {
				out = append(out, paragraph{words: w})
			}
		}
	}
	flush()
	return out
}

// richText is a node for each block of r: one label, or a panel of them.
func (b *builder) richText(k key, r *widget.RichText) *node {
	blocks := paragraphs(r.Segments)
	if len(blocks) == 1 && !blocks[0].heading {
		return b.text(k, blocks[0].words)
	}
	n := b.node(k, RolePanel, "")
	n.states = States(0).With(StateVisible, StateShowing)
	for i, p := range blocks {
		t := b.text(key{of: r, i: i + 1}, p.words)
		if t == nil {
			continue
		}
		if p.heading {
			t.role = RoleHeading
		}
		b.add(n, t)
	}
	return n
}

// inReadingOrder is objects top to bottom, then leading to trailing, as
// laid out: a Border container holds its centre first.
func inReadingOrder(objects []fyne.CanvasObject) []fyne.CanvasObject {
	sorted := slices.Clone(objects)
	slices.SortStableFunc(sorted, func(a, b fyne.CanvasObject) int {
		pa, pb := a.Position(), b.Position()
		return cmp.Or(cmp.Compare(pa.Y, pb.Y), cmp.Compare(pa.X, pb.X))
	})
	return sorted
}

// accessibleLabel is what o says of itself, or fallback.
func accessibleLabel(o fyne.CanvasObject, fallback string) string {
	if a, ok := o.(fyne.Accessible); ok {
		if l := a.AccessibilityLabel(); l != "" {
			return l
		}
	}
	return fallback
}

// as finds the T in o: o itself, or a T o embeds (the way Fyne widgets are
// extended), at any depth. It returns nil when o holds none.
func as[T any](o fyne.CanvasObject) *T {
	if t, ok := any(o).(*T); ok {
		return t
	}
	v := reflect.ValueOf(o)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	return embedded[T](v.Elem())
}

func embedded[T any](v reflect.Value) *T {
	want := reflect.TypeFor[T]()
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if !f.Anonymous || f.Type.Kind() != reflect.Struct {
			continue
		}
		if f.Type == want {
			return v.Field(i).Addr().Interface().(*T)
		}
		if t := embedded[T](v.Field(i)); t != nil {
			return t
		}
	}
	return nil
}
