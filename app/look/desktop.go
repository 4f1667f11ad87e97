package look

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// Choice is the person's choice of look, in Settings.
type Choice string

// The choices, as the preferences keep them.
const (
	FollowDesktop Choice = "desktop"
	Light         Choice = "light"
	Dark          Choice = "dark"
)

// Choices are the looks Settings offers, in its order.
func Choices() []Choice { return []Choice{FollowDesktop, Light, Dark} }

// Label names c in Settings.
func (c Choice) Label() string {
	switch c {
	case Light:
		return "Light"
	case Dark:
		return "Dark"
	}
	return "Follow the desktop"
}

// The settings portal's org.freedesktop.appearance color-scheme values.
const (
	SchemeNoPreference uint32 = 0
	SchemeDark         uint32 = 1
	SchemeLight        uint32 = 2
)

// Desktop is what the desktop says about light and dark, as read once at
// start. Fyne 2.8.1 on Linux asks only the XDG settings portal (and
// follows its changes); without a portal it draws dark, so the app came
// up dark on a light desktop. The other fields are what desktops without
// the portal say.
type Desktop struct {
	// Native says Fyne reads the desktop's variant itself and follows it:
	// macOS and Windows.
	Native bool
	// Portal is the settings portal's color-scheme, when HasPortal.
	Portal    uint32
	HasPortal bool
	// ColorScheme and GTKTheme are what `gsettings get
	// org.gnome.desktop.interface color-scheme` and `… gtk-theme` print
	// ("'prefer-dark'", "'Adwaita-dark'"); "" where gsettings did not answer.
	ColorScheme string
	GTKTheme    string
	// GTKThemeEnv is $GTK_THEME ("Adwaita:dark").
	GTKThemeEnv string
	// FyneThemeEnv is $FYNE_THEME: "light" or "dark" sets the variant for
	// this app whatever the desktop says (Fyne's own portal watcher would
	// override it).
	FyneThemeEnv string
}

// Variant is the desktop's variant, and whether Fyne follows it itself:
// natively, or because the portal said it (Fyne follows its changes). What the person set
// for this session ($GTK_THEME) comes before what is set for every session
// (gsettings); a desktop that says nothing is light, as most are.
func (d Desktop) Variant() (v fyne.ThemeVariant, fyneFollows bool) {
	switch strings.ToLower(strings.TrimSpace(d.FyneThemeEnv)) {
	case "light":
		return theme.VariantLight, false
	case "dark":
		return theme.VariantDark, false
	}
	if d.Native {
		return theme.VariantLight, true // Fyne's, whichever it is
	}
	if d.HasPortal {
		switch d.Portal {
		case SchemeDark:
			return theme.VariantDark, true
		case SchemeLight:
			return theme.VariantLight, true
		}
	}
	if env := strings.TrimSpace(d.GTKThemeEnv); env != "" {
		return themeVariant(env), false
	}
	switch unquote(d.ColorScheme) {
	case "prefer-dark":
		return theme.VariantDark, false
	case "prefer-light":
		return theme.VariantLight, false
	}
	if name := unquote(d.GTKTheme); name != "" {
		return themeVariant(name), false
	}
	return theme.VariantLight, false
}

// themeVariant is the variant of a GTK theme name: "Adwaita:dark" (as
// $GTK_THEME names a variant) and "Adwaita-dark" are dark.
func themeVariant(name string) fyne.ThemeVariant {
	name = strings.ToLower(name)
	if strings.HasSuffix(name, ":dark") || strings.HasSuffix(name, "-dark") {
		return theme.VariantDark
	}
	return theme.VariantLight
}

// unquote is a gsettings string value without its quotes.
func unquote(s string) string {
	return strings.Trim(strings.TrimSpace(s), `'"`)
}

// For is the app's theme for the person's choice c on desktop d: the
// chosen variant, the desktop's as Fyne follows it where the portal says
// it, or the desktop's as read at start.
func For(c Choice, d Desktop) fyne.Theme {
	switch c {
	case Light:
		return Fixed(theme.VariantLight)
	case Dark:
		return Fixed(theme.VariantDark)
	}
	if v, fyneFollows := d.Variant(); !fyneFollows {
		return Fixed(v)
	}
	return New()
}
