package cli

import (
	"bufio"
	"bytes"
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

	"github.com/elicitdesk/elicitdesk/internal/corecmd"
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
			for strings.Count(d.log.String(), `msg="windows detached"`) < len(outside) { // until the windows' process has gone
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
// one (a core runs all day; its first minute is start-up): the memory of
// the core, of a keeper (the mean of the ten), and summed over all its
// processes but the servers (the core and each server's keeper), each the
// mean of a sample a second; their wakeups a second (context switches of
// all their threads) and the share of one core they used. Memory is USS,
// the pages a process alone holds (what ending it frees), PSS, with each
// shared page split among the processes that map it, and RSS, as ps and
// top show it, which counts every shared page whole; and the anonymous
// part of it, the heap and stacks, which no file backs.
//
// The servers run from a copy of the binary: the demo server is
// elicitdesk itself, whose code pages the core would otherwise share with
// them, which no server of a person's (Node, Python) does.
func BenchmarkIdleMemory10Servers(b *testing.B) {
	server := filepath.Join(b.TempDir(), "server")
	if err := copyFile(os.Getenv(binEnv), server); err != nil {
		b.Fatal(err)
	}
	d := startIdle(b, server)
	const settle, idle = time.Minute, time.Minute
	time.Sleep(settle) // start-up over, as an idle core's day goes on: not a wait for an event
	pids := d.ours()
	if len(pids) < 2 {
		b.Fatalf("Elicit Desk's processes: %v, want the core and its keepers", pids)
	}
	var coreMem, keeperMem, allMem memory
	var wakeups, core float64
	for b.Loop() {
		switches, ticks := sum(pids, func(p int) int { return contextSwitches(b, p) }), sum(pids, func(p int) int { return cpuTicks(b, p) })
		coreMem, keeperMem, allMem = memory{}, memory{}, memory{}
		const samples = int(idle / time.Second)
		for range samples {
			time.Sleep(time.Second) // the idle time measured, not a wait
			for i, p := range pids {
				m := memoryOf(b, p)
				allMem = allMem.add(m, samples)
				if i == 0 {
					coreMem = coreMem.add(m, samples)
				} else {
					keeperMem = keeperMem.add(m, samples*(len(pids)-1))
				}
			}
		}
		wakeups = float64(sum(pids, func(p int) int { return contextSwitches(b, p) })-switches) / idle.Seconds()
		core = 100 * float64(sum(pids, func(p int) int { return cpuTicks(b, p) })-ticks) / clockTicks / idle.Seconds()
	}
	for _, m := range []struct {
		name string
		mem  memory
	}{{"core", coreMem}, {"keeper", keeperMem}, {"all", allMem}} {
		b.ReportMetric(m.mem.uss, "MB-USS-"+m.name)
		b.ReportMetric(m.mem.pss, "MB-PSS-"+m.name)
		b.ReportMetric(m.mem.rss, "MB-RSS-"+m.name)
		b.ReportMetric(m.mem.anon, "MB-Anon-"+m.name)
	}
	b.ReportMetric(wakeups, "wakeups/s")
	b.ReportMetric(core, "%core")
}

// memory is a process's memory, in MB: unique (USS), proportional (PSS),
// resident (RSS) and anonymous.
type memory struct{ uss, pss, rss, anon float64 }

// add returns m with n's 1/of share added: a mean taken as it goes.
func (m memory) add(n memory, of int) memory {
	f := float64(of)
	return memory{m.uss + n.uss/f, m.pss + n.pss/f, m.rss + n.rss/f, m.anon + n.anon/f}
}

// memoryOf reads a process's memory from its smaps_rollup. USS is its
// private pages, clean and dirty, and those swapped out.
func memoryOf(b testing.TB, pid int) memory {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		b.Fatal(err)
	}
	kB := map[string]float64{}
	for line := range strings.Lines(string(raw)) {
		if f := strings.Fields(line); len(f) == 3 && f[2] == "kB" {
			v, _ := strconv.Atoi(f[1])
			kB[f[0]] = float64(v)
		}
	}
	if _, ok := kB["Pss:"]; !ok {
		b.Fatalf("no Pss in the smaps_rollup of %d:\n%s", pid, raw)
	}
	return memory{
		uss:  (kB["Private_Clean:"] + kB["Private_Dirty:"] + kB["Swap:"]) / 1024,
		pss:  (kB["Pss:"] + kB["SwapPss:"]) / 1024,
		rss:  kB["Rss:"] / 1024,
		anon: (kB["Anonymous:"] + kB["Swap:"]) / 1024,
	}
}

// startIdle starts the core, as a bridge does (no window of its own), with
// ten demo servers run from the elicitdesk binary at server, and waits
// until all are ready and no windows' process runs.
func startIdle(b testing.TB, server string) *desktop {
	var entries []string
	for i := range 10 {
		entries = append(entries, fmt.Sprintf(`"demo%d": {"command": %q, "args": ["demo-server"]}`, i, server))
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

// TestIdleCore: with ten servers connected and no window open, Elicit Desk
// is its core, run by the core's own executable without Fyne or GL, and
// the servers' keepers, without a windows' process; it sits still, and
// each keeper holds little of its own (USS: what ending it
// frees; elicitdesk as its own keeper holds about 0.4 MB, elicitdesk-keeper
// 12-16 kB linked statically, 92 kB with a shared glibc). The bounds are
// generous, to hold on a loaded machine;
// BenchmarkIdleMemory10Servers measures the figures themselves.
func TestIdleCore(t *testing.T) {
	t.Parallel()
	d := startIdle(t, os.Getenv(binEnv))
	pids := d.ours()
	if len(pids) != 11 {
		t.Fatalf("Elicit Desk's processes: %v, want the core and 10 keepers", pids)
	}
	const idle = 5 * time.Second
	switches := sum(pids, func(p int) int { return contextSwitches(t, p) })
	time.Sleep(idle) // the idle time measured, not a wait
	wakeups := float64(sum(pids, func(p int) int { return contextSwitches(t, p) })-switches) / idle.Seconds()
	core := d.app.Process.Pid
	if exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", core)); err != nil || exe != filepath.Join(filepath.Dir(d.bin), corecmd.Name) {
		t.Errorf("the core runs %s (%v), want %s beside %s (make build builds it)", exe, err, corecmd.Name, d.bin)
	}
	if maps, err := os.ReadFile(fmt.Sprintf("/proc/%d/maps", core)); err != nil || bytes.Contains(maps, []byte("libGL")) {
		t.Errorf("the core maps libGL (%v): it runs Fyne's code", err)
	}
	if m := memoryOf(t, core); m.uss > 32 {
		t.Errorf("the core holds %.0f MB of its own, want at most 32", m.uss)
	}
	for _, keeper := range pids[1:] { // after the core
		if m := memoryOf(t, keeper); m.uss > 0.25 {
			t.Errorf("keeper %d holds %.2f MB of its own, want at most 0.25", keeper, m.uss)
		}
	}
	if wakeups > 20 {
		t.Errorf("%.1f wakeups a second, want at most 20", wakeups)
	}
}
