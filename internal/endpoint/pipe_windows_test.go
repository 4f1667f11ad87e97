package endpoint

import (
	"crypto/rand"
	"errors"
	"strings"
	"testing"
	"unsafe"

	"github.com/Microsoft/go-winio"
	"github.com/adrg/xdg"
	"golang.org/x/sys/windows"
)

// socketPath is a fresh pipe name for one test: pipes live in one
// namespace for the whole machine, so the name is random.
func socketPath(*testing.T) string {
	return pipePrefix + "elicitdesk-test-" + rand.Text()
}

// skipUnderWine skips t under Wine, saying what Wine lacks that t needs.
// Wine's ntdll alone exports wine_get_version.
func skipUnderWine(t *testing.T, lacks string) {
	t.Helper()
	if windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil {
		t.Skip("Wine " + lacks)
	}
}

// TestPipeACL reads back the security descriptors of a running app's pipe
// and lock: owned by this user, and a protected DACL that allows this user
// alone.
func TestPipeACL(t *testing.T) {
	s, path, _ := startServer(t, defaultLimits())
	c, err := dialAt(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	pipe := windows.Handle(c.(interface{ Fd() uintptr }).Fd())
	checkPrivate(t, "the pipe", pipe, windows.SE_FILE_OBJECT)
	checkPrivate(t, "the lock", windows.Handle(s.lock.(mutex)), windows.SE_KERNEL_OBJECT)
}

// checkPrivate fails t unless the object h is owned by this user and its
// DACL, protected from inheritance, allows this user and no one else.
func checkPrivate(t *testing.T, what string, h windows.Handle, typ windows.SE_OBJECT_TYPE) {
	t.Helper()
	me, err := currentUser()
	if err != nil {
		t.Fatal(err)
	}
	sd, err := windows.GetSecurityInfo(h, typ, windows.OWNER_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if owner, _, err := sd.Owner(); err != nil || !owner.Equals(me) {
		t.Errorf("%s is owned by %v (%v), not by %v", what, owner, err, me)
	}
	control, _, err := sd.Control()
	if err != nil || control&windows.SE_DACL_PROTECTED == 0 {
		t.Errorf("%s's DACL is not protected from inherited entries: %s", what, sd)
	}
	dacl, _, err := sd.DACL()
	if err != nil || dacl == nil || dacl.AceCount == 0 {
		t.Fatalf("%s has no DACL that admits only you (%v): %s", what, err, sd)
	}
	for i := range uint32(dacl.AceCount) {
		var ace *windows.ACCESS_ALLOWED_ACE
		if err := windows.GetAce(dacl, i, &ace); err != nil {
			t.Fatal(err)
		}
		sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart))
		if ace.Header.AceType != windows.ACCESS_ALLOWED_ACE_TYPE || !sid.Equals(me) {
			t.Errorf("%s's DACL lets in more than you: %s", what, sd)
		}
	}
}

// TestPipeInTheWay: a pipe made by a process without the lock is in the
// way. The start is refused, naming the pipe, the lock given back, and a
// client that reaches that pipe finds no app in it.
func TestPipeInTheWay(t *testing.T) {
	skipUnderWine(t, "8 lets a second server make a pipe whose name is taken (FILE_CREATE is not enforced): nothing is in the way to refuse")
	path := socketPath(t)
	squat, err := winio.ListenPipe(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Listen(t.Context(), path, newHandler(), quiet())
	if s != nil || !errors.Is(err, ErrNotPrivate) || !strings.Contains(err.Error(), path) {
		s.Close()
		t.Fatalf("Listen with a pipe in the way = %v, %v; want it refused, naming %s", s, err, path)
	}
	squat.Close()
	s, err = Listen(t.Context(), path, newHandler(), quiet())
	if err != nil {
		t.Fatalf("Listen once the pipe is gone: %v", err)
	}
	s.Close()
}

// TestPipeNames checks which endpoint names Listen and Dial take.
func TestPipeNames(t *testing.T) {
	tests := []struct {
		path string
		ok   bool
	}{
		{`\\.\pipe\elicitdesk-S-1-5-21-1-2-3-1001`, true},
		{`\\.\pipe\`, false},
		{`C:\Users\ada\AppData\Local\elicitdesk.sock`, false},
		{`\\server\pipe\elicitdesk`, false},
		{`\\.\pipe\a\b`, false},
		{`\\.\pipe\` + strings.Repeat("p", maxPipeName), false},
	}
	for _, tt := range tests {
		if err := checkEndpoint(tt.path); tt.ok != (err == nil) {
			t.Errorf("checkEndpoint(%q) = %v, want ok %v", tt.path, err, tt.ok)
		}
	}
}

// TestDefaultPipe: the pipe is named after the user and the runtime
// directory, so that processes sharing it find the same app, and tests
// (which set XDG_RUNTIME_DIR) find none of the person's.
func TestDefaultPipe(t *testing.T) {
	t.Cleanup(xdg.Reload) // registered first, so it runs once the variable is back
	me, err := currentUser()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for _, dir := range []string{`C:\Users\ada\AppData\Local`, `c:\users\ADA\appdata\local\`, `D:\Profiles\ada\Local`} {
		t.Setenv("XDG_RUNTIME_DIR", dir)
		xdg.Reload()
		path, err := DefaultPath()
		if err != nil || !strings.HasPrefix(path, pipePrefix+"elicitdesk-"+me.String()+"-") || AppPath() != path {
			t.Errorf("with runtime directory %s: DefaultPath() = %s, %v; AppPath() = %s", dir, path, err, AppPath())
		}
		if err := checkEndpoint(path); err != nil {
			t.Errorf("DefaultPath's pipe is refused: %v", err)
		}
		names[path] = dir
	}
	if len(names) != 2 {
		t.Errorf("want one pipe for the same directory however spelt, another for another: %v", names)
	}
}
