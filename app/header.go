package app

import (
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/a11y"
	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/hosts"
	"github.com/elicitdesk/elicitdesk/internal/trust"
	"github.com/elicitdesk/elicitdesk/servers"
)

// header is the top of a request window: who asks, when, and what they
// say. Everything the server sent in it is shown as plain text.
type header struct {
	received time.Time
	who      *widget.RichText    // the server's name, then small lines
	when     *widget.RichText    // beside the name: when it arrived
	ago      *widget.TextSegment // when's text
	banner   *fyne.Container     // the stale banner, hidden until needed
	reason   *a11y.Status
	object   fyne.CanvasObject
}

// newHeader builds the header of a request from who; others are the other
// configured servers, whose names a message must not borrow.
func newHeader(r *request, others []servers.Identity, onClose func()) *header {
	h := &header{received: r.Received, ago: small("", fyne.TextStyle{})}
	h.who = identity(r.Server)
	h.when = widget.NewRichText(h.ago)
	h.tick(time.Now())

	h.reason = a11y.NewStatus()
	h.reason.Importance = widget.WarningImportance
	closeButton := look.NewButton("Close", nil, onClose)
	closeButton.Importance = widget.HighImportance
	h.banner = container.NewBorder(nil, nil, widget.NewIcon(theme.WarningIcon()), closeButton, h.reason)
	h.banner.Hide()

	// When it arrived beside the name rather than under it: a line less
	// leaves the form room on a small screen.
	parts := []fyne.CanvasObject{h.banner, container.NewBorder(nil, nil, nil, h.when, h.who)}
	if lost := lostWithout(r); lost != "" {
		l := widget.NewLabel(lost)
		l.Wrapping = fyne.TextWrapWord
		l.Importance = widget.LowImportance
		parts = append(parts, l)
	}
	for _, w := range trust.IdentityWarnings(r.Server, r.Message, others) {
		parts = append(parts, warning(w))
	}
	if r.Message != "" {
		parts = append(parts, newMessageBox(r.Message))
	}
	h.object = container.NewVBox(parts...)
	return h
}

// lostWithout says what the host of bridged request r would have done
// with its form without the bridge, where the person's answer would have
// been lost; "" otherwise, and outside the bridge.
func lostWithout(r *request) string {
	if r.Server.Host == (servers.HostInfo{}) || r.Form == nil {
		return ""
	}
	return hosts.Lost(servers.HostName(string(r.Server.Host.Name)), r.Form)
}

// identity shows the configured server's name large and first, then one
// small line each for the host a bridged server asks for, the configured
// command or URL and what the server says about itself (marked as its own
// claim). One text widget, so the lines sit as close as lines of a
// paragraph; each is cut to the window's width, so none widens it.
func identity(id servers.Identity) *widget.RichText {
	name := &widget.TextSegment{Text: untrusted.Text(id.Name).Line(), Style: widget.RichTextStyle{
		SizeName: theme.SizeNameSubHeadingText, TextStyle: fyne.TextStyle{Bold: true}, ColorName: theme.ColorNameForeground}}
	lines := []widget.RichTextSegment{name}
	if h := id.AsksFor(); h != "" {
		lines = append(lines, small(h, fyne.TextStyle{Bold: true}))
	}
	lines = append(lines, small(untrusted.Text(id.Target).Line(), fyne.TextStyle{Monospace: true}))
	if r := id.Reported.String(); r != "" {
		lines = append(lines, small("Reported by the server: "+r, fyne.TextStyle{Italic: true}))
	}
	t := widget.NewRichText(lines...)
	t.Truncation = fyne.TextTruncateEllipsis
	return t
}

// small is one line of small text.
func small(text string, style fyne.TextStyle) *widget.TextSegment {
	return &widget.TextSegment{Text: text, Style: widget.RichTextStyle{
		SizeName: theme.SizeNameCaptionText, TextStyle: style, ColorName: theme.ColorNameForeground}}
}

// warning is one plain sentence with a warning sign.
func warning(text string) fyne.CanvasObject {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	l.Importance = widget.WarningImportance
	return container.NewBorder(nil, nil, widget.NewIcon(theme.WarningIcon()), nil, l)
}

// tick updates how long ago the request arrived.
func (h *header) tick(now time.Time) {
	if text := ago(now.Sub(h.received)); text != h.ago.Text {
		h.ago.Text = text
		h.when.Refresh()
	}
}

// showStale shows why the request no longer waits, in a banner atop the
// header, for which grow makes the window taller: what the server asked
// stays in view beside the reason.
func (h *header) showStale(reason string, grow func(dh float32)) {
	h.reason.SetText(reason)
	showLine(h.banner, h.object, true, grow)
}

// ago says how long ago something arrived, as a person would say it.
func ago(d time.Duration) string {
	switch {
	case d < 10*time.Second:
		return "arrived just now"
	case d < time.Minute:
		return fmt.Sprintf("arrived %d s ago", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("arrived %d min ago", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("arrived %d h %d min ago", int(d.Hours()), int(d.Minutes())%60)
	}
	return fmt.Sprintf("arrived %d days ago", int(d.Hours()/24))
}
