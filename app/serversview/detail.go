package serversview

import (
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/app/modal"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/servers/config"
)

// detail is the Overview tab: the selected server's configuration beside
// what it reports, its state, last error and stderr, and the buttons that
// change its entry.
type detail struct {
	w         *Window
	content   fyne.CanvasObject
	body      *fyne.Container // laid out again as texts change
	stderrBox fyne.CanvasObject
	none      *widget.Label
	name      *widget.RichText
	target    *widget.Label
	light     *canvas.Circle
	state     *widget.Label
	problem   *widget.Label
	details   *widget.Label    // the technical chain behind problem
	more      *look.Disclosure // holds details
	retry     *look.Button
	restart   *look.Button
	signIn    *look.Button // "Sign in", "Sign in again"
	cancel    *look.Button // ends a sign-in under way
	signOut   *look.Button
	warnings  *widget.Label
	stderr    *widget.Label
	scroll    *container.Scroll
	edit      *look.Button
	traffic   *look.Button
	toggle    *look.Button
	remove    *look.Button

	transport, reported, protocol *widget.Label
}

func newDetail(w *Window) *detail {
	d := &detail{w: w}
	d.name = widget.NewRichText(&widget.TextSegment{Style: widget.RichTextStyleHeading})
	d.name.Wrapping = fyne.TextWrapWord
	d.target = newValueLabel()
	d.target.TextStyle = fyne.TextStyle{Monospace: true}
	d.light = canvas.NewCircle(theme.Color(theme.ColorNameDisabled))
	d.state = widget.NewLabel("")
	d.state.TextStyle = fyne.TextStyle{Bold: true}
	d.transport, d.reported, d.protocol = newValueLabel(), newValueLabel(), newValueLabel()
	facts := container.New(layout.NewFormLayout(),
		factLabel("Connects by"), d.transport,
		factLabel("Reported by the server"), d.reported,
	)
	// Spec terms are for those who debug a server.
	developer := look.NewDisclosure("Developer details",
		container.New(layout.NewFormLayout(), factLabel("MCP revision"), d.protocol))
	d.problem = newValueLabel()
	d.problem.Importance = widget.DangerImportance
	d.details = newValueLabel()
	d.details.TextStyle = fyne.TextStyle{Monospace: true}
	d.more = look.NewDisclosure("Details", d.details)
	d.retry = look.NewButton("Retry now", theme.ViewRefreshIcon(), func() { w.retryServer(w.selected) })
	d.restart = look.NewButton("Restart", theme.ViewRefreshIcon(), func() { w.deps.Servers.Restart(w.selected) })
	d.signIn = look.NewButton("Sign in", theme.LoginIcon(), func() { w.signIn(w.selected) })
	d.signIn.Importance = widget.HighImportance
	d.cancel = look.NewButton("Cancel", theme.CancelIcon(), func() { w.cancelSignIn(w.selected) })
	d.signOut = look.NewButton("Sign out", theme.LogoutIcon(), func() { w.signOut(w.selected) })
	d.warnings = newValueLabel()
	d.warnings.Importance = widget.WarningImportance

	d.stderr = widget.NewLabel("")
	d.stderr.TextStyle = fyne.TextStyle{Monospace: true}
	d.stderr.Selectable = true
	d.scroll = container.NewScroll(d.stderr)
	d.scroll.SetMinSize(fyne.NewSize(0, 140))

	d.edit = look.NewButton("Edit…", theme.DocumentCreateIcon(), func() { w.editServer(w.selected) })
	d.traffic = look.NewButton("Traffic…", theme.ListIcon(), func() { w.deps.ShowTraffic(w.selected, "") })
	if w.deps.ShowTraffic == nil {
		d.traffic.Hide()
	}
	d.toggle = look.NewButton("Disable", nil, func() { w.toggleServer(w.selected) })
	d.remove = look.NewButton("Remove…", theme.DeleteIcon(), func() { w.confirmRemove(w.selected) })

	light := container.NewCenter(container.NewGridWrap(fyne.NewSquareSize(lightSize), d.light))
	top := container.NewVBox(
		look.BesideOrBelow(d.nameWidth, d.name, look.NewFlow(d.traffic, d.edit, d.toggle, d.remove)),
		d.target,
		widget.NewSeparator(),
		container.NewBorder(nil, nil, light, container.NewHBox(d.retry, d.restart, d.signIn, d.cancel, d.signOut), d.state),
		d.problem,
		d.more,
		facts,
		d.warnings,
		developer,
	)
	d.stderrBox = widget.NewCard("", "Its stderr (the last 64 KB)", d.scroll)
	d.body = container.NewBorder(top, nil, nil, nil, d.stderrBox)
	d.none = widget.NewLabel("Select a server, or add one.")
	d.none.Alignment = fyne.TextAlignCenter
	d.none.Importance = widget.LowImportance
	d.content = container.NewPadded(container.NewStack(d.body, container.NewCenter(d.none)))
	return d
}

// nameWidth is the width of the server's name on one line, as the
// heading draws it.
func (d *detail) nameWidth() float32 {
	style := widget.RichTextStyleHeading
	return fyne.MeasureText(d.name.String(), theme.Size(style.SizeName), style.TextStyle).Width + 2*theme.InnerPadding()
}

// newValueLabel is a wrapping label whose text can be selected and copied.
// Fyne makes it a stop of Tab that shows no focus and takes every key
// (Escape, F1) while it has the keyboard: where nothing in it is worth
// copying, or a button copies it, newTextLabel.
func newValueLabel() *widget.Label {
	l := newTextLabel()
	l.Selectable = true
	return l
}

// newTextLabel is a wrapping label.
func newTextLabel() *widget.Label {
	l := widget.NewLabel("")
	l.Wrapping = fyne.TextWrapWord
	return l
}

// factLabel names a fact in the detail's grid.
func factLabel(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Importance = widget.LowImportance
	return l
}

// show fills the tab with r; nil shows a hint instead.
func (d *detail) show(r *row) {
	d.body.Hidden, d.none.Hidden = r == nil, r != nil
	d.none.Refresh()
	if r == nil {
		d.body.Refresh()
		return
	}
	defer d.body.Refresh() // wrapped texts changed height
	d.name.Segments[0].(*widget.TextSegment).Text = untrusted.Text(r.Name).Line()
	d.name.Refresh()
	d.target.SetText(untrusted.Text(r.target()).Line())
	d.showStatus(d.w.viewStatus(*r))
	d.transport.SetText(r.connectsBy())
	reported := r.Status.Identity.Reported.String()
	if reported == "" {
		reported = "Nothing yet: the server reports itself when it connects."
	}
	d.reported.SetText(reported)
	d.protocol.SetText(r.protocolText())
	setOptional(d.warnings, warningsText(r.Entry.Warnings))
	// Only a local command has a stderr.
	look.Visible(d.stderrBox, r.Entry.Transport == config.TransportStdio || r.Status.Stderr != "")
	stderr := untrusted.Text(r.Status.Stderr).Block()
	if stderr == "" {
		stderr = "(nothing)"
	}
	if d.stderr.Text != stderr {
		d.stderr.SetText(stderr)
		d.scroll.ScrollToBottom()
	}

	d.edit.Enable()
	d.remove.Enable()
	d.toggle.SetText("Disable")
	d.toggle.SetIcon(theme.MediaPauseIcon())
	if r.Entry.Disabled {
		d.toggle.SetText("Enable")
		d.toggle.SetIcon(theme.MediaPlayIcon())
	}
	d.toggle.Enable()
	if !r.InFile {
		d.edit.Disable()
		d.toggle.Disable()
		d.remove.Disable()
	}
}

// showStatus renders v: the light, the state with its countdown, Retry
// now, the sign-in buttons, and the problem with its details.
func (d *detail) showStatus(v statusView) {
	d.light.FillColor = theme.Color(v.Light)
	d.light.Refresh()
	d.state.SetText(v.Headline)
	look.Visible(d.retry, v.CanRetry)
	d.restart.SetText(v.Restart)
	look.Visible(d.restart, v.Restart != "")
	d.retry.Enable()
	if v.SignIn != "" {
		d.signIn.SetText(v.SignIn)
	}
	look.Visible(d.signIn, v.SignIn != "")
	look.Visible(d.cancel, v.CanCancel)
	look.Visible(d.signOut, v.CanSignOut)
	d.problem.Importance = widget.DangerImportance
	if v.Asking {
		d.problem.Importance = widget.MediumImportance
	}
	setOptional(d.problem, v.Problem)
	if d.details.Text != v.Details {
		d.details.SetText(v.Details)
	}
	look.Visible(d.more, v.Details != "")
}

// setOptional shows text in l, or hides l when there is none.
func setOptional(l *widget.Label, text string) {
	l.SetText(text)
	l.Hidden = text == ""
	l.Refresh()
}

// warningsText lists what servers.json's reader ignored in the entry.
func warningsText(warnings []string) string {
	if len(warnings) == 0 {
		return ""
	}
	return "Note: " + strings.Join(warnings, "\nNote: ")
}

// toggleServer enables a disabled server or disables an enabled one.
func (w *Window) toggleServer(name string) {
	r := w.selectedRow()
	if r == nil || r.Name != name {
		return
	}
	if err := setDisabled(w.deps.ConfigPath, name, !r.Entry.Disabled); err != nil {
		w.showError("servers.json not saved", err)
		return
	}
	w.refresh()
}

// confirmRemove asks before removing a server's entry.
func (w *Window) confirmRemove(name string) {
	msg := fmt.Sprintf("Remove %q from servers.json? Elicit Desk disconnects from it; other clients that read the file lose it too.", name)
	modal.Confirm(w.win.Canvas(), "Remove "+name+"?", msg, "Cancel", "Remove", func() {
		if err := removeEntry(w.deps.ConfigPath, name); err != nil {
			w.showError("servers.json not saved", err)
			return
		}
		w.selected = neighbour(w.rows, name)
		w.refresh()
	})
}

// neighbour is the server to select once name is gone: the next one, else
// the one before, else none.
func neighbour(rows []row, name string) string {
	i := slices.IndexFunc(rows, func(r row) bool { return r.Name == name })
	switch {
	case i+1 < len(rows):
		return rows[i+1].Name
	case i > 0:
		return rows[i-1].Name
	}
	return ""
}
