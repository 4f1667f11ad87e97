package app

import (
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/internal/trust"
	"github.com/elicitdesk/elicitdesk/internal/untrusted"
	"github.com/elicitdesk/elicitdesk/servers"
)

// header is the top of a request window: who asks, when, and what they
// say. Everything the server sent in it is shown as plain text.
type header struct {
	received time.Time
	ago      *widget.Label
	banner   *fyne.Container // the stale banner, hidden until needed
	reason   *widget.Label
	object   fyne.CanvasObject
}

// newHeader builds the header of a request from who; others are the other
// configured servers, whose names a message must not borrow.
func newHeader(e *servers.Elicitation, others []servers.Identity, onClose func()) *header {
	h := &header{received: e.Received, ago: widget.NewLabel("")}
	h.ago.Importance = widget.LowImportance
	h.tick(time.Now())

	h.reason = widget.NewLabel("")
	h.reason.Wrapping = fyne.TextWrapWord
	h.reason.Importance = widget.WarningImportance
	closeButton := widget.NewButton("Close", onClose)
	closeButton.Importance = widget.HighImportance
	h.banner = container.NewBorder(nil, nil, widget.NewIcon(theme.WarningIcon()), closeButton, h.reason)
	h.banner.Hide()

	parts := []fyne.CanvasObject{h.banner, identityBox(e.Server, trust.IdentityWarnings(e.Server, e.Message, others), h.ago)}
	if e.Message != "" {
		parts = append(parts, widget.NewSeparator(), newMessageBox(e.Message))
	}
	h.object = container.NewVBox(parts...)
	return h
}

// identityBox shows the configured server large and first, then, for a
// bridged server, the host it asks for, and what the server says about
// itself, marked as its own claim.
func identityBox(id servers.Identity, warnings []string, ago *widget.Label) fyne.CanvasObject {
	name := widget.NewRichText(&widget.TextSegment{Style: widget.RichTextStyleHeading, Text: untrusted.Text(id.Name).Line()})
	name.Wrapping = fyne.TextWrapWord // breaks a long word too, so no name widens the window
	target := widget.NewLabelWithStyle(untrusted.Text(id.Target).Line(), fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	target.Wrapping = fyne.TextWrapBreak
	target.Selectable = true
	box := container.NewVBox(container.NewBorder(nil, nil, nil, ago, name))
	if h := hostLine(id); h != "" {
		l := widget.NewLabelWithStyle(h, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		l.Wrapping = fyne.TextWrapWord
		box.Add(l)
	}
	box.Add(target)
	if r := id.Reported.String(); r != "" {
		l := widget.NewLabel("Reported by the server: " + r)
		l.Importance = widget.LowImportance
		l.Wrapping = fyne.TextWrapWord
		box.Add(l)
	}
	for _, w := range warnings {
		box.Add(warning(w))
	}
	return box
}

// hostLine names the host a bridged server asks for, by its title, else
// its name: "for Claude Desktop"; "" outside the bridge.
func hostLine(id servers.Identity) string {
	if id.Host == (servers.ServerInfo{}) {
		return ""
	}
	if l := id.Host.Label(); l != "" {
		return "for " + l
	}
	return "for a host that gave no name"
}

// warning is one plain sentence with a warning sign.
func warning(text string) fyne.CanvasObject {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	l.Importance = widget.WarningImportance
	return container.NewBorder(nil, nil, widget.NewIcon(theme.WarningIcon()), nil, l)
}

// tick updates how long ago the request arrived.
func (h *header) tick(now time.Time) { h.ago.SetText(ago(now.Sub(h.received))) }

// showStale shows why the request no longer waits.
func (h *header) showStale(reason string) {
	h.reason.SetText(reason)
	h.banner.Show()
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
