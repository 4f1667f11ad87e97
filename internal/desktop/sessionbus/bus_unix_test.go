//go:build linux || freebsd || openbsd || netbsd

package sessionbus

import (
	"context"
	"errors"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/adrg/xdg"

	"github.com/elicitdesk/elicitdesk/internal/testkit/dbustest"
)

// ownerEnv makes the test binary, started by the bus, a service that owns
// the name it holds until the bus goes away.
const ownerEnv = "SESSIONBUS_TEST_OWN"

func TestMain(m *testing.M) {
	if name := os.Getenv(ownerEnv); name != "" {
		ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
		defer stop()
		conn, err := Own(ctx, name)
		if err != nil {
			os.Exit(1)
		}
		<-conn.Context().Done()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestAddress(t *testing.T) {
	runtime := t.TempDir()
	l, err := net.Listen("unix", filepath.Join(runtime, "bus"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	plain := t.TempDir()
	if err := os.WriteFile(filepath.Join(plain, "bus"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	odd := filepath.Join(t.TempDir(), "a dir;x")
	if err := os.Mkdir(odd, 0o700); err != nil {
		t.Fatal(err)
	}
	lo, err := net.Listen("unix", filepath.Join(odd, "bus"))
	if err != nil {
		t.Fatal(err)
	}
	defer lo.Close()
	tests := []struct {
		name, env, runtime string
		want               string // "" for ErrNoBus
	}{
		{"the variable first", "unix:path=/elsewhere", runtime, "unix:path=/elsewhere"},
		{"the runtime directory's socket", "", runtime, "unix:path=" + runtime + "/bus"},
		{"autolaunch looks in the runtime directory", "autolaunch:", runtime, "unix:path=" + runtime + "/bus"},
		{"a path escaped", "", odd, "unix:path=" + strings.ReplaceAll(strings.ReplaceAll(odd, " ", "%20"), ";", "%3b") + "/bus"},
		{"no socket", "", t.TempDir(), ""},
		{"not a socket", "", plain, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := address(tt.env, tt.runtime)
			if tt.want == "" {
				if !errors.Is(err, ErrNoBus) {
					t.Errorf("address = %q, %v; want ErrNoBus", got, err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("address = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// TestAddressNotYours: a socket another user made in the way is no bus.
func TestAddressNotYours(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("giving a socket to another user needs root")
	}
	runtime := t.TempDir()
	l, err := net.Listen("unix", filepath.Join(runtime, "bus"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := os.Lchown(filepath.Join(runtime, "bus"), 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if got, err := address("", runtime); !errors.Is(err, ErrNoBus) {
		t.Errorf("address = %q, %v; want ErrNoBus", got, err)
	}
}

// TestStart has a bus start a service from its service file, then checks
// its name is neither taken from it nor started twice.
func TestStart(t *testing.T) {
	const name = "io.github.elicitdesk.Test"
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := "[D-BUS Service]\nName=" + name + "\nExec=" + exe + "\n"
	if err := os.WriteFile(filepath.Join(dir, name+".service"), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(ownerEnv, name) // the bus's environment, and so the service's
	t.Setenv(addressEnv, dbustest.ActivatingBus(t, dir))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	if err := Start(ctx, name); err != nil {
		t.Fatalf("Start: %v", err)
	}
	if _, err := Own(ctx, name); !errors.Is(err, ErrTaken) {
		t.Errorf("Own of a started service's name = %v, want ErrTaken", err)
	}
	if err := Start(ctx, name); err != nil {
		t.Errorf("Start of a running service: %v", err)
	}
	if err := Start(ctx, "io.github.elicitdesk.Nothing"); !errors.Is(err, ErrNotActivatable) {
		t.Errorf("Start without a service file = %v, want ErrNotActivatable", err)
	}
	conn, err := Own(ctx, "io.github.elicitdesk.Free")
	if err != nil {
		t.Fatalf("Own of a free name: %v", err)
	}
	conn.Close()
	if conn, err := Own(ctx, "io.github.elicitdesk.Free"); err != nil {
		t.Errorf("a name closed with its connection was not free again: %v", err)
	} else {
		conn.Close()
	}
}

// TestNoBus: without a bus, Start and Own say so at once, and start none.
func TestNoBus(t *testing.T) {
	t.Cleanup(xdg.Reload)
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	xdg.Reload()
	for _, addr := range []string{"", "disabled:", "unix:path=" + filepath.Join(t.TempDir(), "bus")} {
		t.Setenv(addressEnv, addr)
		if err := Start(context.Background(), "io.github.elicitdesk.Test"); !errors.Is(err, ErrNoBus) {
			t.Errorf("Start with %s=%q: %v, want ErrNoBus", addressEnv, addr, err)
		}
		if _, err := Own(context.Background(), "io.github.elicitdesk.Test"); !errors.Is(err, ErrNoBus) {
			t.Errorf("Own with %s=%q: %v, want ErrNoBus", addressEnv, addr, err)
		}
	}
}
