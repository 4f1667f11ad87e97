//go:build linux || freebsd || openbsd || netbsd

package app

import (
	"context"
	"os"
	"os/exec"
	"time"

	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/internal/desktop/portal"
)

// desktopTimeout bounds reading the desktop's light or dark: a portal or
// gsettings can hang, and the app waits for it before its first window.
const desktopTimeout = time.Second

// readDesktop reads what the desktop says about light and dark: the
// settings portal, else gsettings and $GTK_THEME.
func readDesktop(ctx context.Context) look.Desktop {
	ctx, cancel := context.WithTimeout(ctx, desktopTimeout)
	defer cancel()
	d := look.Desktop{GTKThemeEnv: os.Getenv("GTK_THEME"), FyneThemeEnv: os.Getenv("FYNE_THEME")}
	if conn, err := privateBus(); err == nil {
		d.Portal, err = portal.ColorScheme(ctx, conn)
		d.HasPortal = err == nil
		conn.Close()
	}
	if d.HasPortal && d.Portal != look.SchemeNoPreference {
		return d
	}
	d.ColorScheme = gsettings(ctx, "color-scheme")
	d.GTKTheme = gsettings(ctx, "gtk-theme")
	return d
}

// gsettings is GNOME's interface setting key as gsettings prints it; ""
// where there is no gsettings or no such key.
func gsettings(ctx context.Context, key string) string {
	out, err := exec.CommandContext(ctx, "gsettings", "get", "org.gnome.desktop.interface", key).Output()
	if err != nil {
		return ""
	}
	return string(out)
}
