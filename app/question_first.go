package app

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
)

// questionFirst is the app's theme with headings drawn at the size of the
// question, for a request window's form: the message is its primary text,
// and no heading inside the form (the review's) may be larger.
type questionFirst struct{}

// underQuestion shows o with headings no larger than the question.
func underQuestion(o fyne.CanvasObject) fyne.CanvasObject {
	return container.NewThemeOverride(o, questionFirst{})
}

func (questionFirst) app() fyne.Theme { return fyne.CurrentApp().Settings().Theme() }

func (q questionFirst) Size(n fyne.ThemeSizeName) float32 {
	if n == theme.SizeNameHeadingText {
		n = questionSize
	}
	return q.app().Size(n)
}

func (q questionFirst) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	return q.app().Color(n, v)
}

func (q questionFirst) Font(s fyne.TextStyle) fyne.Resource { return q.app().Font(s) }

func (q questionFirst) Icon(n fyne.ThemeIconName) fyne.Resource { return q.app().Icon(n) }
