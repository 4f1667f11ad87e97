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
			outside = append(outside, d.timeRequest(b, maps))
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

// BenchmarkRequestToWindowCold is BenchmarkRequestToWindow's outside
// figure when no windows' process runs: the core starts one for each
// request (it exits 1 s after the window closed, -ui-idle).
func BenchmarkRequestToWindowCold(b *testing.B) {
	demo := fmt.Sprintf(`{"mcpServers": {"demo": {"command": %q, "args": ["demo-server"]}}}`, os.Getenv(binEnv))
	d := startDesktopArgs(b, demo, []string{"-background", "-ui-idle=1ms"}, false)
	d.waitReady(1)
	maps := d.watchMaps()
	const requests = 10
	var outside []time.Duration
	for b.Loop() {
		for range requests {
			outside = append(outside, d.timeRequest(b, maps))
			deadline := time.Now().Add(time.Minute)
			for strings.Count(d.log.String(), `msg="UI detached"`) < len(outside) { // until the windows' process has gone
				if time.Now().After(deadline) {
					b.Fatal("the windows' process stayed")
				}
				time.Sleep(50 * time.Millisecond)
			}
		}
	}
	reportSpread(b, outside, "ms-outside")
}

// timeRequest has `elicitdesk call -answer desk` raise a request, and
// returns the time from starting it to its window being mapped; Escape
// answers it, and the window is gone on return.
func (d *desktop) timeRequest(b *testing.B, maps <-chan mapEvent) time.Duration {
	call := exec.Command(d.bin, "call", "-server", "demo", "-tool", "ask_confirm", "-answer", "desk")
	call.Env = d.env
	start := time.Now()
	if err := call.Start(); err != nil {
		b.Fatal(err)
	}
	mapped := d.nextMap(maps, true, "^demo: ")
	d.keys(mapped.Window, "", "Escape")
	if err := call.Wait(); err != nil {
		b.Fatal(err)
	}
	d.nextMap(maps, false, "")
	return mapped.At.Sub(start)
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

// BenchmarkIdleMemory10Servers measures Elicit Desk with ten servers
// connected, no window open, sitting idle for a minute after settling for
// one (a core runs all day; its first minute is start-up): the core's
// resident memory; the resident and the proportional memory (shared pages
// split among the processes that map them) summed over all its processes
// but the servers: the core and each server's keeper, each the mean of a
// sample a second; their wakeups a second (context switches of all their
// threads) and the share of one core they used.
func BenchmarkIdleMemory10Servers(b *testing.B) {
	d := startIdle(b)
	const settle, idle = time.Minute, time.Minute
	time.Sleep(settle) // start-up over, as an idle core's day goes on: not a wait for an event
	pids := d.ours()
	var rss, rssAll, pss, wakeups, core float64
	for b.Loop() {
		switches, ticks := sum(pids, func(p int) int { return contextSwitches(b, p) }), sum(pids, func(p int) int { return cpuTicks(b, p) })
		rss, rssAll, pss = 0, 0, 0
		const samples = int(idle / time.Second)
		for range samples {
			time.Sleep(time.Second) // the idle time measured, not a wait
			rss += residentMB(b, d.app.Process.Pid) / float64(samples)
			rssAll += float64(sum(pids, func(p int) int { return memoryKB(b, p, "Rss:") })) / 1024 / float64(samples)
			pss += float64(sum(pids, func(p int) int { return memoryKB(b, p, "Pss:") })) / 1024 / float64(samples)
		}
		wakeups = float64(sum(pids, func(p int) int { return contextSwitches(b, p) })-switches) / idle.Seconds()
		core = 100 * float64(sum(pids, func(p int) int { return cpuTicks(b, p) })-ticks) / clockTicks / idle.Seconds()
	}
	b.ReportMetric(rss, "MB-RSS-core")
	b.ReportMetric(rssAll, "MB-RSS-all")
	b.ReportMetric(pss, "MB-PSS-all")
	b.ReportMetric(wakeups, "wakeups/s")
	b.ReportMetric(core, "%core")
}

// startIdle starts the core, as a bridge does (no window of its own), with
// ten demo servers, and waits until all are ready and no windows' process
// runs.
func startIdle(b testing.TB) *desktop {
	var entries []string
	for i := range 10 {
		entries = append(entries, fmt.Sprintf(`"demo%d": {"command": %q, "args": ["demo-server"]}`, i, os.Getenv(binEnv)))
	}
	d := startDesktopArgs(b, `{"mcpServers": {`+strings.Join(entries, ",")+`}}`, []string{"-background"}, false)
	d.waitReady(10)
	return d
}

// ours are the core and the processes it started that are Elicit Desk's:
// the windows' process and each stdio server's keeper, not the servers.
func (d *desktop) ours() []int {
	pids := append([]int{d.app.Process.Pid}, d.uiProcesses()...)
	for _, kid := range childrenOf(d.app.Process.Pid) {
		cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", kid))
		if strings.HasPrefix(string(cmd), "elicitdesk-keeper") {
			pids = append(pids, kid)
		}
	}
	return pids
}

func sum(pids []int, f func(int) int) int {
	n := 0
	for _, p := range pids {
		n += f(p)
	}
	return n
}

// memoryKB reads one line of a process's smaps_rollup, in kB.
func memoryKB(b testing.TB, pid int, key string) int {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		b.Fatal(err)
	}
	for line := range strings.Lines(string(raw)) {
		if f := strings.Fields(line); len(f) == 3 && f[0] == key {
			kb, _ := strconv.Atoi(f[1])
			return kb
		}
	}
	b.Fatalf("no %s for %d", key, pid)
	return 0
}

// clockTicks is the kernel's USER_HZ, in which /proc reports CPU time: 100
// on every Linux architecture Go supports.
const clockTicks = 100

// contextSwitches sums the voluntary and involuntary context switches of
// every thread of a process: how often it woke up.
func contextSwitches(b testing.TB, pid int) int {
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
func cpuTicks(b testing.TB, pid int) int {
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

// waitReady waits until n of the core's servers have been ready.
func (d *desktop) waitReady(n int) {
	d.t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); countReady(d) < n; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			d.t.Fatalf("only %d of %d servers ready", countReady(d), n)
		}
	}
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
func residentMB(b testing.TB, pid int) float64 {
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

// TestIdleCore: with ten servers connected and no window open, Elicit Desk
// is its core and the servers' keepers, without a windows' process, sits
// still, and each keeper holds little: its RSS, not only its proportional
// share, as ps and top show it. The bounds are generous, to hold on a
// loaded machine; BenchmarkIdleMemory10Servers measures the figures
// themselves.
func TestIdleCore(t *testing.T) {
	d := startIdle(t)
	pids := d.ours()
	if len(pids) != 11 {
		t.Fatalf("Elicit Desk's processes: %v, want the core and 10 keepers", pids)
	}
	const idle = 5 * time.Second
	switches := sum(pids, func(p int) int { return contextSwitches(t, p) })
	time.Sleep(idle) // the idle time measured, not a wait
	wakeups := float64(sum(pids, func(p int) int { return contextSwitches(t, p) })-switches) / idle.Seconds()
	if rss := residentMB(t, d.app.Process.Pid); rss > 80 {
		t.Errorf("the core holds %.0f MB, want at most 80", rss)
	}
	for _, keeper := range pids[1:] { // after the core
		if rss := residentMB(t, keeper); rss > 2 {
			t.Errorf("keeper %d holds %.1f MB, want at most 2", keeper, rss)
		}
	}
	if wakeups > 20 {
		t.Errorf("%.1f wakeups a second, want at most 20", wakeups)
	}
}
