package serversview

import (
	"errors"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/app/modal"
	"github.com/elicitdesk/elicitdesk/app/wheel"
	"github.com/elicitdesk/elicitdesk/internal/base/cmdline"
	"github.com/elicitdesk/elicitdesk/servers/config"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// editor is the Add/Edit server dialog. It keeps what was typed, errors
// and all, until it is saved or cancelled.
type editor struct {
	w        *Window
	original string    // the entry's name when the dialog opened; "" adds one
	initial  entryForm // what it showed then: anything else is unsaved
	hide     func()    // closes the dialog

	name, command, cwd, url *escEntry
	env, headers            *secretInput
	transport, protocol     *escSelect
	disabled                *escCheck
	errs                    map[field]*widget.Label
	saveErr                 *widget.Label
	body                    *fyne.Container // laid out again as errors show
	scroll                  *container.Scroll
	keys                    passOn
	save                    *look.Button

	stdioRows, remoteRows []fyne.CanvasObject
}

// AddServer shows the window with the dialog for a new entry open.
func (w *Window) AddServer() {
	w.Show()
	w.addServer()
}

// addServer opens the dialog for a new entry.
func (w *Window) addServer() {
	w.openEditor("", entryForm{Transport: config.TransportStdio, Protocol: negotiate}, nil)
}

// editServer opens the dialog on the entry called name, as the file has it now.
func (w *Window) editServer(name string) {
	cfg, err := config.Load(w.deps.ConfigPath)
	if err != nil {
		w.showError("servers.json not read", err)
		return
	}
	s, ok := cfg.Server(name)
	if !ok {
		w.showError("server gone", errors.New("servers.json has no server called "+name+" any more"))
		return
	}
	w.openEditor(name, formFromEntry(s), s.Err)
}

// openEditor shows the dialog filled with f; entryErr is what is wrong with
// the entry in the file.
func (w *Window) openEditor(original string, f entryForm, entryErr error) {
	if w.editor != nil {
		return // one at a time: the open one has what was typed
	}
	e := &editor{w: w, original: original, initial: f, errs: map[field]*widget.Label{}}
	e.keys = passOn{win: w.win, escape: e.escape, focus: e.follow}
	e.name = e.entry(fieldName, f.Name, "my-server")
	e.command = e.entry(fieldCommand, f.CommandLine, "npx -y some-mcp-server")
	e.command.TextStyle = fyne.TextStyle{Monospace: true}
	e.cwd = e.entry(fieldCwd, f.Cwd, "Elicit Desk's own")
	e.env = e.secretLines(fieldEnv, f.Env, '=', "KEY=VALUE, one per line")
	e.url = e.entry(fieldURL, f.URL, "https://mcp.example.com/mcp")
	e.headers = e.secretLines(fieldHeaders, f.Headers, ':', "Authorization: Bearer …, one per line")

	var labels []string
	for _, t := range config.Transports() {
		labels = append(labels, transportText(t))
	}
	e.transport = newEscSelect(e.keys, labels)
	e.transport.SetSelected(transportText(f.Transport))
	e.transport.OnChanged = func(string) { e.showTransport() }
	e.protocol = newEscSelect(e.keys, protocolChoices())
	e.protocol.SetSelected(f.Protocol)
	e.disabled = newEscCheck(e.keys, "Keep the entry without connecting to it")
	e.disabled.SetChecked(f.Disabled)

	form := container.New(layout.NewFormLayout(),
		widget.NewLabel("Name"), e.withError(fieldName, e.name, ""),
		widget.NewLabel("Connects by"), e.transport,
	)
	e.stdioRows = addRows(form,
		widget.NewLabel("Command line"), e.withError(fieldCommand, e.command, "Quoted as in a terminal: "+cmdline.Join([]string{"my file"})+" is one argument. Nothing is expanded."),
		widget.NewLabel("Working directory"), e.withError(fieldCwd, e.cwd, ""),
		widget.NewLabel("Environment"), e.withError(fieldEnv, e.env.object, "Added to the server's environment."),
	)
	e.remoteRows = addRows(form,
		widget.NewLabel("URL"), e.withError(fieldURL, e.url, ""),
		widget.NewLabel("Headers"), e.withError(fieldHeaders, e.headers.object, "Sent with every request, one Name: value per line."),
	)
	addRows(form, layout.NewSpacer(), e.disabled)
	developer := look.NewDisclosure("Developer options", container.New(layout.NewFormLayout(),
		widget.NewLabel("MCP revision"), e.withError("", e.protocol, "Leave it on Automatic unless a server needs one revision of the MCP specification: a fixed one fails if the server does not speak it."),
	))
	if f.Protocol != negotiate {
		developer.Open() // a pinned revision is part of what the entry says
	}
	developer.OnToggled = func(open bool) {
		if open { // what it opened is below the form's end: into view
			e.scroll.Refresh()
			e.follow(developer)
		}
	}

	top := container.NewVBox()
	if entryErr != nil {
		l := newValueLabel()
		l.SetText("servers.json has problems with this entry:\n" + untrusted.Text(entryErr.Error()).Block())
		l.Importance = widget.DangerImportance
		top.Add(l)
	}
	e.saveErr = newValueLabel()
	e.saveErr.Importance = widget.DangerImportance
	e.saveErr.Hide()
	e.scroll = container.NewVScroll(container.NewVBox(form, developer))
	e.body = container.NewBorder(top, e.saveErr, nil, nil, e.scroll)
	labelInputs(e.body)

	title := "Add server"
	if original != "" {
		title = "Edit " + untrusted.Text(original).Line()
	}
	cancel := look.NewButton("Cancel", theme.CancelIcon(), e.close)
	e.save = look.NewButton("Save", theme.DocumentSaveIcon(), e.submit)
	e.save.Importance = widget.HighImportance
	e.showTransport()
	e.hide = modal.ShowEscape(w.win.Canvas(), title, e.body, fyne.NewSize(640, 620), e.escape, cancel, e.save)
	w.editor = e
	w.win.Canvas().Focus(e.name)
}

// follow scrolls the form so that o, which took the keyboard, shows:
// at scale 2 the form scrolls, and Tab must not move into fields out of
// sight.
func (e *editor) follow(o fyne.CanvasObject) {
	if e.scroll != nil { // nil while the dialog is built
		top, bottom := wheel.Span(e.scroll, o)
		wheel.Reveal(e.scroll, top, bottom)
	}
}

// addRows appends label and input pairs to a form and returns them.
func addRows(form *fyne.Container, objects ...fyne.CanvasObject) []fyne.CanvasObject {
	for _, o := range objects {
		form.Add(o)
	}
	return objects
}

// entry makes a one-line input whose error clears when it is edited, and
// on which Enter saves, as in a desktop's dialogs.
func (e *editor) entry(f field, text, placeholder string) *escEntry {
	in := newEscEntry(e.keys, false)
	e.prepare(in, f, text, placeholder)
	in.OnSubmitted = func(string) { e.save.Press() }
	return in
}

func (e *editor) prepare(in *escEntry, f field, text, placeholder string) {
	in.SetText(text)
	in.SetPlaceHolder(placeholder)
	in.OnChanged = func(string) { e.edited(f) }
}

// edited clears the error of an input that changed.
func (e *editor) edited(f field) {
	if l := e.errs[f]; l != nil {
		l.Hide()
	}
}

// withError puts a hint and a hidden error label under an input.
func (e *editor) withError(f field, in fyne.CanvasObject, hint string) fyne.CanvasObject {
	box := container.NewVBox(in)
	if i := firstInput(in); i != nil {
		i.setHint(hint)
	}
	if hint != "" {
		h := widget.NewLabel(hint)
		h.Wrapping = fyne.TextWrapWord
		h.Importance = widget.LowImportance
		h.SizeName = theme.SizeNameCaptionText
		box.Add(h)
	}
	if f != "" {
		l := widget.NewLabel("")
		l.Wrapping = fyne.TextWrapWord
		l.Importance = widget.DangerImportance
		l.Hide()
		e.errs[f] = l
		box.Add(l)
	}
	return box
}

// showTransport shows the inputs of the chosen transport only.
func (e *editor) showTransport() {
	stdio := e.form().Transport == config.TransportStdio
	for _, o := range e.stdioRows {
		look.Visible(o, stdio)
	}
	for _, o := range e.remoteRows {
		look.Visible(o, !stdio)
	}
	if e.body != nil {
		e.body.Refresh()
	}
}

// form is what the dialog holds now.
func (e *editor) form() entryForm {
	t := config.TransportStdio
	if i := slices.IndexFunc(config.Transports(), func(t config.Transport) bool { return transportText(t) == e.transport.Selected }); i >= 0 {
		t = config.Transports()[i]
	}
	return entryForm{
		Name:        e.name.Text,
		Transport:   t,
		CommandLine: e.command.Text,
		Cwd:         e.cwd.Text,
		Env:         e.env.text(),
		URL:         e.url.Text,
		Headers:     e.headers.text(),
		Protocol:    e.protocol.Selected,
		Disabled:    e.disabled.Checked,
	}
}

// submit saves the entry, or shows what stops it and keeps the dialog open.
func (e *editor) submit() {
	f := e.form()
	errs, err := saveEntry(e.w.deps.ConfigPath, e.original, f)
	defer e.body.Refresh()
	for k, l := range e.errs {
		l.SetText(errs[k])
		l.Hidden = errs[k] == ""
		l.Refresh()
	}
	switch {
	case err != nil:
		e.saveErr.SetText("servers.json was not saved: " + untrusted.Text(err.Error()).Block())
		e.saveErr.Show()
	case errs != nil:
		e.saveErr.SetText("Correct the fields marked in red, then save again.")
		e.saveErr.Show()
	default:
		e.w.selected = f.Name
		e.close()
		e.w.refresh()
	}
}

// escape closes the dialog, asking first when it holds unsaved changes.
func (e *editor) escape() {
	if e.form() == e.initial {
		e.close()
		return
	}
	modal.Confirm(e.w.win.Canvas(), "Discard your changes?", "What you changed in this dialog has not been saved.", "Keep editing", "Discard", e.close)
}

// close dismisses the dialog.
func (e *editor) close() {
	e.hide()
	if e.w.editor == e {
		e.w.editor = nil
	}
}
