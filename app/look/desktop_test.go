package look

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

func TestDesktopVariant(t *testing.T) {
	light, dark := theme.VariantLight, theme.VariantDark
	tests := []struct {
		name   string
		d      Desktop
		want   fyne.ThemeVariant
		portal bool
	}{
		{"nothing said is light", Desktop{}, light, false},
		{"portal dark", Desktop{HasPortal: true, Portal: SchemeDark}, dark, true},
		{"portal light over a dark GTK theme", Desktop{HasPortal: true, Portal: SchemeLight, GTKTheme: "'Adwaita-dark'"}, light, true},
		{"portal without preference reads on", Desktop{HasPortal: true, Portal: SchemeNoPreference, GTKTheme: "'Adwaita-dark'"}, dark, false},
		{"gsettings prefer-dark", Desktop{ColorScheme: "'prefer-dark'\n", GTKTheme: "'Adwaita'"}, dark, false},
		{"gsettings prefer-light", Desktop{ColorScheme: "'prefer-light'", GTKTheme: "'Adwaita-dark'"}, light, false},
		{"gsettings default, dark GTK theme", Desktop{ColorScheme: "'default'", GTKTheme: "'Yaru-dark'"}, dark, false},
		{"gsettings default, light GTK theme", Desktop{ColorScheme: "'default'", GTKTheme: "'Adwaita'"}, light, false},
		{"GTK_THEME dark variant", Desktop{GTKThemeEnv: "Adwaita:dark"}, dark, false},
		{"GTK_THEME dark theme name", Desktop{GTKThemeEnv: "Arc-Dark"}, dark, false},
		{"GTK_THEME light over gsettings dark", Desktop{GTKThemeEnv: "Adwaita", ColorScheme: "'prefer-dark'"}, light, false},
		{"GTK_THEME dark over a light GTK theme", Desktop{GTKThemeEnv: "Adwaita:dark", GTKTheme: "'Adwaita'"}, dark, false},
		{"FYNE_THEME dark over the portal", Desktop{FyneThemeEnv: "dark", HasPortal: true, Portal: SchemeLight}, dark, false},
		{"FYNE_THEME light over GTK_THEME", Desktop{FyneThemeEnv: "light", GTKThemeEnv: "Adwaita:dark"}, light, false},
		{"FYNE_THEME light natively", Desktop{FyneThemeEnv: "light", Native: true}, light, false},
		{"FYNE_THEME unknown is ignored", Desktop{FyneThemeEnv: "sepia", GTKThemeEnv: "Adwaita:dark"}, dark, false},
		{"a name with dark inside is not dark", Desktop{GTKTheme: "'Darkish-Blue'"}, light, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, portal := tt.d.Variant()
			if v != tt.want || portal != tt.portal {
				t.Errorf("variant %v (portal %v), want %v (portal %v)", v, portal, tt.want, tt.portal)
			}
		})
	}
}

// TestForDrawsTheChoice checks the colours the theme draws, whatever
// variant Fyne asks for: the person's choice, else the desktop's; only
// where the portal said the desktop's does the theme follow Fyne's.
func TestForDrawsTheChoice(t *testing.T) {
	test.NewTempApp(t)
	light, dark := theme.VariantLight, theme.VariantDark
	bg := func(th fyne.Theme, v fyne.ThemeVariant) any { return th.Color(theme.ColorNameBackground, v) }
	ref := New()
	portalDark := Desktop{HasPortal: true, Portal: SchemeDark}
	noPortalDark := Desktop{GTKThemeEnv: "Adwaita:dark"}
	tests := []struct {
		name  string
		c     Choice
		d     Desktop
		asked fyne.ThemeVariant // what Fyne asks for
		drawn fyne.ThemeVariant
	}{
		{"light chosen on a dark desktop", Light, portalDark, dark, light},
		{"dark chosen on a light desktop", Dark, Desktop{}, light, dark},
		{"desktop with portal: Fyne's", FollowDesktop, portalDark, light, light},
		{"desktop with portal: Fyne's, dark", FollowDesktop, portalDark, dark, dark},
		{"desktop without portal, dark GTK", FollowDesktop, noPortalDark, light, dark},
		{"desktop without anything: light, though Fyne says dark", FollowDesktop, Desktop{}, dark, light},
		{"native: Fyne's", FollowDesktop, Desktop{Native: true}, dark, dark},
		{"an unknown choice follows the desktop", Choice("sepia"), Desktop{}, dark, light},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, want := bg(For(tt.c, tt.d), tt.asked), bg(ref, tt.drawn); got != want {
				t.Errorf("background %v, want %v's %v", got, tt.drawn, want)
			}
		})
	}
}

func TestChoiceLabels(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Choices() {
		if l := c.Label(); l == "" || seen[l] {
			t.Errorf("%q: label %q", c, l)
		} else {
			seen[l] = true
		}
	}
}
