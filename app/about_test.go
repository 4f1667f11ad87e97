package app

import (
	"runtime/debug"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/assets"
	"github.com/elicitdesk/elicitdesk/internal/testkit/uitest"
)

func TestAboutSays(t *testing.T) {
	info := &debug.BuildInfo{GoVersion: "go1.26.0", Deps: []*debug.Module{
		{Path: "modernc.org/sqlite", Version: "v1.61.1"},
		{Path: "fyne.io/fyne/v2", Version: "v2.8.1"},
		{Path: "golang.org/x/text", Version: "v0.22.0"},
	}}
	a := newAbout("elicitdesk 1.2.0 (commit abc)", assets.Copyright, info)
	if a.version != "elicitdesk 1.2.0 (commit abc)" {
		t.Errorf("version %q", a.version)
	}
	if got := strings.Join(a.libraries, ", "); got != "Fyne 2.8.1, modernc.org/sqlite 1.61.1, Go 1.26.0" {
		t.Errorf("libraries %q", got)
	}
	if !strings.HasPrefix(a.licence, "No licence has been chosen for Elicit Desk yet") || !strings.Contains(a.licence, "Fyne: BSD-3-Clause") ||
		strings.Contains(a.licence, "  ") {
		t.Errorf("licence %q", a.licence)
	}
	if v := newAbout("", assets.Copyright, nil).version; v != "elicitdesk devel" {
		t.Errorf("a build without a version says %q", v)
	}
}

func TestLicence(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Files: *\nLicense: MIT\n Permission is\n granted.\n .\n The software\n\nLicense: other\n text", "Permission is granted.\n\nThe software"},
		{"Files: *\nCopyright: 2026 Us\n", ""},
	}
	for _, tt := range tests {
		if got := licence(tt.in); got != tt.want {
			t.Errorf("licence(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestAboutWindow opens About from the menu: its title, version, licence
// and where to report problems, whose link opens the tracker.
func TestAboutWindow(t *testing.T) {
	h := start(t, `{"mcpServers":{}}`)
	var labels []string
	var title, all string
	var report *widget.Hyperlink
	h.ui(func() {
		h.d.opts.Version = "elicitdesk 9.9.9"
		for _, it := range h.d.appMenu().Items {
			labels = append(labels, it.Label)
			if it.Label == "About Elicit Desk…" {
				it.Action()
			}
		}
		if w := h.d.aboutW; w != nil {
			title = w.Title()
			for _, s := range uitest.WindowTexts(w) {
				all += s.Text + "\n"
			}
			for _, o := range test.LaidOutObjects(w.Content()) {
				if l, ok := o.(*widget.Hyperlink); ok && l.URL.String() == issuesURL {
					report = l
				}
			}
		}
	})
	if menu := strings.Join(labels, "|"); !strings.Contains(menu, "|Help|About Elicit Desk…|") {
		t.Errorf("the menu is %s", menu)
	}
	if title != "About — Elicit Desk" {
		t.Errorf("title %q", title)
	}
	for _, want := range []string{"elicitdesk 9.9.9", "No licence has been chosen", issuesURL, "Fyne"} {
		if !strings.Contains(all, want) {
			t.Errorf("About does not say %q:\n%s", want, all)
		}
	}
	if report == nil {
		t.Fatal("no link to the issue tracker")
	}
	h.ui(func() { test.TapAt(report, fyne.NewPos(theme.InnerPadding()+2, report.Size().Height/2)) })
	h.eventually("the tracker to open", func() bool {
		u := h.openedURLs()
		return len(u) == 1 && u[0].String() == issuesURL
	})
}
