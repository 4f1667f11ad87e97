// Package formview shows a forms.Form as native Fyne widgets. It only builds
// widgets and wires callbacks: every decision is the forms package's.
package formview

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/untrusted"
)

// secretWarning is shown beside fields that look like credentials.
const secretWarning = "This looks like a password, key or card number. Servers must not ask for these in a form: only answer if you trust this server."

// View is a form ready to fill in: fields with inline errors, a review of
// the exact JSON Accept sends, and the Accept, Decline and Cancel buttons.
type View struct {
	widget.BaseWidget

	// OnResult receives the person's answer, once.
	OnResult func(forms.Result)

	form     *forms.Form
	rows     []row
	review   *widget.Label
	card     *widget.Card  // holds review
	problem  *widget.Label // an error not tied to a field
	buttons  []*widget.Button
	bar      *fyne.Container
	attempts bool // Accept was pressed: show every error, touched or not
	done     bool
	content  fyne.CanvasObject
}

// row is one field on screen.
type row struct {
	control
	errLabel *widget.Label
	touched  bool
}

// Options adjust a View for its caller.
type Options struct {
	// Zone is the time zone date-time fields are entered in; nil means local.
	Zone *time.Location
	// Header is shown above the message, such as who is asking.
	Header fyne.CanvasObject
}

// New builds the view of a form under a message from the server.
func New(f *forms.Form, message untrusted.Text, opts Options) *View {
	v := &View{form: f}
	if opts.Zone == nil {
		opts.Zone = time.Local
	}
	k := keys{onEscape: v.Cancel, onEnter: v.Accept}

	var boxes []fyne.CanvasObject
	for i := range f.Schema.Fields {
		field := &f.Schema.Fields[i]
		idx := len(v.rows)
		c := newControl(f, field, k, opts.Zone, func() { v.changed(idx) })
		r := row{control: c, errLabel: widget.NewLabel("")}
		r.errLabel.Importance = widget.DangerImportance
		r.errLabel.Wrapping = fyne.TextWrapWord
		r.errLabel.Hide()
		v.rows = append(v.rows, r)
		boxes = append(boxes, v.fieldBox(r))
	}

	v.review = widget.NewLabel(v.reviewText())
	v.review.TextStyle = fyne.TextStyle{Monospace: true}
	v.review.Selectable = true
	v.problem = widget.NewLabel("")
	v.problem.Importance = widget.DangerImportance
	v.problem.Wrapping = fyne.TextWrapWord
	v.problem.Hide()

	accept := widget.NewButtonWithIcon("Accept", theme.ConfirmIcon(), v.Accept)
	accept.Importance = widget.HighImportance
	decline := widget.NewButtonWithIcon("Decline", theme.CancelIcon(), v.Decline)
	cancel := widget.NewButton("Cancel", v.Cancel)
	v.buttons = []*widget.Button{decline, cancel, accept}
	v.bar = container.NewHBox(layout.NewSpacer(), decline, cancel, accept)

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
	if w := warningsBox(f.Schema.Warnings); w != nil {
		top.Add(w)
	}
	bottom := container.NewVBox(v.problem, v.bar)
	var body fyne.CanvasObject = widget.NewLabel("No fields: Accept sends an empty answer.")
	if len(v.rows) > 0 {
		v.card = widget.NewCard("Review", "Accept sends exactly this JSON", container.NewScroll(v.review))
		fields := container.NewPadded(container.NewVBox(boxes...))
		split := container.NewHSplit(container.NewVScroll(fields), v.card)
		split.Offset = 0.62
		body = split
	}
	v.content = container.NewBorder(top, bottom, nil, nil, body)
	v.ExtendBaseWidget(v)
	return v
}

// CreateRenderer implements fyne.Widget.
func (v *View) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(v.content)
}

func (v *View) fieldBox(r row) fyne.CanvasObject {
	var box []fyne.CanvasObject
	// A checkbox's label cannot wrap: a long one shows whole above it.
	if r.field.Kind != forms.Boolean || short(r.field.Label()) != r.field.Label().Line() {
		label := r.field.Label()
		if r.field.Required {
			label += " *"
		}
		l := widget.NewLabel(label.Line())
		l.TextStyle = fyne.TextStyle{Bold: true}
		l.Wrapping = fyne.TextWrapWord
		box = append(box, l)
	}
	box = append(box, r.object)
	if r.field.Description != "" {
		d := widget.NewLabel(r.field.Description.Block())
		d.Wrapping = fyne.TextWrapWord
		d.Importance = widget.LowImportance
		box = append(box, d)
	}
	if r.field.Masked() {
		w := widget.NewLabelWithStyle(secretWarning, fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
		w.Importance = widget.WarningImportance
		w.Wrapping = fyne.TextWrapWord
		box = append(box, w)
	}
	return container.NewVBox(append(box, r.errLabel)...)
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
	title := fmt.Sprintf("This form's schema has %d warning(s)", len(problems))
	if len(problems) == 1 {
		title = "This form's schema has 1 warning"
	}
	return widget.NewAccordion(widget.NewAccordionItem(title, l))
}

// changed runs after each edit of field i.
func (v *View) changed(i int) {
	v.rows[i].touched = true
	v.problem.Hide()
	v.showError(i)
	v.refreshReview()
}

func (v *View) showError(i int) {
	r := &v.rows[i]
	msg := v.form.Error(r.field.Name)
	if msg == "" || !(r.touched || v.attempts) {
		r.errLabel.Hide()
		return
	}
	r.errLabel.SetText(msg)
	r.errLabel.Show()
}

func (v *View) refreshReview() { v.review.SetText(v.reviewText()) }

// reviewText is the content Accept would send, indented for reading, with
// masked fields masked here too.
func (v *View) reviewText() string {
	var out bytes.Buffer
	if err := json.Indent(&out, v.form.Review(), "", "  "); err != nil {
		return err.Error()
	}
	// Property names and choice values are the server's: escaped where
	// hidden, the JSON still reads as the exact value Accept sends.
	return untrusted.JSON(out.Bytes())
}

// Accept sends the content when the form is valid; otherwise it shows every
// error and focuses the first invalid field.
func (v *View) Accept() {
	if v.done {
		return
	}
	res, errs, err := v.form.Accept()
	if err != nil || len(errs) > 0 {
		v.attempts = true
		v.showErrors(errs, err)
		return
	}
	v.finish(res)
}

// Decline answers that the person explicitly said no.
func (v *View) Decline() { v.finish(forms.Result{Action: forms.Decline}) }

// Cancel answers that the person dismissed the request without choosing.
func (v *View) Cancel() { v.finish(forms.Result{Action: forms.Cancel}) }

func (v *View) showErrors(errs forms.FieldErrors, err error) {
	var first fyne.Focusable
	for i := range v.rows {
		v.showError(i)
		if msg, bad := errs[v.rows[i].field.Name]; bad {
			v.rows[i].errLabel.SetText(msg)
			v.rows[i].errLabel.Show()
			if first == nil {
				first = v.rows[i].focus
			}
		}
	}
	switch {
	case err != nil:
		v.problem.SetText(err.Error())
		v.problem.Show()
	case errs[""] != "":
		v.problem.SetText(errs[""])
		v.problem.Show()
	default:
		v.problem.SetText(fmt.Sprintf("Please correct %d field(s) before accepting.", len(errs)))
		v.problem.Show()
	}
	if first != nil {
		if c := fyne.CurrentApp().Driver().CanvasForObject(v); c != nil {
			c.Focus(first)
		}
	}
}

func (v *View) finish(res forms.Result) {
	if v.done {
		return
	}
	v.done = true
	for _, b := range v.buttons {
		b.Disable()
	}
	if v.OnResult != nil {
		v.OnResult(res)
	}
}

// Freeze ends the form without an answer, for a request that no longer
// waits for one: every input is disabled and the buttons go, while what was
// typed stays readable.
func (v *View) Freeze() {
	v.done = true
	for _, r := range v.rows {
		disable(r.object)
	}
	for _, b := range v.buttons {
		b.Disable()
	}
	v.bar.Hide()
	v.problem.Hide()
	if v.card != nil {
		v.card.SetSubTitle("Nothing was sent")
	}
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

// FocusFirst puts the cursor in the first field that takes typing.
func (v *View) FocusFirst(c fyne.Canvas) {
	for _, r := range v.rows {
		if r.focus != nil {
			c.Focus(r.focus)
			return
		}
	}
}

// Install shows the view as the whole content of w: closing the window is
// Cancel, Escape cancels and Enter accepts from anywhere in the window.
func (v *View) Install(w fyne.Window) {
	w.SetContent(v)
	w.SetCloseIntercept(func() {
		v.Cancel()
		w.Close()
	})
	w.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) {
		switch ev.Name {
		case fyne.KeyEscape:
			v.Cancel()
		case fyne.KeyReturn, fyne.KeyEnter:
			v.Accept()
		}
	})
	v.FocusFirst(w.Canvas())
}
