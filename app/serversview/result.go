package serversview

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// resultText renders a tool result for reading and copying: every content
// item in order (text as it is, other kinds described in one line), then
// the structured content as indented JSON. Whether it is an error is the
// caller's to show. All of it is the server's words.
func resultText(res *mcp.CallToolResult) untrusted.Text {
	var parts []string
	for _, c := range res.Content {
		parts = append(parts, contentText(c))
	}
	if structured := structuredJSON(res); structured != "" {
		parts = append(parts, "Structured content:\n"+structured)
	}
	if len(parts) == 0 {
		return "(The tool returned no content.)"
	}
	return untrusted.Text(strings.Join(parts, "\n\n"))
}

// contentText renders one content item.
func contentText(c mcp.Content) string {
	switch c := c.(type) {
	case mcp.TextContent:
		return c.Text
	case mcp.ImageContent:
		return fmt.Sprintf("[image, %s, %s]", c.MIMEType, blobSize(c.Data))
	case mcp.AudioContent:
		return fmt.Sprintf("[audio, %s, %s]", c.MIMEType, blobSize(c.Data))
	case mcp.ResourceLink:
		return fmt.Sprintf("[link to resource %s: %s]", c.Name, c.URI)
	case mcp.EmbeddedResource:
		switch r := c.Resource.(type) {
		case mcp.TextResourceContents:
			return fmt.Sprintf("[resource %s]\n%s", r.URI, r.Text)
		case mcp.BlobResourceContents:
			return fmt.Sprintf("[resource %s, %s, %s]", r.URI, r.MIMEType, blobSize(r.Blob))
		}
	}
	raw, err := json.Marshal(c)
	if err != nil {
		return fmt.Sprintf("[content of type %T]", c)
	}
	return string(raw)
}

// blobSize says how big base64 data is once decoded.
func blobSize(b64 string) string {
	n, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return "not valid base64"
	}
	return fmt.Sprintf("%d bytes", len(n))
}

// structuredJSON is the result's structuredContent, indented, or "".
func structuredJSON(res *mcp.CallToolResult) string {
	raw := []byte(res.RawStructuredContent)
	if raw == nil && res.StructuredContent != nil {
		var err error
		if raw, err = json.Marshal(res.StructuredContent); err != nil {
			return err.Error()
		}
	}
	if raw == nil || string(raw) == "null" {
		return ""
	}
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		return string(raw)
	}
	return out.String()
}
