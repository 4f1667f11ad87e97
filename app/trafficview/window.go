// Package trafficview is the Traffic window: every JSON-RPC message
// between Elicit Desk and its servers, and between bridged hosts'
// servers and the bridge, live, as the core records it. A filter with the
// same words as `elicitdesk traffic` (method:, status:, server:…), the
// selected message's facts and, where the person keeps them (Settings,
// Traffic), the message itself, redacted; the matching request or answer
// one click away; latency percentiles; export of what is shown as JSON
// Lines or HAR 1.2. The Fyne code is thin over model, which is tested
// without a window.
package trafficview

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/elicitdesk/elicitdesk/app/keys"
	"github.com/elicitdesk/elicitdesk/app/look"
	"github.com/elicitdesk/elicitdesk/app/modal"
	"github.com/elicitdesk/elicitdesk/app/savefile"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/desktop/screen"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
)

// Deps are what the window shows and where it reads it.
type Deps struct {
	// Source lists the core's entries numbered after after, oldest first;
	// with wait, when there is none yet, it waits for the next, or
	// returns none after a while.
	Source func(ctx context.Context, after uint64, wait bool) ([]traffic.Entry, error)
	// CapturePath is the capture's file, where a message kept is read.
	CapturePath string
	// Capturing says whose messages the person keeps themselves;
	// SetCapturing keeps those from now on, as Settings does.
	Capturing    func() traffic.Scope
	SetCapturing func(traffic.Scope)
	// Settings opens the Settings window, where capture is switched on.
	Settings func()
}

// Options adjust the window for the app.
type Options struct {
	Do         func(func()) // runs a function on the UI goroutine later; nil: fyne.Do
	SaveDialog func(ctx context.Context, parent, name string) (string, error)
	Screen     func() screen.Screen // nil: screen.Fallback
	Version    string               // this build's, for a HAR's creator
}

// keep is how many entries the window holds: as many as the core's ring.
const keep = traffic.DefaultSize

// Window sizes, at first.
const (
	defaultWidth  = 1000
	defaultHeight = 640
)

// retryWait is how long the feed waits after the core did not answer.
const retryWait = time.Second

// Window is the Traffic window. Closing it hides it and stops its feed;
// it keeps its entries, filter and selection until shown again.
type Window struct {
	app   fyne.App
	deps  Deps
	opts  Options
	model *model
	run   func(work func() (apply func())) // off the UI goroutine, then on it

	// The rest belongs to the UI goroutine.
	win     fyne.Window
	filter  *keys.Entry
	problem *widget.Label
	table   *widget.Table
	status  *widget.Label
	follow  *widget.Check
	keep    *widget.Check // the capture of of's messages, as in Settings
	of      Of
	detail  *detail
	stop    context.CancelFunc // the feed's, while shown
	opened  bool
}

// New builds the Traffic window; nothing shows until Show.
func New(a fyne.App, deps Deps, opts Options) *Window {
	if opts.Do == nil {
		opts.Do = fyne.Do
	}
	if opts.Screen == nil {
		opts.Screen = screen.Fallback
	}
	w := &Window{app: a, deps: deps, opts: opts, model: newModel(keep)}
	w.run = func(work func() func()) { go func() { opts.Do(work()) }() }
	w.build()
	return w
}

// Window is the fyne.Window, for the app to place or close.
func (w *Window) Window() fyne.Window { return w.win }

// Of is whose messages the window is shown on: a configured server's,
// a bridged session's (Session, with its Server), or, zero, everyone's.
type Of struct{ Server, Session string }

// filter is the filter that shows what of names; "" for everyone's.
func (of Of) filter() string {
	switch {
	case of.Session != "":
		return "session:" + of.Session
	case of.Server != "":
		return serverFilter(of.Server)
	}
	return ""
}

// Show shows the window on of's messages and starts following what
// passes; shown on everyone's, it keeps the person's filter.
func (w *Window) Show(of Of) {
	w.of = of
	if f := of.filter(); f != "" {
		w.filter.SetText(f)
	}
	if !w.opened {
		w.opened = true
		w.opts.Screen().Show(w.win, fyne.NewSize(defaultWidth, defaultHeight))
	}
	w.win.Show()
	w.win.RequestFocus()
	w.showKeep() // Settings may have changed it
	if w.stop == nil {
		ctx, stop := context.WithCancel(context.Background())
		w.stop = stop
		go w.feed(ctx, w.lastSeq())
	}
}

// keptIn says whether scope keeps of's messages.
func (of Of) keptIn(scope traffic.Scope) bool {
	if of == (Of{}) {
		return scope.All
	}
	return scope.Keeps(of.Server, of.Session)
}

// showKeep shows whether the capture keeps the messages the window is on:
// everyone's, a server's or a session's. While everyone's are kept, one
// server's can only be let go of in Settings, or here shown on everyone's.
func (w *Window) showKeep() {
	switch {
	case w.of.Session != "":
		w.keep.Text = "Keep this session's messages"
	case w.of.Server != "":
		w.keep.Text = "Keep this server's messages"
	default:
		w.keep.Text = "Keep messages"
	}
	scope := w.deps.Capturing()
	if w.of != (Of{}) && scope.All {
		w.keep.Disable()
	} else {
		w.keep.Enable()
	}
	w.keep.SetChecked(w.of.keptIn(scope))
	w.keep.Refresh() // SetChecked redraws only when the value changes; the text may have
	w.detail.capturing(w.keep.Checked)
}

// hide puts the window away and stops the feed.
func (w *Window) hide() {
	if w.stop != nil {
		w.stop()
		w.stop = nil
	}
	w.win.Hide()
}

func (w *Window) lastSeq() uint64 {
	if n := len(w.model.all); n > 0 {
		return w.model.all[n-1].Seq
	}
	return 0
}

// feed hands what the core lists after seq to the model, until ctx ends.
func (w *Window) feed(ctx context.Context, seq uint64) {
	wait := false // the first ask takes what is there
	for ctx.Err() == nil {
		list, err := w.deps.Source(ctx, seq, wait)
		if err != nil {
			if ctx.Err() == nil {
				w.opts.Do(func() { w.status.SetText("The core did not list its traffic: " + untrusted.Text(err.Error()).Line()) })
			}
			select { // ask again a moment later, unless the window closed
			case <-time.After(retryWait):
			case <-ctx.Done():
			}
			continue
		}
		if len(list) > 0 {
			seq = list[len(list)-1].Seq
			w.opts.Do(func() {
				if ctx.Err() == nil {
					w.add(list)
				}
			})
		} else if !wait {
			w.opts.Do(w.render)
		}
		wait = true
	}
}

func (w *Window) build() {
	w.win = w.app.NewWindow("Traffic — Elicit Desk")
	w.win.SetCloseIntercept(w.hide)
	k := keys.Close(w.win, w.hide)

	w.filter = k.NewEntry()
	k.Find(w.filter)
	w.filter.SetPlaceHolder("Filter: method:tools/call status:error server:NAME dir:in, or any text")
	w.filter.OnChanged = func(text string) {
		w.model.setFilter(text)
		w.render()
	}
	w.problem = widget.NewLabel("")
	w.problem.Importance = widget.DangerImportance
	w.problem.Wrapping = fyne.TextWrapWord
	w.problem.Hide()
	w.follow = widget.NewCheck("Follow", func(on bool) {
		if on {
			w.table.ScrollToBottom()
		}
	})
	w.follow.Checked = true
	w.keep = widget.NewCheck("Keep messages", func(on bool) {
		w.detail.capturing(on)
		scope := w.deps.Capturing()
		if on == w.of.keptIn(scope) || w.deps.SetCapturing == nil {
			return
		}
		if w.of == (Of{}) {
			scope.All = on
		} else {
			scope = scope.With(w.of.Server, w.of.Session, on)
		}
		w.deps.SetCapturing(scope)
	})
	top := container.NewVBox(container.NewBorder(nil, nil, nil, container.NewHBox(w.keep, w.follow), w.filter), w.problem)

	// A cell is its text over the row's highlight: the table selects one
	// cell, the person a message.
	msgs := &messages{}
	w.table = &msgs.Table
	w.table.Length = func() (int, int) { return len(w.model.shown), len(row{}) }
	w.table.CreateCell = func() fyne.CanvasObject {
		l := widget.NewLabel("")
		l.Truncation = fyne.TextTruncateEllipsis
		return container.NewStack(canvas.NewRectangle(theme.Color(theme.ColorNameSelection)), l)
	}
	w.table.UpdateCell = func(id widget.TableCellID, o fyne.CanvasObject) {
		cell := o.(*fyne.Container)
		e := w.model.shown[id.Row]
		highlight := cell.Objects[0].(*canvas.Rectangle)
		highlight.FillColor = theme.Color(theme.ColorNameSelection) // the theme may have changed
		highlight.Hidden = e.Seq != w.model.selected
		cell.Objects[1].(*widget.Label).SetText(rowOf(e)[id.Col])
		cell.Refresh()
	}
	w.table.ShowHeaderRow = true
	msgs.ExtendBaseWidget(msgs)
	w.table.CreateHeader = func() fyne.CanvasObject {
		return widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	w.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		o.(*widget.Label).SetText(headings()[id.Col])
	}
	for col, width := range []float32{110, 160, 28, 140, 290, 70, 80, 90} {
		w.table.SetColumnWidth(col, width)
	}
	w.table.OnSelected = func(id widget.TableCellID) {
		if id.Row < 0 || id.Row >= len(w.model.shown) {
			return
		}
		e := w.model.shown[id.Row]
		if w.model.selected != e.Seq {
			w.model.selected = e.Seq
			w.follow.SetChecked(false) // the person looks at this one
			w.table.Refresh()          // the row's highlight
			w.showDetail(e)
		}
	}
	w.detail = newDetail(w)
	split := container.NewVSplit(msgs, w.detail.object)
	split.Offset = 0.5

	w.status = widget.NewLabel("")
	stats := look.NewButton("Latencies…", theme.InfoIcon(), w.showLatencies)
	var export *look.Button
	export = look.NewButton("Export…", theme.DocumentSaveIcon(), func() {
		menu := fyne.NewMenu("",
			fyne.NewMenuItem("JSON Lines…", func() { w.export("elicitdesk-traffic.jsonl", jsonLines) }),
			fyne.NewMenuItem("HAR 1.2…", func() { w.export("elicitdesk-traffic.har", w.har) }),
		)
		at := fyne.CurrentApp().Driver().AbsolutePositionForObject(export)
		widget.ShowPopUpMenuAtPosition(menu, w.win.Canvas(), at.Add(fyne.NewPos(0, export.Size().Height)))
	})
	bottom := container.NewBorder(nil, nil, nil, container.NewHBox(stats, export), w.status)
	w.win.SetContent(keys.Border(top, bottom, nil, nil, split)) // Tab: the filter, then the table
	w.render()
}

// add shows entries the core listed.
func (w *Window) add(list []traffic.Entry) {
	if w.model.add(list) {
		w.render()
		if w.follow.Checked {
			w.table.ScrollToBottom()
		}
		return
	}
	w.status.SetText(w.model.status())
}

// render shows the model: the rows, the filter's problem, the status.
func (w *Window) render() {
	if w.model.problem != "" {
		w.problem.SetText(untrusted.Text(w.model.problem).Block())
		w.problem.Show()
	} else {
		w.problem.Hide()
	}
	w.status.SetText(w.model.status())
	w.table.Refresh()
	if i := w.model.selectedIndex(); i >= 0 {
		w.table.Select(widget.TableCellID{Row: i, Col: 0})
	} else {
		w.table.UnselectAll()
	}
}

// showDetail shows e, and its message once read from the capture.
func (w *Window) showDetail(e traffic.Entry) {
	partner, ok := w.model.partner(e)
	w.detail.show(e, partner, ok)
	if w.deps.CapturePath == "" {
		return
	}
	w.run(func() func() {
		l, found, err := traffic.Find(w.deps.CapturePath, e)
		return func() {
			if w.model.selected == e.Seq {
				w.detail.body(l, found, err)
			}
		}
	})
}

// goTo selects the entry numbered seq, showing all when the filter hides
// it.
func (w *Window) goTo(seq uint64) {
	e, ok := w.model.entry(seq)
	if !ok {
		return
	}
	w.model.selected = seq
	if w.model.selectedIndex() < 0 {
		w.filter.SetText("") // renders
	}
	w.render()
	if i := w.model.selectedIndex(); i >= 0 {
		w.table.ScrollTo(widget.TableCellID{Row: i, Col: 0})
	}
	w.showDetail(e)
}

// showLatencies shows the latency percentiles of what is shown.
func (w *Window) showLatencies() {
	stats := traffic.Latencies(w.model.shown)
	text := "No answered requests are shown."
	if len(stats) > 0 {
		var b bytes.Buffer
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, traffic.LatencyHeadings)
		for _, s := range stats {
			fmt.Fprintln(tw, s.Row())
		}
		tw.Flush()
		text = b.String()
	}
	l := widget.NewLabel(text)
	l.TextStyle = fyne.TextStyle{Monospace: true}
	l.Selectable = true
	var hide func()
	closeB := look.NewButton("Close", nil, func() { hide() })
	hide = modal.Show(w.win.Canvas(), "Latencies of what is shown", container.NewVScroll(l), fyne.NewSize(900, 420), closeB)
}

// export asks where to save what is shown, with the messages the capture
// kept, and writes it by write.
func (w *Window) export(name string, write func(io.Writer, []traffic.CaptureLine) error) {
	shown := append([]traffic.Entry(nil), w.model.shown...)
	saver := savefile.Saver{Win: w.win, System: w.opts.SaveDialog, Run: w.run}
	saver.Save(name, func(out io.Writer) error {
		return write(out, withBodies(shown, w.deps.CapturePath))
	}, func(where string, err error) {
		if err != nil {
			modal.Tell(w.win.Canvas(), "Nothing was exported", err.Error(), nil)
			return
		}
		w.status.SetText(fmt.Sprintf("%d messages exported to %s", len(shown), where))
	})
}

// withBodies are entries with the messages the capture at path kept.
func withBodies(entries []traffic.Entry, path string) []traffic.CaptureLine {
	type key struct {
		seq uint64
		at  int64
	}
	kept := map[key]traffic.CaptureLine{}
	if path != "" {
		lines, _ := traffic.ReadCapture(path, traffic.DefaultCaptureLimits.Retention, time.Now())
		for _, l := range lines {
			kept[key{l.Seq, l.Time.UnixNano()}] = l
		}
	}
	out := make([]traffic.CaptureLine, len(entries))
	for i, e := range entries {
		out[i] = traffic.CaptureLine{Entry: e}
		if l, ok := kept[key{e.Seq, e.Time.UnixNano()}]; ok {
			out[i].Header, out[i].Body, out[i].Cut = l.Header, l.Body, l.Cut
		}
	}
	return out
}

// jsonLines writes lines as JSON Lines, every character that could fool
// a reader escaped.
func jsonLines(out io.Writer, lines []traffic.CaptureLine) error {
	for _, l := range lines {
		if _, err := io.WriteString(out, untrusted.JSON(l.JSON())+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// har writes lines as a HAR 1.2 log.
func (w *Window) har(out io.Writer, lines []traffic.CaptureLine) error {
	b, err := traffic.HAR(lines, "Elicit Desk", w.opts.Version)
	if err == nil {
		_, err = io.WriteString(out, untrusted.JSON(b)+"\n")
	}
	return err
}

// detail is the pane of the selected message: its facts, its request or
// answer one click away, and the message itself where the capture kept
// it.
type detail struct {
	object  fyne.CanvasObject
	empty   *widget.Label
	content *fyne.Container
	facts   *widget.Label
	partner *look.Button
	copy    *look.Button
	message *widget.Label
	off     *fyne.Container // why no message shows: capture is off
	text    string          // the message, whole, for Copy
	goTo    uint64
}

func newDetail(w *Window) *detail {
	d := &detail{empty: widget.NewLabel("Select a message to see it here.")}
	d.facts = widget.NewLabel("")
	d.facts.Wrapping = fyne.TextWrapWord
	d.facts.Selectable = true
	d.partner = look.NewButton("", theme.NavigateNextIcon(), func() { w.goTo(d.goTo) })
	d.copy = look.NewButton("Copy the message", theme.ContentCopyIcon(), func() {
		w.app.Clipboard().SetContent(d.text)
	})
	d.message = widget.NewLabel("")
	d.message.TextStyle = fyne.TextStyle{Monospace: true}
	d.message.Wrapping = fyne.TextWrapBreak // long strings must not widen the pane
	d.message.Selectable = true
	settings := look.NewButton("Settings…", theme.SettingsIcon(), func() {
		if w.deps.Settings != nil {
			w.deps.Settings()
		}
	})
	d.off = container.NewHBox(widget.NewLabel("The messages themselves are not kept: tick Keep messages, or see Settings."), settings)
	d.content = container.NewVBox(d.facts, container.NewHBox(d.partner, d.copy), d.off, d.message)
	d.content.Hide()
	d.object = container.NewVScroll(container.NewStack(d.empty, d.content))
	return d
}

// capturing shows, or not, that the messages themselves are not kept.
func (d *detail) capturing(on bool) {
	if on {
		d.off.Hide()
	} else {
		d.off.Show()
	}
}

// show fills the pane with e's facts and, when ok, a button to partner.
func (d *detail) show(e, partner traffic.Entry, ok bool) {
	d.facts.SetText(facts(e))
	d.goTo = partner.Seq
	switch {
	case !ok:
		d.partner.Hide()
	case e.Kind == traffic.Request:
		d.partner.SetText("Go to the answer")
		d.partner.Show()
	default:
		d.partner.SetText("Go to the request")
		d.partner.Show()
	}
	d.message.SetText("")
	d.text = ""
	d.copy.Disable()
	d.empty.Hide()
	d.content.Show()
	d.object.Refresh()
}

// detailAtMost bounds, in characters, the message the pane lays out:
// Fyne wraps slowly, and Copy copies all of it.
const detailAtMost = 4000

// body shows the message the capture kept, or why there is none.
func (d *detail) body(l traffic.CaptureLine, found bool, err error) {
	switch {
	case err != nil:
		d.message.SetText("The capture could not be read: " + untrusted.Text(err.Error()).Block())
	case !found:
		d.message.SetText("The capture did not keep this message.")
	default:
		var b bytes.Buffer
		if json.Indent(&b, l.Body, "", "  ") != nil {
			b.Reset()
			b.Write(l.Body)
		}
		d.text = headerLines(l.Header) + untrusted.JSON(b.Bytes())
		shown, cut := untrusted.Fold(d.text, detailAtMost)
		if cut || l.Cut {
			shown += "\n\n[Cut here for display.]"
		}
		d.message.SetText(shown)
		d.copy.Enable()
	}
	d.object.Refresh()
}

// messages is the table of messages. It passes the keys it has no use
// for (Escape, F1, the page keys) on to the window, which a focused Fyne
// table swallows.
type messages struct{ widget.Table }

func (m *messages) TypedKey(ev *fyne.KeyEvent) {
	if !keys.PassOn(fyne.CurrentApp().Driver().CanvasForObject(m), ev) {
		m.Table.TypedKey(ev)
	}
}

// AccessibilityLabel implements fyne.Accessible.
func (m *messages) AccessibilityLabel() string { return "Messages" }

// AccessibilityRole implements fyne.Accessible: it holds its rows.
func (m *messages) AccessibilityRole() fyne.AccessibleRole { return fyne.AccessibleRoleContainer }
