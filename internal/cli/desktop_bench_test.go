package cli

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
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
// from a request arriving to its window being up: the app logs it from the
// UI goroutine's next turn after showing the window. Each request is a
// real tool call through the app to the demo server, answered by Escape.
func BenchmarkRequestToWindow(b *testing.B) {
	d := startDesktop(b, "")
	d.window("Servers")
	const requests = 20
	var shown []time.Duration
	for b.Loop() {
		for range requests {
			before := len(d.logged("request shown", "after"))
			call := exec.Command(d.bin, "call", "-server", "demo", "-tool", "ask_confirm", "-answer", "desk")
			call.Env = d.env
			if err := call.Start(); err != nil {
				b.Fatal(err)
			}
			w := d.window("^demo: ")
			for len(d.logged("request shown", "after")) == before {
				time.Sleep(5 * time.Millisecond)
			}
			d.keys(w, "", "Escape")
			if err := call.Wait(); err != nil {
				b.Fatal(err)
			}
			for len(d.windows("^demo: ")) > 0 {
				time.Sleep(5 * time.Millisecond)
			}
		}
	}
	for _, s := range d.logged("request shown", "after") {
		v, err := time.ParseDuration(s)
		if err != nil {
			b.Fatal(err)
		}
		shown = append(shown, v)
	}
	slices.Sort(shown)
	b.ReportMetric(float64(shown[len(shown)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(shown[len(shown)*9/10].Microseconds())/1000, "ms-p90")
}

// windows lists the visible windows whose title contains title.
func (d *desktop) windows(title string) []string {
	out, _ := d.run("xdotool", "search", "--onlyvisible", "--name", title)
	return strings.Fields(out)
}

// BenchmarkIdleMemory10Servers measures the resident memory of the app
// itself (its servers are other processes) with ten servers connected,
// after it has sat idle.
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
	var rss float64
	for b.Loop() {
		time.Sleep(10 * time.Second)
		rss = residentMB(b, d.app.Process.Pid)
	}
	b.ReportMetric(rss, "MB-RSS")
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
