package hostsview

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/internal/hosts"
)

// FormPanel says, folded under its title, what each MCP host Elicit Desk
// has a record of does with the form of s (elicitdesk lint -hosts): the
// form preview's answer to why a form works in one host and not another.
func FormPanel(s *forms.Schema) fyne.CanvasObject {
	rows := container.NewVBox()
	for _, h := range hosts.FormSupports() {
		v := hosts.Judge(s, h)
		name := widget.NewLabelWithStyle(h.Name, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		source := widget.NewLabel(h.Version + " · " + h.Date + " · " + h.Source)
		source.Importance = widget.LowImportance
		source.Wrapping = fyne.TextWrapWord
		shows := widget.NewLabel(v.Shows) // a field's name in it went through untrusted (Judge)
		shows.Wrapping = fyne.TextWrapWord
		rows.Add(container.NewVBox(name, shows, source))
	}
	scroll := container.NewVScroll(rows)
	scroll.SetMinSize(fyne.NewSize(0, 240)) // a few hosts at a time; the form keeps the rest
	return look.NewDisclosure("What each host does with this form", scroll)
}
