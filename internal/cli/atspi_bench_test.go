//go:build linux

package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/app"
)

// BenchmarkWindowsIdleScreenReader measures the windows' process idling
// with the Servers window open, on a desktop with a session bus and the
// at-spi launcher: without a screen reader (the adapter waits on the bus
// and should cost nothing), and with one that has read the window (the
// adapter compares trees watchEvery). It reports the process's wakeups a
// second, its share of a core and its memory (USS, PSS, RSS), each over
// 20 s after 10 s of settling. Run it with ELICITDESK_BIN set to another
// build to compare.
func BenchmarkWindowsIdleScreenReader(b *testing.B) {
	for _, reader := range []bool{false, true} {
		name := "no screen reader"
		if reader {
			name = "screen reader"
		}
		b.Run(name, func(b *testing.B) {
			bus := startA11ySession(b)
			d := startDesktopWith(b, "", false, "DBUS_SESSION_BUS_ADDRESS="+bus)
			d.window("Servers")
			d.activationDisplay()
			if reader {
				d.screenReader(true)
				var r a11yRead
				d.atspi(&r, "read", appName, "Servers")
			} else if _, err := d.run("dbus-send", "--session", "--print-reply", "--dest=org.a11y.Bus", "/org/a11y/bus",
				"org.freedesktop.DBus.Properties.Get", "string:org.a11y.Status", "string:IsEnabled"); err != nil {
				b.Fatal(err) // the launcher runs, as on a desktop, and says no one reads
			}
			ui := d.uiProcesses()
			if len(ui) != 1 {
				b.Fatalf("windows' processes: %v", ui)
			}
			pid := ui[0]
			const settle, idle = 10 * time.Second, 20 * time.Second
			time.Sleep(settle) // start-up over: not a wait for an event
			var mem memory
			var wakeups, core float64
			for b.Loop() {
				switches, ticks := contextSwitches(b, pid), cpuTicks(b, pid)
				mem = memory{}
				const samples = int(idle / time.Second)
				for range samples {
					time.Sleep(time.Second) // the idle time measured, not a wait
					mem = mem.add(memoryOf(b, pid), samples)
				}
				wakeups = float64(contextSwitches(b, pid)-switches) / idle.Seconds()
				core = 100 * float64(cpuTicks(b, pid)-ticks) / clockTicks / idle.Seconds()
			}
			b.ReportMetric(mem.uss, "MB-USS")
			b.ReportMetric(mem.pss, "MB-PSS")
			b.ReportMetric(mem.rss, "MB-RSS")
			b.ReportMetric(wakeups, "wakeups/s")
			b.ReportMetric(core, "%core")
		})
	}
}

// BenchmarkScreenReaderSeesWindow measures how soon a screen reader hears
// of a new request window and has read it: from the moment the windows'
// process showed it ("request shown" in the log) to libatspi's
// window:create event, and to the end of a client's walk of the whole
// window (libatspi asks for each node's name, role, states, text and
// actions: hundreds of calls), for the demo's every-field form.
func BenchmarkScreenReaderSeesWindow(b *testing.B) {
	bus := startA11ySession(b)
	d := startDesktopWith(b, "", false, "DBUS_SESSION_BUS_ADDRESS="+bus)
	d.window("Servers")
	d.activationDisplay()
	d.screenReader(true)
	var told, read []time.Duration
	for b.Loop() {
		script, err := filepath.Abs(filepath.Join("..", "..", "testdata", "atspi", "client.py"))
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		watch := exec.CommandContext(ctx, pyatspi, script, "watch", appName, "demo: ")
		watch.Env = d.env
		var stderr bytes.Buffer
		watch.Stderr = &stderr
		pipe, err := watch.StdoutPipe()
		if err != nil {
			b.Fatal(err)
		}
		if err := watch.Start(); err != nil {
			b.Fatal(err)
		}
		out := bufio.NewReader(pipe)
		if ready, _ := out.ReadString('\n'); !strings.Contains(ready, "listening") {
			b.Fatalf("client.py watch: %q %s", ready, &stderr)
		}
		call := exec.CommandContext(ctx, d.bin, "call", "-server", "demo", "-tool", "ask_every_field", "-answer", "desk")
		call.Env = d.env
		if err := call.Start(); err != nil {
			b.Fatal(err)
		}
		var seen struct{ Created, Read float64 }
		if err := json.NewDecoder(out).Decode(&seen); err != nil {
			b.Fatalf("client.py watch: %v %s", err, &stderr)
		}
		watch.Wait()
		// The person, not a wait: a window the app opened by itself takes
		// nothing for its guard time, and something given sooner makes
		// it hold until F6 or a click (so no poll can stand in here).
		time.Sleep(app.GuardTime + 250*time.Millisecond)
		var r a11yRead
		d.atspi(&r, "read", appName, "demo: ", `[{"do": "Cancel", "role": "push button"}]`)
		if err := call.Wait(); err != nil {
			b.Fatalf("call: %v", err)
		}
		cancel()
		shown := d.shownAt(b, len(told)+1)
		told = append(told, time.UnixMicro(int64(seen.Created*1e6)).Sub(shown))
		read = append(read, time.UnixMicro(int64(seen.Read*1e6)).Sub(shown))
	}
	b.ReportMetric(mean(told), "ms-to-event")
	b.ReportMetric(mean(read), "ms-to-read")
	b.ReportMetric(float64(slicesMax(told))/1e6, "ms-to-event-max")
}

// shownAt is when the windows' process showed request id, from its log.
func (d *desktop) shownAt(b testing.TB, id int) time.Time {
	re := regexp.MustCompile(fmt.Sprintf(`time=(\S+) level=DEBUG msg="request shown" server=demo id=%d `, id))
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := re.FindStringSubmatch(d.log.String()); m != nil {
			at, err := time.Parse(time.RFC3339Nano, m[1])
			if err != nil {
				b.Fatal(err)
			}
			return at
		}
	}
	b.Fatalf("request %d was never shown:\n%s", id, d.log)
	return time.Time{}
}

func mean(ds []time.Duration) float64 {
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	return float64(sum) / float64(len(ds)) / 1e6
}

func slicesMax(ds []time.Duration) time.Duration {
	var m time.Duration
	for _, d := range ds {
		m = max(m, d)
	}
	return m
}
