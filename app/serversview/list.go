package serversview

import (
	"errors"
	"io/fs"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/a11y"
	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// lightSize is the diameter of a status light.
const lightSize = 12

// serverList is the left pane: every server with its status light, name
// and state, and the button that adds one.
type serverList struct {
	content fyne.CanvasObject
	list    *widget.List
	add     *look.Button
	empty   *widget.Label
	fileErr *widget.Label
	bridged *bridgedSection
	rows    []row
}

func newServerList(w *Window) *serverList {
	l := &serverList{}
	rows := a11y.NewList("Servers",
		func() int { return len(l.rows) },
		newListItem,
		func(id widget.ListItemID, o fyne.CanvasObject) { updateListItem(o, l.rows[id]) },
		func() (widget.ListItemID, bool) {
			i := slices.IndexFunc(l.rows, func(r row) bool { return r.Name == w.selected })
			return i, i >= 0
		})
	l.list = rows.Rows()
	l.list.OnSelected = func(id widget.ListItemID) { w.selectServer(l.rows[id].Name) }
	l.add = look.NewButton("Add server…", theme.ContentAddIcon(), w.addServer)
	l.add.Importance = widget.HighImportance
	l.empty = widget.NewLabel("No servers yet.\nAdd one to connect to it.")
	l.empty.Alignment = fyne.TextAlignCenter
	l.empty.Importance = widget.LowImportance
	l.fileErr = widget.NewLabel("")
	l.fileErr.Importance = widget.DangerImportance
	l.fileErr.Wrapping = fyne.TextWrapWord
	l.fileErr.Hide()
	var traffic func(string)
	if w.deps.ShowTraffic != nil {
		traffic = func(session string) { w.deps.ShowTraffic("", session) }
	}
	l.bridged = newBridgedSection(traffic, w.confirmBlock)
	title := widget.NewLabelWithStyle("Servers", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	l.content = container.NewBorder(
		container.NewVBox(title, l.fileErr),
		container.NewVBox(l.bridged.content, container.NewPadded(l.add)),
		nil, nil,
		container.NewStack(rows, l.empty),
	)
	return l
}

// show lists rows and selects the one called selected.
func (l *serverList) show(rows []row, selected string, fileErr error) {
	l.rows = rows
	// An edit loads the file first: while it cannot be read, Add would
	// only fail, so the way out is to mend the file. One that is not
	// there is an empty list, which Add makes anew.
	l.empty.SetText("No servers yet.\nAdd one to connect to it.")
	l.add.Enable()
	switch {
	case errors.Is(fileErr, fs.ErrNotExist):
		l.fileErr.SetText("servers.json is not there: Add server… makes it anew. Until then, the servers it named when last read keep running.")
		l.fileErr.Show()
	case fileErr != nil:
		l.fileErr.SetText("servers.json cannot be read: " + untrusted.Text(fileErr.Error()).Block() +
			"\nMend it and save it: Elicit Desk reads it again then. Until it can, the servers it named when last read keep running.")
		l.fileErr.Show()
		l.empty.SetText("No server runs until\nservers.json can be read.")
		l.add.Disable()
	default:
		l.fileErr.Hide()
	}
	l.empty.Hidden = len(rows) > 0
	l.empty.Refresh()
	l.list.Refresh()
	for i, r := range rows {
		if r.Name == selected {
			l.list.Select(i)
			return
		}
	}
	l.list.UnselectAll()
}

// newListItem is a list row: a light, then the name over the state.
func newListItem() fyne.CanvasObject {
	light := canvas.NewCircle(theme.Color(theme.ColorNameDisabled))
	name := widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	name.Truncation = fyne.TextTruncateEllipsis
	state := widget.NewLabel("")
	state.SizeName = theme.SizeNameCaptionText
	state.Importance = widget.LowImportance
	lightBox := container.New(layout.NewCustomPaddedLayout(0, 0, theme.Padding(), 0),
		container.NewCenter(container.NewGridWrap(fyne.NewSquareSize(lightSize), light)))
	return container.NewBorder(nil, nil, lightBox, nil,
		container.New(&tightVBox{}, name, state))
}

// updateListItem shows r in a row made by newListItem.
func updateListItem(o fyne.CanvasObject, r row) {
	c := o.(*fyne.Container)
	texts := c.Objects[0].(*fyne.Container).Objects
	light := c.Objects[1].(*fyne.Container).Objects[0].(*fyne.Container).Objects[0].(*fyne.Container).Objects[0].(*canvas.Circle)
	light.FillColor = theme.Color(lightColor(r.state()))
	light.Refresh()
	texts[0].(*widget.Label).SetText(untrusted.Text(r.Name).Line())
	texts[1].(*widget.Label).SetText(stateLabel(r.state()))
}

// tightVBox stacks objects with no gap, so a name and its state read as one.
type tightVBox struct{}

func (tightVBox) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objects {
		m := o.MinSize()
		s.Width = max(s.Width, m.Width)
		s.Height += m.Height - theme.Padding()
	}
	return s
}

func (tightVBox) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	y := float32(0)
	for _, o := range objects {
		h := o.MinSize().Height - theme.Padding()
		o.Move(fyne.NewPos(0, y-theme.Padding()/2))
		o.Resize(fyne.NewSize(size.Width, h+theme.Padding()))
		y += h
	}
}
