package app

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/internal/core"
)

// waitLine tells, at the top of each request window and of the Servers
// window, how many requests wait without a window, and Show brings the
// oldest of them forward: without a tray host nothing else shows them.
type waitLine struct {
	box   *fyne.Container
	label *widget.Label
	// toggled, when set, runs once the line showed or hid, with the
	// height it added (negative: took away): its window makes room, so
	// that what is below keeps its own.
	toggled func(dh float32)
}

// newWaitLine is a hidden line whose Show runs show.
func newWaitLine(show func()) *waitLine {
	l := &waitLine{label: widget.NewLabel("")}
	b := look.NewButton("Show…", theme.VisibilityIcon(), show)
	b.Importance = widget.LowImportance
	l.box = container.NewHBox(widget.NewIcon(theme.InfoIcon()), l.label, b)
	l.box.Hide()
	return l
}

// set shows that n requests wait without a window; 0 hides the line.
func (l *waitLine) set(n int) {
	l.label.SetText(waitingText(n))
	showLine(l.box, l.box, n > 0, l.toggled)
}

// waitingText is the line for n requests without a window.
func waitingText(n int) string {
	switch n {
	case 0:
		return ""
	case 1:
		return "1 more request waits for a window:"
	}
	return fmt.Sprintf("%d more requests wait for a window:", n)
}

// showOldestWaiting has the core bring forward the oldest request without
// a window, as a second start does: it resolves it into Open, with the
// keyboard.
func (d *Desk) showOldestWaiting() {
	go d.core.Show(core.Show{Window: core.WindowFront})
}
