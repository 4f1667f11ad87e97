package look

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/keys"
)

// Disclosure is a title that shows and hides what it holds, as a
// one-item accordion of Fyne's does, on a Button: the keyboard reaches it
// with the ring, Space and Enter open and close it, Escape and F1 go on
// to the window, and a screen reader hears a toggle button that says
// whether it is open (atspi.Expander). Fyne's accordion draws its title as
// a plain button, which shows the keyboard by a faint tint, keeps Escape,
// and tells no screen reader it has the keyboard. What it holds takes the
// room left below the title, as an accordion's open item does.
type Disclosure struct {
	widget.BaseWidget
	// OnToggled, when set, runs once the person opened or closed it.
	OnToggled func(open bool)
	title     *disclosureTitle
	detail    fyne.CanvasObject
}

// NewDisclosure is a closed Disclosure titled title that holds detail.
func NewDisclosure(title string, detail fyne.CanvasObject) *Disclosure {
	d := &Disclosure{detail: detail}
	d.title = &disclosureTitle{d: d}
	d.title.Text, d.title.OnTapped = title, d.toggle
	d.title.Importance, d.title.Alignment, d.title.IconPlacement = widget.LowImportance, widget.ButtonAlignLeading, widget.ButtonIconLeadingText
	d.title.ExtendBaseWidget(d.title)
	d.ExtendBaseWidget(d)
	d.show(false)
	return d
}

// CreateRenderer draws the title above what it holds, in the order Tab
// follows (keys.Border).
func (d *Disclosure) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(keys.Border(d.title, nil, nil, nil, d.detail))
}

// Open shows what d holds.
func (d *Disclosure) Open() { d.show(true) }

// Close hides what d holds.
func (d *Disclosure) Close() { d.show(false) }

// IsOpen reports whether d shows what it holds.
func (d *Disclosure) IsOpen() bool { return d.detail.Visible() }

func (d *Disclosure) toggle() {
	d.show(!d.IsOpen())
	if d.OnToggled != nil {
		d.OnToggled(d.IsOpen())
	}
}

func (d *Disclosure) show(open bool) {
	if open {
		d.detail.Show()
	} else {
		d.detail.Hide()
	}
	d.title.Icon = theme.MenuDropDownIcon()
	if open {
		d.title.Icon = theme.MenuDropUpIcon()
	}
	d.title.Refresh()
	d.Refresh()
}

// AccessibleParts is what a screen reader reads of d: its title, then,
// when open, what it holds (atspi.Parent).
func (d *Disclosure) AccessibleParts() []fyne.CanvasObject {
	return []fyne.CanvasObject{d.title, d.detail}
}

// AccessibilityLabel implements fyne.Accessible: the title.
func (d *Disclosure) AccessibilityLabel() string { return d.title.Text }

// AccessibilityRole implements fyne.Accessible.
func (d *Disclosure) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleContainer }

// disclosureTitle is a Disclosure's title: a Button that says whether it
// is open.
type disclosureTitle struct {
	Button
	d *Disclosure
}

// AccessibleExpanded reports whether the title's Disclosure is open
// (atspi.Expander).
func (t *disclosureTitle) AccessibleExpanded() bool { return t.d.IsOpen() }
