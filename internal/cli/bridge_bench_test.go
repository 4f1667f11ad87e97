package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/traffic"
)

// echoCalls is how many echo calls bench.mjs times on each side.
const echoCalls = 1000

// benchEcho is what testdata/peers/bench.mjs prints: microseconds a call.
type benchEcho struct {
	Direct, Bridged struct{ Median, P90 float64 }
	Ratio           float64
	BridgedPid      int
}

// BenchmarkBridgeEcho measures what the bridge adds to a host's tools/call:
// the TypeScript SDK's client calls server-everything's echo 1000 times
// directly and 1000 times through `elicitdesk bridge`, alternating, over
// stdio. It also reports the bridge's memory while connected: USS, PSS
// and RSS (BenchmarkIdleMemory10Servers).
// No app is reachable, as for a host on a machine without one.
func BenchmarkBridgeEcho(b *testing.B) {
	node, entry := everything(b)
	direct := []string{node, entry, "stdio"}
	bridged := append([]string{elicitdeskBin(b), "bridge", "--"}, direct...)
	env := noAppEnv(b)
	var r benchEcho
	var mem memory
	for b.Loop() {
		r, mem = runBenchEcho(b, env, node, direct, bridged)
	}
	b.ReportMetric(r.Direct.Median, "direct-µs/call")
	b.ReportMetric(r.Direct.P90, "direct-p90-µs/call")
	b.ReportMetric(r.Bridged.Median, "bridged-µs/call")
	b.ReportMetric(r.Bridged.P90, "bridged-p90-µs/call")
	b.ReportMetric(r.Ratio, "ratio")
	b.ReportMetric(mem.uss, "bridge-USS-MB")
	b.ReportMetric(mem.pss, "bridge-PSS-MB")
	b.ReportMetric(mem.rss, "bridge-RSS-MB")
}

// runBenchEcho runs bench.mjs once and reads the bridge's memory while the
// script, having printed its numbers, still holds the connection open.
func runBenchEcho(b *testing.B, env []string, node string, direct, bridged []string) (benchEcho, memory) {
	b.Helper()
	directJSON, _ := json.Marshal(direct)
	bridgedJSON, _ := json.Marshal(bridged)
	cmd := exec.Command(node, peerScript(b, "bench.mjs"), "--calls", strconv.Itoa(echoCalls),
		"--direct", string(directJSON), "--bridged", string(bridgedJSON))
	cmd.Env = env
	log := &logBuffer{}
	cmd.Stderr = log
	cmd.WaitDelay = 10 * time.Second // its children share its stderr, and may outlive it
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadBytes('\n')
	var r benchEcho
	if err == nil {
		err = json.Unmarshal(line, &r)
	}
	if err != nil || r.BridgedPid == 0 {
		cmd.Wait()
		b.Fatalf("bench.mjs: %v %q\n%s", err, line, log)
	}
	mem := memoryOf(b, r.BridgedPid)
	stdin.Close() // bench.mjs closes both clients and exits
	if err := cmd.Wait(); err != nil {
		b.Fatalf("bench.mjs: %v\n%s", err, log)
	}
	return r, mem
}

// BenchmarkBridgeEchoRecorded is BenchmarkBridgeEcho with the app running,
// so the bridge hands it what passes: first each message's facts only
// (ratio-facts), then with the capture on, the messages themselves too
// (ratio-captured). Each ratio is bridged over direct in the same run, as
// BenchmarkBridgeEcho's, which has no app: the three side by side are
// what recording costs a call.
func BenchmarkBridgeEchoRecorded(b *testing.B) {
	node, entry := everything(b)
	direct := []string{node, entry, "stdio"}
	for _, capture := range []bool{false, true} {
		name := map[bool]string{false: "facts", true: "captured"}[capture]
		b.Run(name, func(b *testing.B) {
			// The settings file the app reads at start, in a config
			// folder of the bench's own: the environment's later entry wins.
			config := b.TempDir()
			prefs := filepath.Join(config, "fyne", appID, "preferences.json")
			if err := os.MkdirAll(filepath.Dir(prefs), 0o700); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(prefs, []byte(`{"trafficCapture": `+strconv.FormatBool(capture)+`}`), 0o600); err != nil {
				b.Fatal(err)
			}
			// No server configured and no window: the core alone runs, as
			// in the tray, and takes nothing of the bench's two cores.
			servers := filepath.Join(config, "elicitdesk", "servers.json")
			if err := os.MkdirAll(filepath.Dir(servers), 0o700); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(servers, []byte(`{"mcpServers":{}}`), 0o600); err != nil {
				b.Fatal(err)
			}
			d := startDesktopWith(b, "", false, "XDG_CONFIG_HOME="+config)
			for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
				if _, err := d.run(d.bin, "servers"); err == nil {
					break // the app answers
				} else if time.Now().After(deadline) {
					b.Fatal(err)
				}
			}
			bridged := append([]string{d.bin, "bridge", "--"}, direct...)
			var r benchEcho
			for b.Loop() {
				r, _ = runBenchEcho(b, d.env, node, direct, bridged)
			}
			b.ReportMetric(r.Ratio, "ratio-"+name)
			b.ReportMetric(r.Bridged.Median, "bridged-µs/call")
			b.ReportMetric(r.Direct.Median, "direct-µs/call")
			// What the capture kept, as it wrote it: none without it.
			kept, err := traffic.ReadCapture(traffic.DefaultCapturePath(filepath.Join(d.home, ".local", "state")), 0, time.Now())
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(len(kept)), "messages-captured")
		})
	}
}
