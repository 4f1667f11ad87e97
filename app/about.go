package app

import (
	"net/url"
	"runtime/debug"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/keys"
	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/assets"
	"github.com/elicitdesk/elicitdesk/internal/desktop/xwin"
)

// Where the project is, for the About window.
const (
	issuesURL = "https://github.com/elicitdesk/elicitdesk/issues"
	helpURL   = "https://github.com/elicitdesk/elicitdesk#readme"
)

// builtOn are the modules the About window names, in its order: what the
// app is made of, not every module the build holds.
var builtOn = []struct{ path, name string }{
	{"fyne.io/fyne/v2", "Fyne"},
	{"modernc.org/sqlite", "modernc.org/sqlite"},
	{"github.com/santhosh-tekuri/jsonschema/v6", "santhosh-tekuri/jsonschema"},
	{"github.com/godbus/dbus/v5", "godbus/dbus"},
}

// about is what the About window says.
type about struct {
	version   string   // which build this is
	licence   string   // as assets/linux/copyright states it
	libraries []string // "Fyne 2.8.1"
}

// newAbout reads the About window's words from the build: version as the
// command line's version prints it, "" for a build that says none.
func newAbout(version string, copyright string, info *debug.BuildInfo) about {
	if version == "" {
		version = "elicitdesk devel"
	}
	a := about{version: version, licence: licence(copyright)}
	if info != nil {
		versions := map[string]string{}
		for _, m := range info.Deps {
			versions[m.Path] = strings.TrimPrefix(m.Version, "v")
		}
		for _, lib := range builtOn {
			if v, ok := versions[lib.path]; ok {
				a.libraries = append(a.libraries, lib.name+" "+v)
			}
		}
		if info.GoVersion != "" {
			a.libraries = append(a.libraries, "Go "+strings.TrimPrefix(info.GoVersion, "go"))
		}
	}
	return a
}

// licence is the text of the first License stanza of a Debian copyright
// file (its continuation lines, " ." an empty line), as one paragraph per
// empty line.
func licence(copyright string) string {
	var lines []string
	in := false
	for _, line := range strings.Split(copyright, "\n") {
		switch {
		case strings.HasPrefix(line, "License:") && len(lines) == 0:
			in = true
		case in && (strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")):
			if l := strings.TrimSpace(line); l == "." {
				lines = append(lines, "\n\n")
			} else {
				lines = append(lines, l)
			}
		case in:
			in = false
		}
	}
	return strings.ReplaceAll(strings.Join(lines, " "), " \n\n ", "\n\n")
}

// showAbout opens the About window, or brings it forward.
func (d *Desk) showAbout() {
	if d.aboutW != nil {
		d.aboutW.Show()
		d.aboutW.RequestFocus()
		return
	}
	info, _ := debug.ReadBuildInfo()
	a := newAbout(d.opts.Version, assets.Copyright, info)
	w := d.fyne.NewWindow("About — Elicit Desk")
	d.aboutW = w
	w.SetOnClosed(func() { d.aboutW = nil })
	keys.Close(w, nil)

	icon := canvas.NewImageFromResource(assets.Icon())
	icon.FillMode = canvas.ImageFillContain
	icon.SetMinSize(fyne.NewSquareSize(64))
	name := widget.NewLabelWithStyle("Elicit Desk", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	name.SizeName = theme.SizeNameHeadingText
	version := widget.NewLabel(a.version)
	version.Selectable = true
	version.Wrapping = fyne.TextWrapWord
	what := wrappedLabel("Shows what MCP servers ask a person as windows on the desktop, and keeps a history of it.")
	top := container.NewBorder(nil, nil, container.NewCenter(icon), nil, container.NewVBox(name, version))

	issues, _ := url.Parse(issuesURL)
	report := widget.NewHyperlink(issuesURL, issues)
	report.OnTapped = func() { d.openLink(issues) }
	help, _ := url.Parse(helpURL)
	helpLink := widget.NewHyperlink("The README, online", help)
	helpLink.OnTapped = func() { d.openLink(help) }
	form := widget.NewForm(
		widget.NewFormItem("Licence", wrappedLabel(a.licence)),
		widget.NewFormItem("Report a problem", report),
		widget.NewFormItem("Help", helpLink),
		widget.NewFormItem("Built on", wrappedLabel(strings.Join(a.libraries, ", ")+".")),
	)
	closeButton := look.NewButton("Close", nil, w.Close)
	closeButton.Importance = widget.HighImportance
	w.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) {
		switch ev.Name {
		case fyne.KeyEscape, fyne.KeyReturn, fyne.KeyEnter:
			w.Close()
		}
	})
	body := container.NewVBox(top, what, widget.NewSeparator(), form)
	bottom := container.NewBorder(nil, nil, nil, closeButton)
	w.SetContent(container.NewPadded(container.NewBorder(nil, bottom, nil, nil, container.NewVScroll(body))))
	// As tall as its content, which scrolls as a whole on a small screen.
	xwin.Dialog(w)
	d.screen().ShowFitted(w, 560, func() float32 {
		gap := theme.Padding() // the border layout's, between the scroll and Close
		return 2*theme.Padding() + body.MinSize().Height + gap + bottom.MinSize().Height
	})
}

// openLink opens one of the app's own links in the browser, off the UI
// goroutine, and says so when it cannot.
func (d *Desk) openLink(u *url.URL) {
	go func() {
		if err := d.openURL(u); err != nil {
			d.log.Warn("the browser did not open", "url", u, "err", err)
			d.do(func() {
				d.showError("Could not open the browser", "The browser could not be opened for "+u.String()+": "+err.Error()+".")
			})
		}
	}()
}

// wrappedLabel is text that wraps at the window's width.
func wrappedLabel(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	return l
}
