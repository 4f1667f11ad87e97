package servers

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/elicitdesk/elicitdesk/servers/config"
)

// TestToolsKeepSchemas is the regression for tool schemas: Tools returns
// each tool's inputSchema and outputSchema byte for byte as the server
// listed it (mcp-go v1.2.1 kept five keywords of the inputSchema and lost
// $schema, allOf, if/then/else and the like), and nothing fetches the
// network URI a $ref names. Each tool is one file of testdata/tools;
// $SERVER is the test server's http://host:port.
func TestToolsKeepSchemas(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "tools", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no tools in testdata/tools: %v", err)
	}
	var listed []json.RawMessage
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		listed = append(listed, b)
	}
	tools, err := json.Marshal(listed)
	if err != nil {
		t.Fatal(err)
	}
	srv := newToolServer(t, string(tools))
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			c, err := Dial(ctx, config.Server{Name: "tools", URL: srv.URL, Transport: config.TransportHTTP, ProtocolVersion: version}, NewRouter(DefaultLimits, quietLog()), quietLog())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			got, err := c.Tools(ctx)
			if err != nil {
				t.Fatal(err)
			}
			byName := map[string]Tool{}
			for _, tool := range got {
				byName[tool.Name] = tool
			}
			for i, f := range files {
				t.Run(filepath.Base(f), func(t *testing.T) {
					var want struct {
						Name         string          `json:"name"`
						InputSchema  json.RawMessage `json:"inputSchema"`
						OutputSchema json.RawMessage `json:"outputSchema"`
					}
					if err := json.Unmarshal(bytes.ReplaceAll(listed[i], []byte("$SERVER"), []byte(srv.Base)), &want); err != nil {
						t.Fatalf("%s: %v", f, err)
					}
					tool, ok := byName[want.Name]
					if !ok {
						t.Fatalf("%s not listed", want.Name)
					}
					for _, s := range []struct{ name, got, want []byte }{
						{[]byte("inputSchema"), tool.InputSchema, want.InputSchema},
						{[]byte("outputSchema"), tool.OutputSchema, want.OutputSchema},
					} {
						if got, want := compact(t, s.got), compact(t, s.want); !bytes.Equal(got, want) {
							t.Errorf("%s changed:\n got %s\nwant %s", s.name, got, want)
						}
					}
				})
			}
			if strays := srv.Strays(); len(strays) > 0 {
				t.Errorf("fetched %v: a $ref to a network URI must not be dereferenced", strays)
			}
		})
	}
}

// compact is JSON without insignificant white space; nil stays nil.
func compact(t *testing.T, b []byte) []byte {
	t.Helper()
	if b == nil {
		return nil
	}
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return out.Bytes()
}
