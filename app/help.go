package app

import (
	_ "embed"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/keys"
	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/internal/core"
	"github.com/elicitdesk/elicitdesk/internal/desktop/xwin"
)

// helpMarkdown is what the Help window says: kept in the app, so Help
// needs no browser or network. {{servers}}, {{history}} and {{settings}}
// stand for the files' paths on this system.
//
//go:embed help.md
var helpMarkdown string

// helpPaths are the files Help names, as this app has them.
type helpPaths struct{ servers, history, settings string }

// helpText is Help's markdown with the paths filled in.
func helpText(p helpPaths) string {
	return strings.NewReplacer(
		"{{servers}}", codeSpan(p.servers),
		"{{history}}", codeSpan(p.history),
		"{{settings}}", codeSpan(p.settings),
	).Replace(helpMarkdown)
}

// codeSpan is path as markdown code, which keeps its backslashes and
// underscores as they are: fenced by one more backtick than the longest
// run in it, as CommonMark allows.
func codeSpan(path string) string {
	if path == "" {
		return "unknown on this system"
	}
	run, longest := 0, 0
	for _, r := range path {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	return fence + " " + path + " " + fence
}

// showHelp opens the Help window, or brings it forward.
func (d *Desk) showHelp() {
	if d.helpW != nil {
		d.helpW.Show()
		d.helpW.RequestFocus()
		return
	}
	w := d.fyne.NewWindow("Help — Elicit Desk")
	d.helpW = w
	w.SetOnClosed(func() { d.helpW = nil })
	k := keys.Close(w, nil)
	text := widget.NewRichTextFromMarkdown(helpText(helpPaths{
		servers: d.opts.ConfigPath, history: d.opts.HistoryPath, settings: core.PrefsPath(d.fyne.UniqueID()),
	}))
	text.Wrapping = fyne.TextWrapWord
	closeButton := look.NewButton("Close", nil, w.Close)
	closeButton.Importance = widget.HighImportance
	// The text scrolls as a whole, by the keys too; Close stays in view.
	scroll := container.NewVScroll(text)
	k.Scroll(scroll)
	w.SetContent(container.NewBorder(nil, container.NewPadded(container.NewHBox(layout.NewSpacer(), closeButton)),
		nil, nil, container.NewPadded(scroll)))
	xwin.Dialog(w) // floated by a tiling window manager, over the window it helps with, not tiled beside it
	d.screen().Show(w, fyne.NewSize(640, 640))
}
