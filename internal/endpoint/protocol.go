package endpoint

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/elicitdesk/elicitdesk/internal/base/build"
	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/internal/traffic"
	"github.com/elicitdesk/elicitdesk/servers/link"
)

// Version is the endpoint protocol this build speaks. A client's first
// message is the handshake carrying it; a server that speaks another
// version answers with an error and hangs up, so an app and a command of
// different releases say so instead of misreading each other.
const Version = 1

// MaxMessage is the largest message, newline excluded, either side takes:
// the one peer's (link.MaxMessage). A larger one is answered with an
// error and the connection is closed; neither side writes one. It leaves
// room around the largest params a server may send (4 MiB, see
// servers.MaxParams), which bridge/elicit carries whole, with who asks.
const MaxMessage = link.MaxMessage

// The methods. Requests carry an id and get a response with the same id;
// several may be in flight on one connection. A notification has no id and
// gets no response; notifications/cancelled ends the request it names,
// which then gets none either (package rpc).
const (
	// methodHello is the handshake: params helloParams, result helloParams.
	methodHello = "endpoint/hello"
	// methodFront brings the app to the front: no params, result {}.
	methodFront = "app/front"
	// methodForward has the app serve the connections forwarded from a
	// machine: params Forwarding, result Forwarding with the path the app
	// serves it at (an older app's result: {}).
	methodForward = "app/forward"
	// methodUnforward has the app stop serving a machine, as Block in the
	// Servers window does: params Forwarding, result {}.
	methodUnforward = "app/unforward"
	// methodCallTool calls a tool of a configured server: params ToolCall,
	// result the tool's CallToolResult.
	methodCallTool = "tools/call"
	// methodElicit asks the person one elicitation of a bridged server:
	// params Question, result the ElicitResult to send to the server,
	// {"action":...,"content":...}. A request the app refuses (over the
	// server's limits are answered cancel, not refused; unusable ones are
	// refused) is a jsonrpc.Error with the code, message and data to send
	// back.
	methodElicit = "bridge/elicit"
	// methodBridge announces a session of a host with a server through the
	// bridge: params Bridged. It stays pending for as long as the session
	// lives; the app lists the session in the Servers window until the
	// request is cancelled (notifications/cancelled) or the connection
	// closes. Result {} when it ends.
	methodBridge = "bridge/session"
	// methodUnshown hands the app a bridged server's elicitation that no
	// window could show, which the bridge answered cancel without asking,
	// for the app's history: params Unshown, result {} once the app has
	// taken it. An app that does not know it answers
	// jsonrpc.CodeMethodNotFound, and the bridge keeps the entry itself.
	methodUnshown = "bridge/unshown"
	// methodComplete is a notification: params Completion, a bridged
	// server's notifications/elicitation/complete.
	methodComplete = "bridge/complete"
	// methodBridgeTraffic is a notification: params BridgeTraffic, what
	// passed between a bridged session and its server lately.
	methodBridgeTraffic = "bridge/traffic"
	// methodCapture is the app's notification to a bridge, on a
	// connection that lists a session (methodBridge): params Capture,
	// whether the app keeps the messages themselves. It is sent when the
	// session is listed and at each change.
	methodCapture = "desk/capture"
	// methodServers lists the app's configured servers and where each
	// connection stands: no params, result []ServerStatus.
	methodServers = "servers/status"
	// methodTraffic lists what passed on the app's connections to its
	// configured servers: params TrafficQuery, result []traffic.Entry,
	// oldest first. Only the messages' facts, never their params or
	// results.
	methodTraffic = "traffic/list"
	// uiPrefix begins the methods of the windows' process, which the core
	// serves only on the private connection it starts that process with:
	// any process of the user can reach this endpoint, and must not answer
	// or read a request. Here they are refused in words.
	uiPrefix = "ui/"
)

// ServerCancelled begins the reason a bridge gives when it cancels a
// bridge/elicit because its server cancelled the elicitation; ": " and
// the server's own reason follow, when it gave one.
const ServerCancelled = "the server cancelled the request"

// The endpoint's own error codes; the rest are JSON-RPC's, in package
// jsonrpc. A handler that fails otherwise is jsonrpc.CodeServer.
const (
	codeVersion     = -32001 // the handshake's version is not Version
	codeTooLarge    = -32002 // a message longer than MaxMessage
	codeOtherConfig = -32003 // servers/status asked of a servers.json the app does not read
)

// helloParams is the handshake, both ways: the protocol, and the release
// that speaks it, which an error names when the protocols differ (a
// bridge on another machine may be of another release than the app).
type helloParams struct {
	Version int    `json:"version"`
	Release string `json:"release,omitempty"`
}

// ours is this build's handshake.
func ours() helloParams { return helloParams{Version: Version, Release: release()} }

// release is this build's release, as its handshake names it.
func release() string { return cmp.Or(build.Release, "devel") }

// mismatch says, when they differ, the protocols and releases of the
// app and of the peer that talks to it.
func mismatch(app, peer helloParams) string {
	return fmt.Sprintf("the app is Elicit Desk %s (endpoint protocol %d) and this elicitdesk is %s (protocol %d): use the same release on both",
		untrusted.Text(cmp.Or(app.Release, "of an unnamed release")).Line(), app.Version,
		untrusted.Text(cmp.Or(peer.Release, "of an unnamed release")).Line(), peer.Version)
}

// ToolCall asks the app to call a tool of one of its configured servers.
type ToolCall struct {
	Server    string         `json:"server"`
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments,omitempty"`
}

// ServersQuery asks where the connections stand of the servers of one
// servers.json. An app that reads another refuses (OtherConfigError): its
// states are of its own file's servers, which share names with the
// asker's only by chance. Without Config, it answers of its own.
type ServersQuery struct {
	Config string `json:"config,omitempty"` // an absolute path
}

// OtherConfig is the handler's refusal of a ServersQuery of another
// servers.json than reads, its own, which the error's data names.
func OtherConfig(reads string) error {
	data, _ := json.Marshal(reads)
	return &jsonrpc.Error{Code: codeOtherConfig, Message: (&OtherConfigError{Reads: reads}).Error(), Data: data}
}

// OtherConfigError is the app's refusal to tell of another servers.json
// than Reads, the one it reads.
type OtherConfigError struct{ Reads string }

func (e *OtherConfigError) Error() string { return "Elicit Desk reads " + e.Reads }

// ServerStatus is where the app's connection to one configured server
// stands, for `elicitdesk servers`.
type ServerStatus struct {
	Name    string    `json:"name"`
	State   string    `json:"state"`             // connecting, ready, needs sign-in, failed, stopped or disabled
	Error   string    `json:"error,omitempty"`   // why it failed, in plain words
	Details string    `json:"details,omitempty"` // the error chain behind Error, when it says more
	Since   time.Time `json:"since"`
}

// TrafficQuery asks for the traffic entries numbered after After, at
// most MaxTraffic of the latest of them; Wait: when there is none yet,
// the answer waits for the next (at most TrafficWait).
type TrafficQuery struct {
	After uint64 `json:"after"`
	Wait  bool   `json:"wait,omitempty"`
}

// BridgeTraffic is what passed between a bridged session and its server
// lately, as the bridge saw it.
type BridgeTraffic struct {
	Session string          `json:"session"` // the Bridged ID
	Entries []traffic.Entry `json:"entries"`
	// Bodies are the entries' messages, each at the same index, while the
	// app keeps them (Capture); none otherwise, or null for one the
	// bridge could not keep.
	Bodies []json.RawMessage `json:"bodies,omitempty"`
	// Headers are, beside Bodies, the headers of the HTTP responses the
	// messages came in; null for one that did not.
	Headers []http.Header `json:"headers,omitempty"`
}

// Forwarding names a machine whose forwarded connections the app is to
// serve (ForwardedPath).
type Forwarding struct {
	Machine string `json:"machine"`
	Path    string `json:"path,omitempty"` // in app/forward's result: where the app serves it
}

// Capture says whether the app keeps the messages of bridged sessions
// themselves, beside their facts.
type Capture struct {
	On bool `json:"on"`
}

// MaxTraffic bounds the entries of one answer to a TrafficQuery.
const MaxTraffic = 10000

// TrafficWait bounds how long a TrafficQuery waits for news: a follower
// asks again.
const TrafficWait = 30 * time.Second

// Bridged is one host's session through the bridge with one server.
type Bridged struct {
	ID       string    `json:"id"`                 // chosen by the bridge; unique among live sessions
	Server   string    `json:"server"`             // the configured name, or the host/command the bridge was given
	Target   string    `json:"target"`             // the command line or URL
	Reported Peer      `json:"reported"`           // the server's serverInfo, once known
	Host     Peer      `json:"host"`               // the host's clientInfo
	Protocol string    `json:"protocol,omitempty"` // the negotiated revision
	Since    time.Time `json:"since"`
}

// UnmarshalJSON reads a Bridged whose words are cut as a Peer's are: the
// server's name and the protocol to untrusted.NameBytes, the target, a
// command line or URL, to untrusted.ProseBytes. Whoever calls itself a
// bridge chooses them, and the windows are told them with every request
// of the session's and in the list of sessions.
func (b *Bridged) UnmarshalJSON(data []byte) error {
	type plain Bridged // without this method
	var v plain
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	v.Server = string(untrusted.Text(v.Server).Cut(untrusted.NameBytes))
	v.Target = string(untrusted.Text(v.Target).Cut(untrusted.ProseBytes))
	v.Protocol = string(untrusted.Text(v.Protocol).Cut(untrusted.NameBytes))
	*b = Bridged(v)
	return nil
}

// Peer is an implementation's self-description (serverInfo, clientInfo):
// the peer's words, untrusted, each within untrusted.NameBytes.
type Peer struct {
	Name    untrusted.Text `json:"name"`
	Title   untrusted.Text `json:"title,omitempty"`
	Version untrusted.Text `json:"version,omitempty"`
}

// Cut is p with each word cut to untrusted.NameBytes, as the desk shows
// and stores what a peer says about itself.
func (p Peer) Cut() Peer {
	return Peer{Name: p.Name.Cut(untrusted.NameBytes), Title: p.Title.Cut(untrusted.NameBytes), Version: p.Version.Cut(untrusted.NameBytes)}
}

// UnmarshalJSON reads a Peer cut: whatever a bridge, or a process that
// calls itself one, sends, the core keeps a peer's words within bounds.
func (p *Peer) UnmarshalJSON(b []byte) error {
	type plain Peer // without this method
	var v plain
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*p = Peer(v).Cut()
	return nil
}

// Question is one elicitation a bridged server sent.
type Question struct {
	Session Bridged         `json:"session"`
	Params  json.RawMessage `json:"params"` // elicitation/create's params, byte for byte as the server sent them
}

// Unshown is an elicitation of a bridged server that no window could
// show, which the bridge answered cancel without asking.
type Unshown struct {
	Question Question  `json:"question"`
	Reason   string    `json:"reason"` // why no window could show it, in plain words
	At       time.Time `json:"at"`     // when the bridge answered it
	// ToHost: the bridge gave it to the host, which declared elicitation,
	// instead of answering cancel; the host's answer is not the person's.
	ToHost bool `json:"toHost,omitempty"`
}

// Completion is a bridged server's notifications/elicitation/complete.
type Completion struct {
	Session       string `json:"session"`
	Server        string `json:"server"`
	ElicitationID string `json:"elicitationId"`
}

// UnmarshalJSON reads a Completion whose server name is cut as its
// session's is (Bridged.UnmarshalJSON), so that a long one still matches
// the session's requests.
func (c *Completion) UnmarshalJSON(data []byte) error {
	type plain Completion // without this method
	var v plain
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	v.Server = string(untrusted.Text(v.Server).Cut(untrusted.NameBytes))
	*c = Completion(v)
	return nil
}

// errorf makes a JSON-RPC error with a formatted message.
func errorf(code int, format string, args ...any) *jsonrpc.Error {
	return &jsonrpc.Error{Code: code, Message: fmt.Sprintf(format, args...)}
}
