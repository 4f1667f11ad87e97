package traffic

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/servers/link"
)

// captured runs the record r's capture into a file of its own, and
// returns the file's path and the capture.
func captured(t testing.TB, r *Record, limits CaptureLimits) (string, *Capture) {
	path := filepath.Join(t.TempDir(), "state", "traffic.jsonl")
	redact, err := NewRedactor([]string{"ACME-[0-9]+"})
	if err != nil {
		t.Fatal(err)
	}
	c := NewCapture(t.Context(), path, limits, redact, slog.New(slog.DiscardHandler))
	r.Capture(c, Scope{All: true})
	return path, c
}

func flushed(t testing.TB, c *Capture) {
	t.Helper()
	if err := c.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// TestCaptureKeepsBodiesRedacted: with capture on, each message's body is
// in the file beside its entry, numbered as in the ring, only the
// person's to read; no secret of the conversation reaches it.
func TestCaptureKeepsBodiesRedacted(t *testing.T) {
	var c struct{ Steps []step }
	readJSON(t, "conversation.json", &c)
	r, f, l := tapped(0)
	path, capture := captured(t, r, DefaultCaptureLimits)
	for _, s := range c.Steps {
		pass(t, f, l, s.Dir, s.Raw)
	}
	pass(t, f, l, FromServer, []byte(`{"jsonrpc":"2.0","id":"form","method":"elicitation/create","params":{"message":"Sign in","requestedSchema":{"type":"object","properties":{"p":{"type":"string","title":"Passwort"},"who":{"type":"string"}}}}}`))
	pass(t, f, l, ToServer, []byte(`{"jsonrpc":"2.0","id":"form","result":{"action":"accept","content":{"p":"Tr0ub4dor&3","who":"ann for ACME-4471"}}}`))
	flushed(t, capture)

	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 || mustStat(t, filepath.Dir(path)).Mode().Perm() != 0o700 {
		t.Errorf("the capture is %v in %v: others can read it", info.Mode(), mustStat(t, filepath.Dir(path)).Mode())
	}
	lines, err := ReadCapture(path, 0, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	ring, _ := r.After(0)
	if len(lines) != len(ring) {
		t.Fatalf("%d lines for %d entries", len(lines), len(ring))
	}
	raw, _ := os.ReadFile(path)
	for _, secret := range []string{"Tr0ub4dor", "ACME-4471", "secret"} {
		if strings.Contains(string(raw), secret) {
			t.Errorf("%q reached the capture", secret)
		}
	}
	for i, l := range lines {
		if l.Entry != ring[i] {
			t.Errorf("line %d: %+v, the ring has %+v", i, l.Entry, ring[i])
		}
		if !json.Valid(l.Body) || len(l.Body) == 0 {
			t.Errorf("line %d: body %q", i, l.Body)
		}
	}
	if last := string(lines[len(lines)-1].Body); !strings.Contains(last, `"who":"ann for [redacted]"`) || !strings.Contains(last, `"p":"[redacted]"`) {
		t.Errorf("the form's answer: %s", last)
	}
	if s := capture.Status(); s.Written != int64(len(lines)) || s.Dropped != 0 || s.Error != "" {
		t.Errorf("status %+v", s)
	}
}

func mustStat(t *testing.T, path string) os.FileInfo {
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// TestCaptureOff: with no capture, entries go on into the ring and no
// body is kept; a new redactor applies to what is kept after it.
func TestCaptureOff(t *testing.T) {
	r, f, l := tapped(0)
	path, capture := captured(t, r, DefaultCaptureLimits)
	pass(t, f, l, ToServer, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{"q":"ACME-1 BETA-2"}}}`))
	r.Capture(nil, Scope{})
	pass(t, f, l, ToServer, []byte(`{"jsonrpc":"2.0","id":2,"method":"ping"}`))
	r.Capture(capture, Scope{All: true})
	beta, _ := NewRedactor([]string{"BETA-[0-9]"})
	capture.Redact(beta)
	pass(t, f, l, ToServer, []byte(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"a","arguments":{"q":"ACME-1 BETA-2"}}}`))
	flushed(t, capture)
	lines, _ := ReadCapture(path, 0, time.Now())
	ring, _ := r.After(0)
	if len(ring) != 3 || len(lines) != 2 || lines[0].Seq != 1 || lines[1].Seq != 3 {
		t.Fatalf("ring %d, lines %+v", len(ring), lines)
	}
	if !strings.Contains(string(lines[0].Body), `[redacted] BETA-2`) || !strings.Contains(string(lines[1].Body), `ACME-1 [redacted]`) {
		t.Errorf("redacted by the patterns of their time: %s, %s", lines[0].Body, lines[1].Body)
	}
}

// TestCaptureBigBody: a body over MaxBody keeps its start, redacted, as a
// string, and says it was cut.
func TestCaptureBigBody(t *testing.T) {
	r, f, l := tapped(0)
	path, capture := captured(t, r, CaptureLimits{MaxBytes: 64 << 20, Retention: time.Hour, MaxBody: 1 << 10})
	big := `{"jsonrpc":"2.0","id":1,"result":{"password":"hunter2","text":"` + strings.Repeat("é", 4<<20) + `"}}`
	pass(t, f, l, FromServer, []byte(big))
	flushed(t, capture)
	lines, _ := ReadCapture(path, 0, time.Now())
	if len(lines) != 1 || !lines[0].Cut || lines[0].Size != len(big) {
		t.Fatalf("%+v", lines)
	}
	var head string
	if err := json.Unmarshal(lines[0].Body, &head); err != nil || len(head) > 1<<10 || strings.Contains(head, "hunter2") {
		t.Errorf("%v: %d bytes", err, len(head))
	}
	if want := `{"jsonrpc":"2.0","id":1,"result":{"password":"[redacted]","text":"éé`; !strings.HasPrefix(head, want) {
		t.Errorf("%.80q does not start %q", head, want)
	}
}

// TestCaptureFileTroubles: the file deleted, truncated, made unreadable
// or on a full disk while recording: each write that can work works, a
// failed one is counted and said, and Keep never waits.
func TestCaptureFileTroubles(t *testing.T) {
	clock := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	dir := t.TempDir()
	path := filepath.Join(dir, "traffic.jsonl")
	cf := captureFile{path: path, limits: DefaultCaptureLimits, now: func() time.Time { return clock }}
	defer cf.close()
	write := func(seq uint64) error {
		clock = clock.Add(checkEvery)
		b, _ := json.Marshal(CaptureLine{Entry: Entry{Seq: seq, Time: clock}, Body: json.RawMessage(`{}`)})
		return cf.append(append(b, '\n'))
	}
	seqs := func() (out []uint64) {
		lines, err := ReadCapture(path, 0, clock)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lines {
			out = append(out, l.Seq)
		}
		return out
	}
	for seq := range uint64(2) {
		if err := write(seq + 1); err != nil {
			t.Fatal(err)
		}
	}
	os.Remove(path)
	if err := write(3); err != nil || len(seqs()) != 1 || seqs()[0] != 3 {
		t.Errorf("after removal: %v, %v", err, seqs())
	}
	os.Truncate(path, 0)
	if err := write(4); err != nil || len(seqs()) != 1 || seqs()[0] != 4 {
		t.Errorf("after truncation: %v, %v", err, seqs())
	}
	os.Chmod(path, 0)
	if err := write(5); err != nil {
		t.Errorf("made unreadable: %v", err)
	}
	os.Chmod(path, 0o600)
	os.WriteFile(path, []byte(`{"seq":6,"time":"2026-11-29T12:00:`), 0o600) // half a line, as a full disk leaves
	clock = clock.Add(checkEvery)
	if err := write(7); err != nil || len(seqs()) != 1 || seqs()[0] != 7 {
		t.Errorf("after half a line: %v, %v", err, seqs())
	}

	full := filepath.Join(dir, "full.jsonl")
	if err := os.Symlink("/dev/full", full); err != nil {
		t.Fatal(err)
	}
	r, f, l := tapped(0)
	c := NewCapture(t.Context(), full, DefaultCaptureLimits, &Redactor{}, slog.New(slog.DiscardHandler))
	r.Capture(c, Scope{All: true})
	pass(t, f, l, ToServer, []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	flushed(t, c)
	if s := c.Status(); s.Dropped != 1 || s.Written != 0 || !strings.Contains(s.Error, "no space") {
		t.Errorf("on a full disk: %+v", s)
	}
	if info, _ := os.Stat("/dev/full"); info.Mode().Perm() != 0o666 {
		t.Errorf("/dev/full is now %v", info.Mode()) // a capture must change only a file of its own
	}
}

// TestCaptureTurnsOver: the file and its old one stay within MaxBytes;
// a file past its retention goes, and lines past it are not read.
func TestCaptureTurnsOver(t *testing.T) {
	clock := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	path := filepath.Join(t.TempDir(), "traffic.jsonl")
	limits := CaptureLimits{MaxBytes: 4 << 10, Retention: 24 * time.Hour, MaxBody: 1 << 10}
	cf := captureFile{path: path, limits: limits, now: func() time.Time { return clock }}
	defer cf.close()
	body, _ := json.Marshal(strings.Repeat("x", 100))
	for seq := range uint64(200) {
		clock = clock.Add(time.Second)
		b, _ := json.Marshal(CaptureLine{Entry: Entry{Seq: seq + 1, Time: clock}, Body: body})
		if err := cf.append(append(b, '\n')); err != nil {
			t.Fatal(err)
		}
		if total := size(path) + size(path+".1"); total > limits.MaxBytes {
			t.Fatalf("after %d lines, %d bytes", seq+1, total)
		}
	}
	lines, _ := ReadCapture(path, limits.Retention, clock)
	if len(lines) < 10 || lines[len(lines)-1].Seq != 200 {
		t.Errorf("%d lines kept, the last %d", len(lines), lines[len(lines)-1].Seq)
	}

	clock = clock.Add(13 * time.Hour) // past half the retention: the next line starts a new file
	b, _ := json.Marshal(CaptureLine{Entry: Entry{Seq: 201, Time: clock}, Body: body})
	cf.append(append(b, '\n'))
	if lines, _ := ReadCapture(path, limits.Retention, clock); len(lines) < 2 || lines[len(lines)-1].Seq != 201 {
		t.Errorf("after half the retention: %d lines", len(lines))
	}
	clock = clock.Add(25 * time.Hour)
	if lines, _ := ReadCapture(path, limits.Retention, clock); len(lines) != 0 {
		t.Errorf("past the retention, %d lines are read", len(lines))
	}
	os.Chtimes(path+".1", clock.Add(-25*time.Hour), clock.Add(-25*time.Hour))
	cf.close()
	if err := cf.open(); err != nil || size(path+".1") != 0 {
		t.Errorf("an old file past its retention stays: %v", err)
	}
}

func size(path string) int64 {
	info, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return info.Size()
}

// TestCaptureNeverWaits: a capture whose writer is stuck loses bodies,
// not time: Keep returns at once with the queue full.
func TestCaptureNeverWaits(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel() // the writer ends at once: nothing drains the queue
	c := NewCapture(ctx, filepath.Join(t.TempDir(), "t.jsonl"), DefaultCaptureLimits, &Redactor{}, slog.New(slog.DiscardHandler))
	body := make([]byte, 1<<20)
	for range captureQueue + 100 {
		c.Keep(Entry{}, body, nil)
	}
	if got := c.Status().Dropped; got < 100 {
		t.Errorf("%d dropped", got)
	}
}

// TestFind: the line of an entry is found by its number and time; a line
// of an earlier run with the same number is not it.
func TestFind(t *testing.T) {
	clock := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	path := filepath.Join(t.TempDir(), "traffic.jsonl")
	cf := captureFile{path: path, limits: DefaultCaptureLimits, now: func() time.Time { return clock }}
	defer cf.close()
	for i, e := range []Entry{{Seq: 7, Time: clock}, {Seq: 8, Time: clock}, {Seq: 7, Time: clock.Add(time.Hour)}} {
		b, _ := json.Marshal(CaptureLine{Entry: e, Body: json.RawMessage(fmt.Sprintf(`{"n":%d}`, i))})
		if err := cf.append(append(b, '\n')); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		e    Entry
		body string
		ok   bool
	}{
		{Entry{Seq: 7, Time: clock}, `{"n":0}`, true},
		{Entry{Seq: 7, Time: clock.Add(time.Hour)}, `{"n":2}`, true},
		{Entry{Seq: 8, Time: clock}, `{"n":1}`, true},
		{Entry{Seq: 8, Time: clock.Add(time.Hour)}, "", false},
		{Entry{Seq: 70, Time: clock}, "", false},
	} {
		l, ok, err := Find(path, c.e)
		if err != nil || ok != c.ok || string(l.Body) != c.body && c.ok {
			t.Errorf("Find #%d at %v: %s, %v, %v", c.e.Seq, c.e.Time, l.Body, ok, err)
		}
	}
	if _, ok, err := Find(filepath.Join(t.TempDir(), "none.jsonl"), Entry{Seq: 1}); ok || err != nil {
		t.Errorf("no capture: %v, %v", ok, err)
	}
}

// BenchmarkCapture100k passes 100,000 messages of one session through a
// record with the capture on, as fast as they come, and reports the heap
// the record and the capture hold after (heap-MB: the ring's entries and
// what waits for the disk, both bounded), the bodies written and dropped,
// and the time a message costs the session, its parsing included
// (ns/message).
func BenchmarkCapture100k(b *testing.B) {
	const n = 100_000
	call := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"` + strings.Repeat("x", 900) + `"}}}`)
	var status CaptureStatus
	var heap float64
	for b.Loop() {
		r, _, l := tapped(0)
		path, capture := captured(b, r, DefaultCaptureLimits)
		for range n {
			m, _ := link.Parse(slices.Clone(call)) // a message of its own, as read from a server
			l.Write(b.Context(), m)
		}
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		heap = float64(m.HeapAlloc) / (1 << 20)
		if err := capture.Flush(b.Context()); err != nil {
			b.Fatal(err)
		}
		status = capture.Status()
		os.Remove(path)
	}
	b.ReportMetric(heap, "heap-MB")
	b.ReportMetric(float64(status.Written), "written")
	b.ReportMetric(float64(status.Dropped), "dropped")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/message")
}

// BenchmarkCapture10kPerSecond offers one session's 10,000 messages of
// about 1 KiB in one second, 100 every 10 ms, with the capture on, and
// reports how many bodies were written and dropped: the flood,
// at the pace it names.
func BenchmarkCapture10kPerSecond(b *testing.B) {
	call := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"` + strings.Repeat("x", 900) + `"}}}`)
	var status CaptureStatus
	for b.Loop() {
		r, _, l := tapped(0)
		path, capture := captured(b, r, DefaultCaptureLimits)
		tick := time.NewTicker(10 * time.Millisecond)
		for range 100 {
			for range 100 {
				m, _ := link.Parse(slices.Clone(call))
				l.Write(b.Context(), m)
			}
			<-tick.C
		}
		tick.Stop()
		if err := capture.Flush(b.Context()); err != nil {
			b.Fatal(err)
		}
		status = capture.Status()
		os.Remove(path)
	}
	b.ReportMetric(float64(status.Written), "written")
	b.ReportMetric(float64(status.Dropped), "dropped")
}

// TestSweep: the capture's files go once nothing was written to them for
// longer than the retention, the capture off or not.
func TestSweep(t *testing.T) {
	now := time.Now()
	dir := t.TempDir()
	path := filepath.Join(dir, "traffic.jsonl")
	for _, c := range []struct {
		age           time.Duration
		file, oldFile bool // left
	}{
		{time.Hour, true, true},
		{8 * 24 * time.Hour, false, false},
	} {
		for _, p := range []string{path, path + ".1"} {
			os.WriteFile(p, []byte("{}\n"), 0o600)
			os.Chtimes(p, now.Add(-c.age), now.Add(-c.age))
		}
		if err := Sweep(path, DefaultCaptureLimits.Retention, now); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(path); (err == nil) != c.file {
			t.Errorf("%v old: the file left %v", c.age, err == nil)
		}
		if _, err := os.Stat(path + ".1"); (err == nil) != c.oldFile {
			t.Errorf("%v old: the old file left %v", c.age, err == nil)
		}
	}
	if err := Sweep(filepath.Join(dir, "none"), time.Hour, now); err != nil {
		t.Errorf("nothing to sweep: %v", err)
	}
}
