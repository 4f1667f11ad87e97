package historyview

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/history"
	"github.com/elicitdesk/elicitdesk/servers"
)

// BenchmarkDetailOfAMegabyteMessage selects, in the History window, a
// request whose message was 1 MB, and lays the detail out. The history
// keeps the first MaxMessageBytes of it, so that is all the window draws.
func BenchmarkDetailOfAMegabyteMessage(b *testing.B) {
	a := test.NewTempApp(b)
	s, err := history.Open(filepath.Join(b.TempDir(), "history.db"), slog.New(slog.DiscardHandler), history.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	e := history.Entry{
		Server: servers.Identity{Name: "flood"}, Message: untrusted.Text(strings.Repeat("a long message ", 1<<20/15)),
		Mode: servers.ModeForm, Schema: []byte(`{"type":"object","properties":{}}`), Outcome: history.Cancelled, Received: time.Now(),
	}
	if _, err := s.Add(context.Background(), history.Shorten(e)); err != nil {
		b.Fatal(err)
	}
	w := New(a, Deps{Store: s}, Options{}) // no Clear here
	w.run = func(_ time.Duration, work func() func()) { work()() }
	w.Show()
	w.win.Resize(fyne.NewSize(1000, 700))
	b.ResetTimer()
	for range b.N {
		w.list.UnselectAll()
		w.list.Select(0)
		w.win.Content().Refresh()
		w.win.Canvas().Content().MinSize()
	}
	b.StopTimer()
	b.ReportMetric(float64(len(w.detail.message.Text)), "shown-bytes")
}

// BenchmarkShowAFullList shows the list's limit of entries, measuring
// every row's texts for the column widths.
func BenchmarkShowAFullList(b *testing.B) {
	a := test.NewTempApp(b)
	s, err := history.Open(filepath.Join(b.TempDir(), "history.db"), slog.New(slog.DiscardHandler), history.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var entries []history.Entry
	for i := range listLimit {
		entries = append(entries, history.Entry{
			Server: servers.Identity{Name: "server-" + strings.Repeat("x", i%20)}, Message: "Deploy release to production?",
			Mode: servers.ModeForm, Outcome: history.Outcomes()[i%len(history.Outcomes())], Received: time.Now(),
		})
	}
	w := New(a, Deps{Store: s}, Options{}) // no Clear here
	w.run = func(_ time.Duration, work func() func()) { work()() }
	w.Show()
	w.win.Resize(fyne.NewSize(1000, 700))
	b.ResetTimer()
	for range b.N {
		w.show(history.Query{}, entries, nil, nil)
	}
}
