package servers

import (
	"encoding/json"
	"fmt"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// Tool is one tool a server lists, read from its bytes as sent: the
// schemas stay byte for byte (the order of properties is the order of a
// form's fields), and every text is the server's words. The words only
// shown are cut where they are read (untrusted.Text.Cut); the name, which
// tools/call sends back, stays whole, and ShownName is its cut.
type Tool struct {
	Name         string          // what tools/call names, whole; the server's words too
	Title        untrusted.Text  // title, else annotations.title, within untrusted.NameBytes; may be empty
	Description  untrusted.Text  // within untrusted.ProseBytes; may be empty
	InputSchema  json.RawMessage // as sent; nil when absent
	OutputSchema json.RawMessage // as sent; nil when absent
	Raw          json.RawMessage // the whole tool as sent
}

// ParseTool reads one entry of a tools/list result.
func ParseTool(raw json.RawMessage) (Tool, error) {
	var t struct {
		Name         string          `json:"name"`
		Title        string          `json:"title"`
		Description  string          `json:"description"`
		InputSchema  json.RawMessage `json:"inputSchema"`
		OutputSchema json.RawMessage `json:"outputSchema"`
		Annotations  struct {
			Title string `json:"title"`
		} `json:"annotations"`
	}
	if err := json.Unmarshal(raw, &t); err != nil {
		return Tool{}, fmt.Errorf("reading a tool: %w", err)
	}
	if t.Name == "" {
		return Tool{}, fmt.Errorf("a tool without a name")
	}
	title := t.Title
	if title == "" {
		title = t.Annotations.Title
	}
	return Tool{
		Name: t.Name, Title: untrusted.Text(title).Cut(untrusted.NameBytes), Description: untrusted.Text(t.Description).Cut(untrusted.ProseBytes),
		InputSchema: nullAsAbsent(t.InputSchema), OutputSchema: nullAsAbsent(t.OutputSchema), Raw: raw,
	}, nil
}

// ShownName is the tool's name as shown, cut to untrusted.NameBytes: a
// cut name would call another tool, or none, so Name stays whole and the
// cut is made here, for the eyes only.
func (t Tool) ShownName() untrusted.Text { return untrusted.Text(t.Name).Cut(untrusted.NameBytes) }

// ToolResult is a tools/call result, read from its bytes as sent.
type ToolResult struct {
	IsError    bool
	Content    []Content
	Structured json.RawMessage // structuredContent as sent; nil when absent
	Raw        json.RawMessage // the whole result as sent
}

// Content is one item of a result's content. Which fields are set depends
// on Type: text; image and audio (MIMEType, Data); resource_link (URI,
// Name); resource (Resource). Raw keeps the item whole for kinds not read.
type Content struct {
	Type     string
	Text     string
	MIMEType string
	Data     string // base64
	URI      string
	Name     string
	Resource *Resource
	Raw      json.RawMessage
}

// Resource is an embedded resource: Text or Blob (base64).
type Resource struct {
	URI      string `json:"uri"`
	MIMEType string `json:"mimeType"`
	Text     string `json:"text"`
	Blob     string `json:"blob"`
}

// ParseToolResult reads a tools/call result.
func ParseToolResult(raw json.RawMessage) (*ToolResult, error) {
	var r struct {
		IsError    bool              `json:"isError"`
		Content    []json.RawMessage `json:"content"`
		Structured json.RawMessage   `json:"structuredContent"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("reading a tool's result: %w", err)
	}
	out := &ToolResult{IsError: r.IsError, Structured: nullAsAbsent(r.Structured), Raw: raw}
	for _, item := range r.Content {
		var c struct {
			Type     string    `json:"type"`
			Text     string    `json:"text"`
			MIMEType string    `json:"mimeType"`
			Data     string    `json:"data"`
			URI      string    `json:"uri"`
			Name     string    `json:"name"`
			Resource *Resource `json:"resource"`
		}
		if err := json.Unmarshal(item, &c); err != nil {
			return nil, fmt.Errorf("reading a tool's result: %w", err)
		}
		out.Content = append(out.Content, Content{
			Type: c.Type, Text: c.Text, MIMEType: c.MIMEType, Data: c.Data,
			URI: c.URI, Name: c.Name, Resource: c.Resource, Raw: item,
		})
	}
	return out, nil
}

// nullAsAbsent is raw, or nil when raw is missing or JSON null.
func nullAsAbsent(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	return raw
}
