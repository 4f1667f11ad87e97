package cli

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// logged returns every value of key in the app's log lines with msg.
func (d *desktop) logged(msg, key string) []string {
	var out []string
	re := regexp.MustCompile(key + `=(\S+)`)
	sc := bufio.NewScanner(strings.NewReader(d.log.String()))
	for sc.Scan() {
		if strings.Contains(sc.Text(), `msg="`+msg+`"`) || strings.Contains(sc.Text(), "msg="+msg+" ") {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				out = append(out, m[1])
			}
		}
	}
	return out
}

// BenchmarkRequestToWindow measures, in the built app under Xvfb, the time
// from a request arriving to its window being up, twice: in the app, which
// logs it from the UI goroutine's next turn after showing the window; and
// from outside, from starting `elicitdesk call -answer desk` to the X
// server mapping the window, as another X client sees it. The outside
// figure adds the call's own start, its connection to the app and the
// demo server's turn. Each request is answered by Escape.
func BenchmarkRequestToWindow(b *testing.B) {
	d := startDesktop(b, "")
	d.window("Servers")
	maps := d.watchMaps()
	const requests = 20
	var inApp, outside []time.Duration
	for b.Loop() {
		for range requests {
			call := exec.Command(d.bin, "call", "-server", "demo", "-tool", "ask_confirm", "-answer", "desk")
			call.Env = d.env
			start := time.Now()
			if err := call.Start(); err != nil {
				b.Fatal(err)
			}
			mapped := d.nextMap(maps, true, "^demo: ")
			outside = append(outside, mapped.At.Sub(start))
			d.keys(mapped.Window, "", "Escape")
			if err := call.Wait(); err != nil {
				b.Fatal(err)
			}
			d.nextMap(maps, false, "")
		}
	}
	for _, s := range d.logged("request shown", "after") {
		v, err := time.ParseDuration(s)
		if err != nil {
			b.Fatal(err)
		}
		inApp = append(inApp, v)
	}
	reportSpread(b, inApp, "ms-app")
	reportSpread(b, outside, "ms-outside")
}

// reportSpread reports the median and the 90th percentile of ds.
func reportSpread(b *testing.B, ds []time.Duration, unit string) {
	if len(ds) == 0 {
		b.Fatalf("nothing measured for %s", unit)
	}
	slices.Sort(ds)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(ds[len(ds)/2]), unit+"-median")
	b.ReportMetric(ms(ds[len(ds)*9/10]), unit+"-p90")
}

// BenchmarkIdleMemory10Servers measures the app itself (its servers are
// other processes) with ten servers connected and sitting idle for 20 s:
// its resident memory, its wakeups a second (context switches of all its
// threads) and the share of one core it used.
func BenchmarkIdleMemory10Servers(b *testing.B) {
	var entries []string
	for i := range 10 {
		entries = append(entries, fmt.Sprintf(`"demo%d": {"command": %q, "args": ["demo-server"]}`, i, os.Getenv(binEnv)))
	}
	d := startDesktop(b, `{"mcpServers": {`+strings.Join(entries, ",")+`}}`)
	d.window("Servers")
	deadline := time.Now().Add(2 * time.Minute)
	for countReady(d) < 10 {
		if time.Now().After(deadline) {
			b.Fatalf("only %d servers ready", countReady(d))
		}
		time.Sleep(50 * time.Millisecond)
	}
	const idle = 20 * time.Second
	pid := d.app.Process.Pid
	var rss, wakeups, core float64
	for b.Loop() {
		switches, ticks := contextSwitches(b, pid), cpuTicks(b, pid)
		time.Sleep(idle) // the idle time measured, not a wait
		wakeups = float64(contextSwitches(b, pid)-switches) / idle.Seconds()
		core = 100 * float64(cpuTicks(b, pid)-ticks) / clockTicks / idle.Seconds()
		rss = residentMB(b, pid)
	}
	b.ReportMetric(rss, "MB-RSS")
	b.ReportMetric(wakeups, "wakeups/s")
	b.ReportMetric(core, "%core")
}

// clockTicks is the kernel's USER_HZ, in which /proc reports CPU time: 100
// on every Linux architecture Go supports.
const clockTicks = 100

// contextSwitches sums the voluntary and involuntary context switches of
// every thread of a process: how often it woke up.
func contextSwitches(b *testing.B, pid int) int {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/status", pid))
	if err != nil || len(tasks) == 0 {
		b.Fatalf("threads of %d: %v", pid, err)
	}
	n := 0
	for _, t := range tasks {
		raw, err := os.ReadFile(t)
		if err != nil {
			continue // a thread that ended
		}
		for _, line := range strings.Split(string(raw), "\n") {
			if f := strings.Fields(line); len(f) == 2 && strings.HasSuffix(f[0], "ctxt_switches:") {
				v, _ := strconv.Atoi(f[1])
				n += v
			}
		}
	}
	return n
}

// cpuTicks is a process's user and system time, in clock ticks.
func cpuTicks(b *testing.B, pid int) int {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatal(err)
	}
	// The fields after the command, which is in parentheses and may hold
	// spaces: utime and stime are the 12th and 13th of them.
	f := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+1:]))
	utime, _ := strconv.Atoi(f[11])
	stime, _ := strconv.Atoi(f[12])
	return utime + stime
}

func countReady(d *desktop) int {
	n := 0
	for _, s := range d.logged("server", "state") {
		if s == "ready" {
			n++
		}
	}
	return n
}

// residentMB reads a process's resident set size.
func residentMB(b *testing.B, pid int) float64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "VmRSS:" {
			kb, _ := strconv.Atoi(f[1])
			return float64(kb) / 1024
		}
	}
	b.Fatal("no VmRSS")
	return 0
}
