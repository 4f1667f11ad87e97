package bridge

import (
	"encoding/json"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/endpoint"
)

// The members the bridge reads or changes, as gjson paths. A key with dots
// in it is escaped: "io\.modelcontextprotocol/clientCapabilities".
const (
	pathCapabilities = "params.capabilities"
	pathClientInfo   = "params.clientInfo"
	pathProgress     = "params._meta.progressToken"
)

// The 2026-07-28 request metadata keys.
var (
	pathMetaVersion      = metaPath("io.modelcontextprotocol/protocolVersion")
	pathMetaCapabilities = metaPath("io.modelcontextprotocol/clientCapabilities")
	pathMetaClientInfo   = metaPath("io.modelcontextprotocol/clientInfo")
	pathResultServerInfo = "result._meta." + escapeKey("io.modelcontextprotocol/serverInfo")
)

func metaPath(key string) string {
	return "params._meta." + escapeKey(key)
}

// everyMode is the elicitation capability the bridge declares upstream.
var everyMode = json.RawMessage(`{"form":{},"url":{}}`)

// modes is what a host declared of elicitation: its modes, and whether
// it runs elicitation/create as a 2025-11-25 task.
type modes struct{ form, url, task bool }

// declared reads an elicitation capability: an empty object means form
// mode only; a missing one, none.
func declared(caps gjson.Result) modes {
	task := caps.Get("tasks.requests.elicitation.create").Exists()
	e := caps.Get("elicitation")
	if !e.IsObject() {
		return modes{task: task}
	}
	form, url := e.Get("form").Exists(), e.Get("url").Exists()
	return modes{form: form || !url, url: url, task: task}
}

// allows reports whether a host that declared m can take an elicitation
// of params.
func (m modes) allows(params json.RawMessage) bool {
	if gjson.GetBytes(params, "mode").String() == "url" {
		return m.url
	}
	return m.form
}

// declareElicitation sets the capability at path to every mode, keeping
// the rest of raw as it is.
func declareElicitation(raw json.RawMessage, path string) (json.RawMessage, error) {
	return sjson.SetRawBytes(raw, path+".elicitation", everyMode)
}

// peer reads an Implementation object (serverInfo, clientInfo), cut to
// what the desk shows and stores; the message itself goes on unchanged.
func peer(v gjson.Result) endpoint.Peer {
	return endpoint.Peer{
		Name:    untrusted.Text(v.Get("name").String()),
		Title:   untrusted.Text(v.Get("title").String()),
		Version: untrusted.Text(v.Get("version").String()),
	}.Cut()
}

// withID returns raw with its id replaced.
func withID(raw, id json.RawMessage) json.RawMessage {
	out, err := sjson.SetRawBytes(raw, "id", id)
	if err != nil {
		return raw
	}
	return out
}

// escapeKey escapes the characters gjson and sjson read as path syntax.
func escapeKey(key string) string {
	var b []byte
	for i := 0; i < len(key); i++ {
		switch key[i] {
		case '.', '*', '?', '|', '#', '@', '\\', ':', '!', '=', '<', '>', '%':
			b = append(b, '\\')
		}
		b = append(b, key[i])
	}
	return string(b)
}
