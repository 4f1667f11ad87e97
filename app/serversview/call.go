package serversview

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/a11y"
	"github.com/elicitdesk/elicitdesk/app/hostsview"
	"github.com/elicitdesk/elicitdesk/app/keys"
	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/forms/formview"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/desktop/xwin"
	"github.com/elicitdesk/elicitdesk/servers"
)

// callWindow is where one tool of one server is called: its arguments,
// entered in a form or as JSON, then the call running, and its result.
type callWindow struct {
	w      *Window
	key    string
	server string
	tool   servers.Tool
	win    fyne.Window
	schema *forms.Schema // nil when a form cannot show the arguments
	args   map[string]any

	argsPage           fyne.CanvasObject
	argsBody, outPage  *fyne.Container
	asJSON             *widget.Check
	form               *forms.Form
	view               *formview.View
	jsonText           *escEntry
	jsonErr            *widget.Label
	spinner            *widget.Activity
	heading            *a11y.Status // how the call stands, which a screen reader says as it changes
	output             *widget.Label
	links, linksHint   *widget.Label
	asked              *fyne.Container // what hosts do with the forms the call asked
	edit, copy, cancel *look.Button
	retry              *look.Button

	state  callState          // what render shows
	stop   context.CancelFunc // ends the running call
	gen    uint64             // calls started, so a late answer is dropped
	closed chan struct{}      // closed with the window
}

// callStage is where a call window stands.
type callStage int

const (
	callArgs       callStage = iota // the arguments, before a call or to edit them
	callRunning                     // a call runs
	callEnded                       // the call ended: its result, its error, or cancelled
	callNeedsLinks                  // the server needs links opened first (-32042), then a retry
)

// callState is a call window as a plain value, which render shows.
type callState struct {
	stage     callStage
	heading   string
	tone      widget.Importance // the heading's
	output    string            // the result or the error, shown through untrusted
	links     string            // callNeedsLinks: the links, a block each
	linksDone bool              // callNeedsLinks: the person dealt with them, or there is nothing to wait for
	jsonError string            // callArgs: why the JSON typed cannot be called or shown as a form
}

// callLook is what a callState shows.
type callLook struct {
	args                   bool // the arguments page, else the result page
	spinner, cancel, retry bool // shown
	edit, copy             bool // enabled
	retryText              string
	retryPrimary           bool
	linksHint              string // "" hides it, as links "" hides the links
}

// look computes what the window shows in state s.
func (s callState) look() callLook {
	switch s.stage {
	case callArgs:
		return callLook{args: true}
	case callRunning:
		return callLook{spinner: true, cancel: true}
	}
	l := callLook{retry: true, edit: true, copy: true, retryText: "Call again"}
	if s.stage == callNeedsLinks {
		l.retryText = "Retry call"
		l.retryPrimary = s.linksDone
		l.linksHint = "Waiting for you to deal with the link(s) in their own window…"
		if s.linksDone {
			l.linksHint = "Done with the links: retry the call."
		}
	}
	return l
}

// render shows c.state.
func (c *callWindow) render() {
	l := c.state.look()
	look.Visible(c.argsPage, l.args)
	look.Visible(c.outPage, !l.args)
	look.Visible(c.spinner, l.spinner)
	if l.spinner {
		c.spinner.Start()
	} else {
		c.spinner.Stop()
	}
	c.heading.Importance = c.state.tone
	c.heading.SetText(c.state.heading)
	c.output.SetText(c.state.output)
	c.links.SetText(c.state.links)
	look.Visible(c.links, c.state.links != "")
	c.linksHint.SetText(l.linksHint)
	look.Visible(c.linksHint, l.linksHint != "")
	c.jsonErr.SetText(c.state.jsonError)
	look.Visible(c.jsonErr, c.state.jsonError != "")
	look.Visible(c.cancel, l.cancel)
	look.Visible(c.retry, l.retry)
	look.Enabled(c.edit, l.edit)
	look.Enabled(c.copy, l.copy)
	c.retry.SetText(l.retryText)
	c.retry.Importance = widget.MediumImportance
	if l.retryPrimary {
		c.retry.Importance = widget.HighImportance
	}
	c.retry.Refresh()
	c.win.Content().Refresh() // texts changed height
}

// openCall shows the call window of a tool, bringing an open one forward.
func (w *Window) openCall(server string, t servers.Tool) {
	key := server + "\x00" + t.Name
	if c, ok := w.calls[key]; ok {
		c.win.Show()
		c.win.RequestFocus()
		return
	}
	c := &callWindow{w: w, key: key, server: server, tool: t, stop: func() {}, closed: make(chan struct{})}
	var why string
	c.schema, why = argsForm(t)
	c.win = w.app.NewWindow(fmt.Sprintf("Call %s on %s — Elicit Desk", toolTitle(t).Headline(60), untrusted.Text(server).Headline(40)))
	at := w.deps.Screen()
	c.win.Resize(at.Open(fyne.NewSize(callWidth, callHeight)).Size) // first, so wrapped texts are measured at this width
	c.build(why)
	c.win.SetOnClosed(c.closing)
	// Ctrl+W and Escape close the window, ending a running call; the
	// form's own inputs do the same through its Cancel.
	keys.Close(c.win, nil)
	w.calls[key] = c
	xwin.Dialog(c.win) // floated at its size by a tiling window manager, as the questions it asks are
	at.Show(c.win, fyne.NewSize(callWidth, callHeight))
	c.focusForm() // the person asked for the window: it takes the keyboard
}

// A call window's preferred size, in Fyne units.
const callWidth, callHeight = 820, 620

func (c *callWindow) build(why string) {
	title := newTextLabel()
	title.TextStyle = fyne.TextStyle{Bold: true}
	title.SetText(toolTitle(c.tool).Line())
	sub := newTextLabel()
	sub.SetText("on " + untrusted.Text(c.server).Line())
	if toolTitle(c.tool) != c.tool.ShownName() {
		sub.SetText(c.tool.ShownName().Line() + " on " + untrusted.Text(c.server).Line())
	}
	sub.Importance = widget.LowImportance
	header := container.NewVBox(title, sub)
	if c.tool.Description != "" {
		d := newTextLabel()
		d.SetText(c.tool.Description.Block())
		header.Add(d)
	}
	header.Add(widget.NewSeparator())

	// The arguments page: a form, or a JSON editor.
	c.jsonText = newEscEntry(passOn{win: c.win, escape: c.win.Close}, true)
	c.jsonText.label = "Arguments as JSON"
	c.jsonText.TextStyle = fyne.TextStyle{Monospace: true}
	c.jsonText.SetText("{}")
	c.jsonText.OnChanged = func(string) {
		if c.state.jsonError != "" { // typing answers it
			c.setJSONError("")
		}
	}
	c.jsonErr = newTextLabel()
	c.jsonErr.Importance = widget.DangerImportance
	c.argsBody = container.NewStack()
	argsTop := container.NewVBox()
	if c.schema != nil {
		c.asJSON = widget.NewCheck("Enter the arguments as JSON", c.switchEditor)
		argsTop.Add(c.asJSON)
		c.showForm(forms.NewForm(c.schema))
	} else {
		l := newTextLabel()
		l.SetText(why)
		l.Importance = widget.WarningImportance
		argsTop.Add(l)
		c.showJSON("{}")
	}
	c.argsPage = container.NewBorder(argsTop, nil, nil, nil, c.argsBody)

	// The result page.
	c.spinner = widget.NewActivity()
	c.heading = a11y.NewStatus()
	c.heading.Wrapping = fyne.TextWrapOff // beside the spinner, in an HBox
	c.heading.TextStyle = fyne.TextStyle{Bold: true}
	c.links = newValueLabel()
	c.links.TextStyle = fyne.TextStyle{Monospace: true}
	c.linksHint = newTextLabel()
	c.output = newTextLabel() // Copy copies it
	c.output.TextStyle = fyne.TextStyle{Monospace: true}
	c.edit = look.NewButton("Edit arguments", theme.DocumentCreateIcon(), c.editArgs)
	c.copy = look.NewButton("Copy", theme.ContentCopyIcon(), func() {
		c.w.app.Clipboard().SetContent(c.output.Text) // as shown: markers, not hidden characters
	})
	c.cancel = look.NewButton("Cancel call", theme.CancelIcon(), func() { c.stop() })
	c.retry = look.NewButton("Retry call", theme.ViewRefreshIcon(), func() { c.start(c.args) })
	closeBtn := look.NewButton("Close", nil, c.win.Close)
	c.asked = container.NewVBox()
	outTop := container.NewVBox(container.NewHBox(c.spinner, c.heading), c.links, c.linksHint, c.asked)
	outBar := container.NewHBox(c.edit, c.copy, layout.NewSpacer(), c.cancel, c.retry, closeBtn)
	c.outPage = container.NewBorder(outTop, outBar, nil, nil,
		widget.NewCard("", "", container.NewScroll(c.output)))

	pages := container.NewStack(c.argsPage, c.outPage)
	c.win.SetContent(container.NewPadded(keys.Border(header, nil, nil, nil, pages)))
	c.render()
}

// showForm puts a form in the arguments page; Accept calls the tool.
// Ctrl+Enter calls from anywhere while the form shows, and the keyboard
// goes to its first field (or to Call, when it has none) once the
// window shows it.
func (c *callWindow) showForm(f *forms.Form) {
	c.form = f
	var v *formview.View
	v = formview.New(f, "Fill in the arguments, then call the tool.", formview.Options{ToolCall: true,
		MayAnswer: func() bool { return c.view == v && !c.asJSON.Checked && c.state.stage == callArgs }})
	c.view = v
	v.Keys(c.win.Canvas())
	defer c.focusForm()
	c.view.OnResult = func(res forms.Result) {
		if res.Action != forms.Accept {
			c.win.Close()
			return
		}
		args, err := parseArgs(string(res.Content))
		if err != nil { // the form only sends objects; keep the person's input
			c.showForm(f)
			return
		}
		c.start(args)
	}
	c.argsBody.Objects = []fyne.CanvasObject{c.view}
	c.argsBody.Refresh()
}

// focusForm gives the form the keyboard, once the window shows it.
func (c *callWindow) focusForm() {
	if c.view != nil && c.win.Content() != nil {
		c.view.FocusFirst(c.win.Canvas())
	}
}

// showJSON puts the JSON editor in the arguments page.
func (c *callWindow) showJSON(text string) {
	c.jsonText.SetText(text) // which answers an error shown
	cancel := look.NewButton("Cancel", theme.CancelIcon(), c.win.Close)
	call := look.NewButton("Call", theme.MediaPlayIcon(), c.callJSON)
	call.Importance = widget.HighImportance
	bottom := container.NewVBox(c.jsonErr, container.NewHBox(layout.NewSpacer(), cancel, call))
	c.argsBody.Objects = []fyne.CanvasObject{container.NewBorder(nil, bottom, nil, nil, c.jsonText)}
	c.argsBody.Refresh()
}

// callJSON calls the tool with the JSON typed, or says what is wrong with it.
func (c *callWindow) callJSON() {
	args, err := parseArgs(c.jsonText.Text)
	if err != nil {
		c.setJSONError("Not a JSON object: " + untrusted.Text(err.Error()).Line())
		return
	}
	c.start(args)
}

// switchEditor moves what was entered between the form and the JSON
// editor. JSON the form cannot take keeps the editor open with the reason.
func (c *callWindow) switchEditor(toJSON bool) {
	if toJSON {
		args, _ := parseArgs(string(c.form.Content()))
		c.showJSON(untrusted.JSON([]byte(argsJSON(args)))) // keys are the server's property names
		return
	}
	f, err := c.formWith(c.jsonText.Text)
	if err != nil {
		c.setJSONChecked(true)
		c.setJSONError("The form cannot show this JSON: " + untrusted.Text(err.Error()).Line())
		return
	}
	c.showForm(f)
}

// setJSONError shows why the JSON typed cannot be used ("" clears it).
func (c *callWindow) setJSONError(why string) {
	c.state.jsonError = why
	c.render()
}

// setJSONChecked sets the editor toggle without switching editors.
func (c *callWindow) setJSONChecked(on bool) {
	c.asJSON.OnChanged = nil
	c.asJSON.SetChecked(on)
	c.asJSON.OnChanged = c.switchEditor
}

// formWith is a new form filled with the arguments in text.
func (c *callWindow) formWith(text string) (*forms.Form, error) {
	args, err := parseArgs(text)
	if err != nil {
		return nil, err
	}
	f := forms.NewForm(c.schema)
	return f, fillForm(f, args)
}

// editArgs goes back to the arguments, filled with the last call's.
func (c *callWindow) editArgs() {
	c.stop()
	c.state = callState{stage: callArgs}
	c.render()
	text := argsJSON(c.args)
	if c.schema != nil && !c.asJSON.Checked {
		if f, err := c.formWith(text); err == nil {
			c.showForm(f)
			return
		}
		c.setJSONChecked(true)
	}
	c.showJSON(text)
}

// start calls the tool with args in the background.
func (c *callWindow) start(args map[string]any) {
	c.stop()
	c.gen++
	gen := c.gen
	c.args = args
	c.state = callState{stage: callRunning, heading: "Calling… Questions the tool asks open in their own windows.", tone: widget.MediumImportance}
	c.asked.RemoveAll()
	c.render()
	// From Call, which the arguments page hid with it: a keyboard user
	// goes on from the one thing to do now, not from nothing.
	c.win.Canvas().Focus(c.cancel)
	ctx, cancel := context.WithCancel(context.Background())
	c.stop = cancel
	go func() {
		res, who, err := c.w.deps.Servers.CallTool(ctx, c.server, c.tool.Name, args, false)
		cancel()
		c.w.do(func() {
			if gen == c.gen {
				c.finished(res, err, who)
			}
		})
	}()
}

// finished shows how a call ended; who is the server that answered.
func (c *callWindow) finished(res *servers.ToolResult, err error, who servers.Identity) {
	c.stop = func() {}
	if ue, ok := servers.AsURLRequired(err); ok {
		c.needLinks(who, ue, err)
	} else {
		c.state = endedState(res, err)
	}
	c.render()
	if f := c.win.Canvas().Focused(); f == nil || f == fyne.Focusable(c.cancel) {
		c.win.Canvas().Focus(c.retry) // from Cancel call, hidden now
	}
}

// endedState is how a call that returned res or err reads.
func endedState(res *servers.ToolResult, err error) callState {
	switch {
	case errors.Is(err, context.Canceled):
		return callState{stage: callEnded, heading: "Cancelled.", tone: widget.WarningImportance}
	case err != nil:
		return callState{stage: callEnded, heading: "The call failed.", tone: widget.DangerImportance, output: untrusted.Text(err.Error()).Block()}
	case res.IsError:
		return callState{stage: callEnded, heading: "The tool reported an error.", tone: widget.DangerImportance, output: resultText(res).Block()}
	}
	return callState{stage: callEnded, heading: "Result", tone: widget.SuccessImportance, output: resultText(res).Block()}
}

// maxAsked bounds the forms a call window says hosts' handling of.
const maxAsked = 4

// formAsked says, folded, what each host does with the form of a question
// the running call asked: a server's author sees it where they try their
// tool.
func (c *callWindow) formAsked(message untrusted.Text, s *forms.Schema) {
	if len(c.asked.Objects) >= 2*maxAsked {
		return
	}
	what := newTextLabel()
	what.SetText("The tool asked: " + message.Headline(80))
	c.asked.Add(what)
	c.asked.Add(hostsview.FormPanel(s))
	c.win.Content().Refresh()
}

// needLinks takes a -32042 answer into c.state: the links go to ShowLinks,
// shown the same way as URL-mode requests, and Retry becomes the thing to
// do once the person has dealt with them.
func (c *callWindow) needLinks(who servers.Identity, ue *servers.URLRequiredError, err error) {
	links, bad := ue.Links()
	var lines []string
	for _, l := range links {
		lines = append(lines, l.Message.Block()+"\n  "+l.URL.Line())
	}
	for _, b := range bad {
		lines = append(lines, "Not shown, the link is not valid: "+untrusted.Text(b.Error()).Line())
	}
	waits := len(links) > 0 && c.w.deps.ShowLinks != nil
	c.state = callState{stage: callNeedsLinks, heading: "The server needs you to open a link first, then to retry the call.",
		tone: widget.WarningImportance, output: untrusted.Text(err.Error()).Block(), links: strings.Join(lines, "\n"), linksDone: !waits}
	if !waits {
		return
	}
	done := c.w.deps.ShowLinks(who, links)
	gen := c.gen
	go func() {
		select {
		case <-done:
			c.w.do(func() {
				if gen == c.gen && c.state.stage == callNeedsLinks {
					c.state.linksDone = true
					c.render()
				}
			})
		case <-c.closed:
		}
	}()
}

// closing ends a running call with its window.
func (c *callWindow) closing() {
	c.stop()
	c.gen++
	close(c.closed)
	delete(c.w.calls, c.key)
}
