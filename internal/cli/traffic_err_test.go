package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
)

// TestTrafficErr: traffic says why the app could not be asked, telling a
// forward that may only ask the person from an app too old for the
// method, which both refuse as a method not found.
func TestTrafficErr(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"not running", fmt.Errorf("dial: %w", endpoint.ErrNotRunning), "Elicit Desk is not running"},
		{"an older app", &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "no such method"}, "older than this command"},
		{"through a forward", &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "not for a forward", Data: []byte(`{"forwarded":true}`)},
			"reached through a forward, which may only ask the person"},
		{"anything else", fmt.Errorf("the disk is full"), "the disk is full"},
	}
	for _, tt := range tests {
		if got := trafficErr(tt.err); !strings.Contains(got, tt.want) {
			t.Errorf("%s: %q, want it to say %q", tt.name, got, tt.want)
		}
	}
}
