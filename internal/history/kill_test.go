package history

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/servers"
)

// writerEnv, set to a database path, makes the test binary a writer process
// that adds entries until it is killed.
const writerEnv = "ELICITDESK_HISTORY_TEST_WRITER"

// writerEntry is the i-th entry the writer adds; the parent rebuilds it to
// compare.
func writerEntry(i int) Entry {
	at := time.Unix(1_800_000_000+int64(i), 0)
	return Entry{
		Server:   servers.Identity{Name: "writer", Target: "writer-process"},
		Message:  untrusted.Text(fmt.Sprintf("entry number %d", i)),
		Mode:     servers.ModeForm,
		Schema:   json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`),
		Outcome:  Accepted,
		Content:  json.RawMessage(fmt.Sprintf(`{"n":%d}`, i)),
		Received: at,
		Answered: at.Add(time.Second),
	}
}

// runWriter adds writerEntry(0), (1), … to the history at path, printing
// "i id" on stdout once each Add has returned, until it is killed.
func runWriter(path string) int {
	s, err := Open(path, quiet(), Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for i := 0; ; i++ {
		id, err := s.Add(context.Background(), writerEntry(i))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Printf("%d %d\n", i, id)
	}
}

// TestKillDuringWrites kills a process that is writing history with SIGKILL
// and checks that every entry whose Add had returned is there and readable.
func TestKillDuringWrites(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGKILL on Windows")
	}
	path := DefaultPath(filepath.Join(isolate(t), "data"))
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), writerEnv+"="+path)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	acked := map[int]int64{}
	lines := bufio.NewScanner(out)
	read := func() bool {
		if !lines.Scan() {
			return false
		}
		var i int
		var id int64
		if _, err := fmt.Sscanf(lines.Text(), "%d %d", &i, &id); err != nil {
			t.Fatalf("writer said %q: %v", lines.Text(), err)
		}
		acked[i] = id
		return true
	}
	const want = 300
	for len(acked) < want && read() {
	}
	// Kill while it keeps writing; lines already in the pipe were acknowledged too.
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	for read() {
	}
	cmd.Wait()
	if len(acked) < want {
		t.Fatalf("the writer acknowledged only %d entries", len(acked))
	}

	s, err := Open(path, quiet(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Notice() != "" {
		t.Fatalf("the history needed rescuing after kill -9: %s", s.Notice())
	}
	for i, id := range acked {
		got, err := s.Get(context.Background(), id)
		if err != nil {
			t.Fatalf("acknowledged entry %d (id %d) is lost: %v", i, id, err)
		}
		want := writerEntry(i)
		want.ID = id
		if diff := entryDiff(got, want); diff != "" {
			t.Fatalf("entry %d: %s", i, diff)
		}
	}
	t.Logf("%d acknowledged entries survived kill -9", len(acked))
}
