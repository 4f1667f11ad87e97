// Package formview shows a forms.Form as native Fyne widgets. It only builds
// widgets and wires callbacks: every decision is the forms package's.
package formview

import (
	"fmt"
	"image/color"
	"os"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	appkeys "github.com/elicitdesk/elicitdesk/app/keys"
	applook "github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/app/modal"
	"github.com/elicitdesk/elicitdesk/app/wheel"
	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// helpWidth is the least width the help beside the buttons keeps (about
// 40 characters of its small text, two lines a sentence); narrower, it
// goes above them.
const helpWidth = 240

// secretWarning is shown beside fields that look like credentials.
const secretWarning = "This looks like a password, key or card number. Servers must not ask for these in a form: only answer if you trust this server."

// View is a form ready to fill in: fields with inline errors, a review of
// the exact JSON Accept sends, and the buttons that answer.
type View struct {
	widget.BaseWidget

	// OnResult receives the person's answer, once.
	OnResult func(forms.Result)

	m       *model
	shown   look // what the widgets show now
	rows    []row
	review  *widget.Label
	notSent *widget.Label     // under the review: booleans left out as not set
	card    *widget.Card      // holds the review under its heading
	promise *widget.Label     // what the review's JSON is, under its heading
	summary *widget.Label     // why Accept sent nothing
	help    fyne.CanvasObject // what the buttons do, in the summary's place
	buttons []*button
	bar     *fyne.Container
	win     fyne.Window // where Install put the view; nil when embedded
	may     func() bool // Options.MayAnswer
	// toolCall: the form holds a tool's arguments (Options.ToolCall).
	toolCall bool
	grow     func(dh float32) // Options.Grow
	asking   func()           // hides the question whether to discard the answers, while it shows
	content  *fyne.Container

	// What FullHeight measures and headLayout lays out.
	top      *fyne.Container   // the header, the message and warnings
	head     *container.Scroll // scrolls top when it takes too much
	body     fyne.CanvasObject // the split, or the words "No fields"
	fields   *wheel.Scroll     // nil without fields
	reviewed *container.Scroll
	split    *container.Split
}

// row is one field on screen.
type row struct {
	control
	hint    *widget.Label     // the field's description, or "" (a blank line kept for errors)
	err     *widget.Label     // shown in the hint's place
	outline *canvas.Rectangle // marks the control invalid, whatever its kind
	box     fyne.CanvasObject // the whole row
}

// Options adjust a View for its caller.
type Options struct {
	// Zone is the time zone date-time fields are entered in; nil means local.
	Zone *time.Location
	// Dates is how dates are shown and typed; the zero value means the
	// style of this process's locale (forms.LocaleOf(os.Getenv)).
	Dates forms.DateStyle
	// Header is shown above the message, such as who is asking.
	Header fyne.CanvasObject
	// ToolCall is a form the person fills in for their own tool call:
	// Call and Cancel, no Decline, and no schema lint.
	ToolCall bool
	// Replay, when set, shows a past request's form read-only from the
	// start, as Freeze leaves a form, with Replay heading the review in
	// place of what Accept would send: what its JSON was then.
	Replay string
	// MayAnswer tells whether a key may answer now: Enter in a field and
	// Ctrl+Enter anywhere accept only while it returns true, so that the
	// window can refuse keys meant for another one, such as typing that
	// began before it appeared. Nil always allows. The buttons always work.
	MayAnswer func() bool
	// Grow, when set, is told that the review, grown as the person fills
	// the form in, needs dh more height than it has: its window may make
	// the room, so that what Accept sends is seen whole, not scrolled.
	Grow func(dh float32)
}

// New builds the view of a form under a message from the server.
func New(f *forms.Form, message untrusted.Text, opts Options) *View {
	v := &View{m: newModel(f, opts.ToolCall), may: opts.MayAnswer, toolCall: opts.ToolCall, grow: opts.Grow}
	if opts.Zone == nil {
		opts.Zone = time.Local
	}
	if opts.Dates == (forms.DateStyle{}) {
		opts.Dates = forms.DateStyleFor(forms.LocaleOf(os.Getenv))
	}
	var boxes []fyne.CanvasObject
	labels := &labelColumn{}
	for i := range f.Schema.Fields {
		field := &f.Schema.Fields[i]
		k := keys{onEscape: v.escape, onAnswer: v.answer, onFocus: func(o fyne.CanvasObject) { v.follow(i, o) }, toWindow: v.toWindow}
		c := newControl(f, field, k, opts, func() { v.changed(i) })
		r := row{control: c, hint: widget.NewLabel(field.Description.Block()), err: widget.NewLabel("")}
		c.name(field, r.hint, r.err)
		r.hint.Wrapping, r.err.Wrapping = fyne.TextWrapWord, fyne.TextWrapWord
		r.hint.Importance, r.err.Importance = widget.LowImportance, widget.DangerImportance
		r.hint.SizeName, r.err.SizeName = theme.SizeNameCaptionText, theme.SizeNameCaptionText
		// An error fills the hint's room, at least a line, and is cut with
		// "…" past it: a longer one would push the fields below down under
		// the pointer. The Review names each field's whole error.
		r.err.Truncation = fyne.TextTruncateEllipsis
		r.err.Hide()
		r.outline = canvas.NewRectangle(color.Transparent)
		r.outline.StrokeWidth = theme.InputBorderSize() * 2
		r.outline.CornerRadius = theme.InputRadiusSize()
		r.outline.Hide()
		r.box = fieldBox(r, labels)
		v.rows = append(v.rows, r)
		boxes = append(boxes, r.box)
	}

	v.promise = widget.NewLabel("")
	v.promise.Wrapping = fyne.TextWrapWord
	v.review = widget.NewLabel("")
	v.review.TextStyle = fyne.TextStyle{Monospace: true}
	v.review.Wrapping = fyne.TextWrapWord // at spaces: a value too long for a line of its own still breaks, never hides
	v.notSent = widget.NewLabel("")
	v.notSent.Wrapping = fyne.TextWrapWord
	v.notSent.Importance = widget.LowImportance
	v.summary = widget.NewLabel("")
	v.summary.Importance = widget.DangerImportance
	v.summary.Wrapping = fyne.TextWrapWord

	var help fyne.CanvasObject = layout.NewSpacer()
	k := keys{onEscape: v.escape, onAnswer: v.answer, toWindow: v.toWindow}
	accept := newButton(k, v.m.words.send, theme.ConfirmIcon(), v.Accept)
	accept.Importance = widget.HighImportance
	cancel := newButton(k, "Cancel", nil, v.Cancel)
	if opts.ToolCall {
		v.buttons = []*button{cancel, accept}
	} else {
		decline := newButton(k, "Decline", nil, v.Decline)
		v.buttons = []*button{decline, cancel, accept}
		help = AnswerHelp()
	}
	buttons := make([]fyne.CanvasObject, len(v.buttons))
	for i, b := range v.buttons {
		buttons[i] = b
	}
	v.help = help
	// The summary shows in the help's place, beside the buttons (above
	// them in a narrow window): nothing moves, and no field scrolls away,
	// when Accept is refused.
	v.bar = applook.BesideOrBelow(func() float32 { return helpWidth }, container.New(tallest{}, help, container.New(snug{}, v.summary)),
		container.NewHBox(buttons...))

	top := container.NewVBox()
	if opts.Header != nil {
		top.Add(opts.Header)
	}
	if message != "" {
		msg := widget.NewLabel(message.Block())
		msg.Wrapping = fyne.TextWrapWord
		msg.TextStyle = fyne.TextStyle{Bold: true}
		top.Add(msg)
	}
	if w := warningsBox(f.Schema.Warnings); w != nil && !opts.ToolCall {
		top.Add(w)
	}
	var body fyne.CanvasObject = widget.NewLabel("No fields: " + accept.Text + " sends an empty answer.")
	if len(v.rows) > 0 {
		v.reviewed = container.NewVScroll(container.NewVBox(v.review, v.notSent))
		v.card = widget.NewCard("", "", container.NewBorder(reviewHeading(v.promise), nil, nil, nil, v.reviewed))
		v.fields = wheel.NewVScroll(container.NewPadded(container.NewVBox(boxes...)))
		v.split = container.NewHSplit(v.fields, v.card)
		v.split.Offset = 0.62
		body = v.split
	}
	// In reading order, which is Tab's: what is asked, the fields, then
	// the buttons. NewBorder would put the fields first, so that Tab from
	// the last field went up to the header before reaching the buttons.
	v.top, v.head, v.body = top, container.NewVScroll(top), body
	v.content = container.New(headLayout{v}, v.head, body, v.bar)
	// The first look set directly: Set* calls would build every renderer
	// now, which is most of the cost of a large form.
	v.shown = v.m.look()
	v.review.Text, v.review.TextStyle.Monospace = v.shown.review, v.shown.ready
	v.promise.Text = v.shown.promise
	v.notSent.Text = v.shown.notSent
	applook.Visible(v.notSent, v.shown.notSent != "")
	v.summary.Hide()
	v.ExtendBaseWidget(v)
	if opts.Replay != "" {
		v.m.replay = opts.Replay
		v.Freeze()
	}
	return v
}

// CreateRenderer implements fyne.Widget.
func (v *View) CreateRenderer() fyne.WidgetRenderer {
	return &viewRenderer{WidgetRenderer: widget.NewSimpleRenderer(v.content), content: v.content}
}

// viewRenderer lays the view's content out again each time the view is,
// even at the same size. With the header first, as Tab needs it, a
// header that grows (a request gone stale shows a banner) in the same
// frame as a field or the review changes would otherwise keep its old
// place: Fyne 2.8.1's canvas (EnsureMinSize) remembers one container to
// lay out again at a time, and the change further on replaces it. The
// view itself is laid out again then, as its size needed changes.
type viewRenderer struct {
	fyne.WidgetRenderer
	content *fyne.Container
}

func (r *viewRenderer) Layout(size fyne.Size) {
	r.content.Resize(size)
	r.content.Layout.Layout(r.content.Objects, size)
}

// FullHeight is the height the view needs, at its current width, to show
// every field without scrolling: a window sizes itself to it.
func (v *View) FullHeight() float32 {
	return v.MinSize().Height + v.top.MinSize().Height - v.head.MinSize().Height +
		v.bodyHeight() - v.body.MinSize().Height
}

// bodyHeight is the height the fields and the review need, at the
// current width, to show all they hold.
func (v *View) bodyHeight() float32 {
	if v.fields == nil {
		return v.body.MinSize().Height
	}
	return max(v.split.MinSize().Height, unscrolled(v.fields, &v.fields.Scroll), unscrolled(v.card, v.reviewed))
}

// unscrolled is the height o needs to show whole what its scroll s holds.
func unscrolled(o fyne.CanvasObject, s *container.Scroll) float32 {
	return o.MinSize().Height - s.MinSize().Height + s.Content.MinSize().Height
}

// headLayout is a border layout of the header on top, the body and the
// bar at the bottom, in which the header takes no more than a third of
// the height when the body needs the room: a long message or a server's
// long name scroll there, and the fields keep the rest. It is taller
// only where the body has all it needs.
type headLayout struct{ v *View }

func (l headLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	v, gap := l.v, theme.Padding()
	w := max(v.head.MinSize().Width, v.body.MinSize().Width, v.bar.MinSize().Width)
	return fyne.NewSize(w, v.head.MinSize().Height+gap+v.body.MinSize().Height+l.barHeight())
}

// barHeight is the room the bar takes below the body, its gap included:
// none once it is hidden (a frozen form), which the body takes instead of
// a blank strip.
func (l headLayout) barHeight() float32 {
	if !l.v.bar.Visible() {
		return 0
	}
	return theme.Padding() + l.v.bar.MinSize().Height
}

func (l headLayout) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	v, gap := l.v, theme.Padding()
	v.top.Resize(fyne.NewSize(size.Width, v.top.Size().Height)) // wraps the message at the width
	bar := v.bar.MinSize().Height
	rest := size.Height - l.barHeight() - gap // for the header and the body
	head := min(v.top.MinSize().Height, max(rest-v.bodyHeight(), size.Height/3))
	head = max(head, min(v.head.MinSize().Height, rest))
	v.head.Move(fyne.NewPos(0, 0))
	v.head.Resize(fyne.NewSize(size.Width, head))
	v.body.Move(fyne.NewPos(0, head+gap))
	v.body.Resize(fyne.NewSize(size.Width, max(0, rest-head)))
	v.bar.Move(fyne.NewPos(0, size.Height-bar))
	v.bar.Resize(fyne.NewSize(size.Width, bar))
}

// fieldBox lays out one field as a row of the form: on the left its
// label over its hint, in whose place an error shows without moving
// anything below; on the right its control, outlined when invalid, then
// the secret warning; a wide control goes under its label instead. One
// line of input with its label and hint beside it keeps a form of a few
// fields whole on a small screen.
func fieldBox(r row, labels *labelColumn) fyne.CanvasObject {
	label := r.field.Label()
	if r.field.MustFill() {
		label += " *"
	}
	l := widget.NewLabel(label.Line())
	l.TextStyle = fyne.TextStyle{Bold: true}
	l.Wrapping = fyne.TextWrapWord
	left := container.New(snug{}, l, container.New(hintRoom{}, r.hint, r.err))
	if c, ok := r.object.(*check); ok {
		// A check box before its label, as everywhere: the label is the
		// box's, and a click on it ticks the box.
		return container.New(boxFirst{}, container.NewStack(c, r.outline), newTapArea(left, c.toggle))
	}
	labels.texts = append(labels.texts, l, r.hint)
	right := container.NewVBox(container.NewStack(r.object, r.outline))
	if r.field.Masked() {
		w := widget.NewLabelWithStyle(secretWarning, fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
		w.Importance = widget.WarningImportance
		w.Wrapping = fyne.TextWrapWord
		right.Add(w)
	}
	return container.New(fieldRow{labels: labels, wide: r.wide}, left, right)
}

// warningsBox lists the schema's warnings, folded, for developers.
func warningsBox(problems []forms.Problem) fyne.CanvasObject {
	if len(problems) == 0 {
		return nil
	}
	var text string
	for _, p := range problems {
		text += untrusted.Text(p.Path).Line() + ": " + untrusted.Text(p.Message).Line() + "\n"
	}
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	title := fmt.Sprintf("This form's schema has %d warnings", len(problems))
	if len(problems) == 1 {
		title = "This form's schema has 1 warning"
	}
	return widget.NewAccordion(widget.NewAccordionItem(title, l))
}

// changed runs after each edit of field i.
func (v *View) changed(i int) {
	v.m.touched[i] = true
	v.render()
}

// render shows the model's look: the one place widgets change state. It
// touches only what changed since the last look, so a keystroke in a
// large form does not redraw every row.
func (v *View) render() {
	l := v.m.look()
	for i, r := range v.rows {
		msg := l.rows[i].err
		if msg == v.shown.rows[i].err {
			continue
		}
		r.err.SetText(msg)
		if msg == "" {
			r.err.Hide()
			r.hint.Show()
			r.outline.Hide()
			continue
		}
		r.hint.Hide()
		r.err.Show()
		r.outline.StrokeColor = theme.Color(theme.ColorNameError)
		r.outline.Show()
		r.outline.Refresh()
	}
	if l.review != v.shown.review {
		v.review.TextStyle.Monospace = l.ready // JSON in code type, "Not ready" in words
		v.review.SetText(l.review)
	}
	if l.notSent != v.shown.notSent {
		v.notSent.SetText(l.notSent)
		applook.Visible(v.notSent, l.notSent != "")
	}
	if l.summary != v.shown.summary {
		v.summary.SetText(l.summary)
		applook.Visible(v.summary, l.summary != "")
		applook.Visible(v.help, l.summary == "")
	}
	if l.buttons != v.shown.buttons {
		for _, b := range v.buttons {
			if l.buttons {
				b.Enable()
			} else {
				b.Disable()
			}
		}
	}
	applook.Visible(v.bar, !v.m.frozen)
	if l.promise != v.shown.promise {
		v.promise.SetText(l.promise)
	}
	reviewed := l.review != v.shown.review || l.notSent != v.shown.notSent || l.promise != v.shown.promise
	v.shown = l
	if reviewed {
		v.makeRoom()
	}
}

// makeRoom asks the window (Options.Grow) for the height the review needs
// beyond what it has, at its width.
func (v *View) makeRoom() {
	if v.grow == nil || v.card == nil || v.card.Size().Height == 0 {
		return // not laid out yet: the window's first fit measures it
	}
	if dh := unscrolled(v.card, v.reviewed) - v.card.Size().Height; dh >= 1 {
		v.grow(dh)
	}
}

// Accept sends the content when the form is valid; otherwise it shows every
// error and focuses the first invalid field.
func (v *View) Accept() {
	if v.m.done {
		return
	}
	res, errs, err := v.m.form.Accept()
	if err != nil || len(errs) > 0 {
		v.m.attempted = true
		v.render()
		v.focusFirstInvalid(errs)
		return
	}
	v.finish(res)
}

// Decline answers that the person explicitly said no.
func (v *View) Decline() { v.finish(forms.Result{Action: forms.Decline}) }

// Cancel answers that the person dismissed the request without choosing.
func (v *View) Cancel() { v.finish(forms.Result{Action: forms.Cancel}) }

func (v *View) focusFirstInvalid(errs forms.FieldErrors) {
	c := fyne.CurrentApp().Driver().CanvasForObject(v)
	if c == nil {
		return
	}
	for _, r := range v.rows {
		if _, bad := errs[r.field.Name]; bad && r.focus != nil {
			c.Focus(r.focus)
			return
		}
	}
}

func (v *View) finish(res forms.Result) {
	if v.m.done {
		return
	}
	v.m.done = true
	if v.asking != nil {
		v.asking()
	}
	v.render()
	if v.OnResult != nil {
		v.OnResult(res)
	}
}

// Freeze ends the form without an answer, for a request that no longer
// waits for one: every input is disabled and the buttons go, while what was
// typed stays readable.
func (v *View) Freeze() {
	v.m.done, v.m.frozen = true, true
	if v.asking != nil {
		v.asking()
	}
	for _, r := range v.rows {
		disable(r.object)
	}
	v.render()
}

// disable disables o and everything inside it that can be.
func disable(o fyne.CanvasObject) {
	switch o := o.(type) {
	case fyne.Disableable:
		o.Disable()
	case *fyne.Container:
		for _, c := range o.Objects {
			disable(c)
		}
	}
}

// FocusFirst puts the cursor in the first field that takes typing; in a
// tool call's form without one, on Call.
func (v *View) FocusFirst(c fyne.Canvas) {
	for _, r := range v.rows {
		if r.focus != nil {
			c.Focus(r.focus)
			return
		}
	}
	if v.toolCall { // a call the person started, with nothing to fill in: Enter calls
		c.Focus(v.buttons[len(v.buttons)-1])
	}
}

// Install shows the view as the whole content of w: Escape and closing
// the window cancel (asking first when the person changed something), and
// Ctrl+Enter accepts from anywhere in the window while MayAnswer allows.
// It leaves the keyboard where it is: a window the app opens by itself
// must not take typing meant for another; FocusFirst gives it a field.
func (v *View) Install(w fyne.Window) {
	v.win = w
	w.SetContent(v)
	w.SetCloseIntercept(func() { v.leave(w.Close) })
	w.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if ev.Name == fyne.KeyEscape {
			v.escape()
		}
	})
	v.Keys(w.Canvas())
}

// Keys has Ctrl+Enter accept from anywhere in c while MayAnswer allows,
// as Install does, for a view that shares its window.
func (v *View) Keys(c fyne.Canvas) {
	for _, s := range answerShortcuts {
		c.AddShortcut(s, func(fyne.Shortcut) { v.answer() })
	}
}

// toWindow hands F1 to the window's own key handler once the view is
// installed (keys.ToWindow).
func (v *View) toWindow(ev *fyne.KeyEvent) bool {
	return v.win != nil && appkeys.ToWindow(v.win.Canvas(), ev)
}

// answer accepts for a key, Enter in a field or Ctrl+Enter: only while
// the window lets keys answer, and never under the question whether to
// discard the answers.
func (v *View) answer() {
	if v.m.frozen {
		v.toCanvas(fyne.KeyReturn)
		return
	}
	if v.asking == nil && (v.may == nil || v.may()) {
		v.Accept()
	}
}

// toCanvas hands key, typed in a field of a frozen form, to the window's
// own handler, which closes a window with nothing left to answer: the
// field, though frozen, has the keyboard if the person clicked it.
func (v *View) toCanvas(key fyne.KeyName) {
	if v.win == nil {
		return
	}
	if h := v.win.Canvas().OnTypedKey(); h != nil {
		h(&fyne.KeyEvent{Name: key})
	}
}

// follow scrolls the fields so that row i, whose control o (nil for the
// whole row) took the keyboard, shows whole: Tab never leaves the focus
// out of sight. A row taller than the fields' view shows o.
func (v *View) follow(i int, o fyne.CanvasObject) {
	if v.fields == nil {
		return
	}
	top, bottom := wheel.Span(&v.fields.Scroll, v.rows[i].box)
	if o != nil && bottom-top > v.fields.Size().Height {
		top, bottom = wheel.Span(&v.fields.Scroll, o)
	}
	wheel.Reveal(&v.fields.Scroll, top, bottom)
}

// escape cancels, asking first when that would lose the person's answers.
func (v *View) escape() {
	if v.m.frozen {
		v.toCanvas(fyne.KeyEscape)
		return
	}
	v.leave(func() {})
}

// leave cancels and then runs after; when the person changed something, it
// first asks whether to discard their answers, and does neither if they
// keep editing. Leaving again while asked keeps editing, so a second
// Escape never discards. A form already answered just runs after.
func (v *View) leave(after func()) {
	if v.asking != nil {
		v.asking()
		return
	}
	w := v.window()
	if v.m.done || !v.m.dirty() || w == nil {
		v.Cancel()
		after()
		return
	}
	text := "You changed this form. Leaving now cancels the request, telling the server you dismissed it, and loses what you entered."
	if v.toolCall {
		text = "You changed the arguments. Leaving now loses what you entered."
	}
	var hide func()
	keepEditing := func() {
		hide()
		v.asking = nil
	}
	discard := applook.NewButton("Discard", nil, func() {
		keepEditing()
		v.Cancel()
		after()
	})
	discard.Importance = widget.DangerImportance
	keep := applook.NewButton("Keep editing", nil, keepEditing)
	keep.Importance = widget.HighImportance
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	// The choice that loses nothing first: modal opens on it, and Escape
	// presses it.
	hide = modal.Show(w.Canvas(), "Discard your answers?", l, fyne.NewSize(460, 200), keep, discard)
	v.asking = keepEditing
}

// window is the window the view is in: the one Install was given, or
// else the one whose canvas shows it.
func (v *View) window() fyne.Window {
	if v.win != nil {
		return v.win
	}
	c := fyne.CurrentApp().Driver().CanvasForObject(v)
	for _, w := range fyne.CurrentApp().Driver().AllWindows() {
		if c != nil && w.Canvas() == c {
			return w
		}
	}
	return nil
}

// reviewHeading is "Review" over promise, drawn no larger than a request's
// question: a card's own title is the theme's largest heading, and a
// theme override per window to shrink it costs every window the parsing
// of its fonts again, kept for the life of the app.
func reviewHeading(promise *widget.Label) fyne.CanvasObject {
	title := widget.NewLabel("Review")
	title.SizeName = theme.SizeNameSubHeadingText
	title.TextStyle = fyne.TextStyle{Bold: true}
	return container.NewVBox(title, promise)
}
