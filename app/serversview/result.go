package serversview

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/servers"
)

// resultText renders a tool result for reading and copying: every content
// item in order (text as it is, other kinds described in one line), then
// the structured content as indented JSON. Whether it is an error is the
// caller's to show. All of it is the server's words.
func resultText(res *servers.ToolResult) untrusted.Text {
	var parts []string
	for _, c := range res.Content {
		parts = append(parts, contentText(c))
	}
	if structured := indented(res.Structured); structured != "" {
		parts = append(parts, "Structured content:\n"+structured)
	}
	if len(parts) == 0 {
		return "(The tool returned no content.)"
	}
	return untrusted.Text(strings.Join(parts, "\n\n"))
}

// contentText renders one content item; a kind it does not know, as its
// JSON on one line.
func contentText(c servers.Content) string {
	switch {
	case c.Type == "text":
		return c.Text
	case c.Type == "image", c.Type == "audio":
		return fmt.Sprintf("[%s, %s, %s]", c.Type, c.MIMEType, blobSize(c.Data))
	case c.Type == "resource_link":
		return fmt.Sprintf("[link to resource %s: %s]", c.Name, c.URI)
	case c.Type == "resource" && c.Resource != nil && c.Resource.Blob != "":
		r := c.Resource
		return fmt.Sprintf("[resource %s, %s, %s]", r.URI, r.MIMEType, blobSize(r.Blob))
	case c.Type == "resource" && c.Resource != nil:
		return fmt.Sprintf("[resource %s]\n%s", c.Resource.URI, c.Resource.Text)
	}
	var out bytes.Buffer
	if err := json.Compact(&out, c.Raw); err != nil {
		return string(c.Raw)
	}
	return out.String()
}

// blobSize says how big base64 data is once decoded.
func blobSize(b64 string) string {
	n, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return "not valid base64"
	}
	return fmt.Sprintf("%d bytes", len(n))
}

// indented is raw JSON indented, or "" when there is none.
func indented(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		return string(raw)
	}
	return out.String()
}
