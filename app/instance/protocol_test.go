package instance

import (
	"io"
	"net"
	"path/filepath"
	"testing"
)

// TestAnswer sends each request of testdata/requests.json to answer.
func TestAnswer(t *testing.T) {
	var cases []struct {
		Name, Send, Reply string
		Shown             bool
	}
	readJSON(t, "requests.json", &cases)
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			ln, err := net.Listen("unix", filepath.Join(t.TempDir(), "s"))
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			shown := make(chan bool, 1)
			go func() {
				c, err := ln.Accept()
				if err != nil {
					shown <- false
					return
				}
				shown <- answer(c)
			}()
			c, err := net.Dial("unix", ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if _, err := io.WriteString(c, tt.Send); err != nil {
				t.Fatal(err)
			}
			c.(*net.UnixConn).CloseWrite()
			got, _ := io.ReadAll(c)
			if string(got) != tt.Reply {
				t.Errorf("reply %q, want %q", got, tt.Reply)
			}
			if s := <-shown; s != tt.Shown {
				t.Errorf("shown = %v, want %v", s, tt.Shown)
			}
		})
	}
}
