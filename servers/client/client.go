// Package client is Elicit Desk's MCP client session over a link.Link:
// the handshake (initialize up to 2025-11-25, server/discover from
// 2026-07-28 on), ping, tools/list and tools/call with 2026-07-28's
// input_required rounds, and the server's elicitation requests. The app's
// connections and the command line speak MCP through it; results and
// requests stay the bytes the server wrote.
package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/tidwall/sjson"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonrpc"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/servers/link"
	"github.com/elicitdesk/elicitdesk/servers/rpc"
	"github.com/elicitdesk/elicitdesk/servers/tasks"
)

// Protocol revisions.
const (
	// Latest is the newest revision the client speaks: the one it asks
	// for unless configured otherwise.
	Latest = "2026-07-28"
	// LatestLegacy is the newest revision negotiated with initialize.
	LatestLegacy = "2025-11-25"
)

// Versions are the revisions the client speaks, newest first.
var Versions = []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// IsModern reports whether version is 2026-07-28 or later: no
// initialize, the client's capabilities in every request's _meta.
func IsModern(version string) bool { return version >= Latest }

// Keys of 2026-07-28's request and result _meta.
const (
	metaVersion      = "io.modelcontextprotocol/protocolVersion"
	metaCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaClientInfo   = "io.modelcontextprotocol/clientInfo"
	metaServerInfo   = "io.modelcontextprotocol/serverInfo"
)

// Implementation names a client or a server, as MCP's clientInfo and
// serverInfo do. A server's is its own words.
type Implementation struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

// cut is i with each word within untrusted.NameBytes: a server's words
// about itself are read once, here, and shown and stored as they are cut.
// Nothing the client sends repeats them.
func (i Implementation) cut() Implementation {
	return Implementation{Name: cutName(i.Name), Title: cutName(i.Title), Version: cutName(i.Version)}
}

func cutName(s string) string { return string(untrusted.Text(s).Cut(untrusted.NameBytes)) }

// Options say how a session introduces itself and who answers the
// server's requests.
type Options struct {
	// Info is how the client introduces itself.
	Info Implementation
	// Version pins the protocol revision; "" negotiates the newest both
	// sides speak.
	Version string
	// Legacy skips server/discover: HTTP+SSE servers predate 2026-07-28.
	Legacy bool
	// Elicit answers an elicitation from its parameters as sent, from an
	// elicitation/create request or a 2026-07-28 input request: the
	// result to send, or an error (a *jsonrpc.Error goes back as it is).
	// The peer hands elicitation/create straight to it; nil refuses it
	// like any method Elicit Desk does not handle.
	Elicit func(ctx context.Context, params json.RawMessage) (json.RawMessage, error)
	// Complete hears notifications/elicitation/complete; may be nil.
	Complete func(elicitationID string)
	// Check refuses a server's request whose params cannot be read (but
	// elicitation/create when Elicit is set, which checks its own); may
	// be nil.
	Check func(params json.RawMessage) *jsonrpc.Error
	// Bad answers a server's request that could not be read at all; nil
	// answers as rpc does.
	Bad func(bad *link.BadMessage) *jsonrpc.Error
	// DiscoverWait bounds the wait for server/discover's answer before
	// the server is taken for a legacy one; 5 s if zero.
	DiscoverWait time.Duration
	Log          *slog.Logger
}

// capabilities are what the client declares: elicitation in form and url
// mode; on 2026-07-28 the tasks extension too (a tool call may become a
// task, which CallTool follows to its end).
var (
	capabilities       = json.RawMessage(`{"elicitation":{"form":{},"url":{}}}`)
	modernCapabilities = json.RawMessage(`{"elicitation":{"form":{},"url":{}},"extensions":{"` + tasks.Extension + `":{}}}`)
)

// Session is an MCP conversation with one server.
type Session struct {
	peer *rpc.Peer
	opts Options

	mu         sync.Mutex
	version    string
	server     Implementation
	serverCaps json.RawMessage // a 2025-11-25 server's capabilities
	asTask     map[string]bool // tools to call as a 2025-11-25 task, once listed
}

// Connect starts a session over l and runs the handshake; ctx bounds the
// handshake only. On failure l is closed.
func Connect(ctx context.Context, l link.Link, opts Options) (*Session, error) {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.DiscoverWait == 0 {
		opts.DiscoverWait = 5 * time.Second
	}
	s := &Session{opts: opts}
	methods := map[string]rpc.Handler{"ping": s.ping}
	if opts.Elicit != nil {
		methods["elicitation/create"] = opts.Elicit
	}
	s.peer = rpc.New(l, rpc.Options{Methods: methods, Ordered: map[string]bool{"elicitation/create": true}, Request: s.refuse, Notification: s.notification, Bad: opts.Bad, Log: opts.Log})
	if err := s.handshake(ctx); err != nil {
		s.peer.Close()
		return nil, err
	}
	return s, nil
}

// ProtocolVersion is the negotiated revision.
func (s *Session) ProtocolVersion() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}

// Server is what the server says it is, each word cut to
// untrusted.NameBytes. Its instructions are not read: nothing shows them.
func (s *Session) Server() Implementation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.server
}

// Done is closed when the link ends; Err says why.
func (s *Session) Done() <-chan struct{} { return s.peer.Done() }

// Err says why the link ended, or nil while it lives.
func (s *Session) Err() error { return s.peer.Err() }

// Close ends the session and waits for the answers in progress.
func (s *Session) Close() error { return s.peer.Close() }

// handshake negotiates the revision: server/discover first unless a
// legacy revision is pinned or the transport is legacy, then initialize
// when the server does not discover.
func (s *Session) handshake(ctx context.Context) error {
	pinned := s.opts.Version
	if !s.opts.Legacy && (pinned == "" || IsModern(pinned)) {
		err := s.negotiate(ctx, cmp(pinned, Latest))
		if err == nil || pinned != "" || ctx.Err() != nil {
			return err
		}
		s.opts.Log.Debug("server/discover failed: trying initialize", "err", err)
	}
	return s.initialize(ctx, pinned)
}

func cmp(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// negotiate asks server/discover with version, and again as 2026-07-28
// says after a -32022 (unsupported protocol version): with the newest
// supported revision it lists, or once more with the same one when the
// server lists the one it refused.
func (s *Session) negotiate(ctx context.Context, version string) error {
	ctx, cancel := context.WithTimeout(ctx, s.opts.DiscoverWait)
	defer cancel()
	retried := false
	for range 3 {
		res, err := s.discover(ctx, version)
		if err == nil {
			return s.discovered(version, res)
		}
		e := jsonrpc.As(err)
		if e == nil || e.Code != jsonrpc.CodeUnsupportedVersion {
			return err
		}
		var data struct {
			Supported []string `json:"supported"`
		}
		json.Unmarshal(e.Data, &data)
		next := newestModern(data.Supported)
		switch {
		case slices.Contains(data.Supported, version) && !retried:
			retried = true // the server contradicts itself: ask once more
		case next != "" && next != version && s.opts.Version == "":
			version = next
		default:
			return err
		}
	}
	return errors.New("server/discover: no protocol version agreed")
}

// newestModern is the newest 2026-07-28-or-later revision in supported
// the client speaks, or "".
func newestModern(supported []string) string {
	for _, v := range Versions {
		if IsModern(v) && slices.Contains(supported, v) {
			return v
		}
	}
	return ""
}

// discover sends server/discover under version.
func (s *Session) discover(ctx context.Context, version string) (json.RawMessage, error) {
	return s.peer.Call(ctx, "server/discover", map[string]any{"_meta": s.meta(version)})
}

// discovered takes a server/discover result: a server that lists no
// 2026-07-28-or-later revision is a legacy one that answers any method.
func (s *Session) discovered(version string, res json.RawMessage) error {
	var r struct {
		SupportedVersions []string                   `json:"supportedVersions"`
		Meta              map[string]json.RawMessage `json:"_meta"`
	}
	json.Unmarshal(res, &r)
	if !slices.ContainsFunc(r.SupportedVersions, IsModern) {
		return &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "server/discover answered without a supported 2026-07-28 version: treating the server as legacy"}
	}
	if !slices.Contains(r.SupportedVersions, version) {
		if version = newestModern(r.SupportedVersions); version == "" || s.opts.Version != "" {
			return fmt.Errorf("the server speaks protocol %v, not %s", r.SupportedVersions, cmp(s.opts.Version, Latest))
		}
	}
	var info Implementation
	json.Unmarshal(r.Meta[metaServerInfo], &info)
	s.mu.Lock()
	s.version, s.server = version, info.cut()
	s.mu.Unlock()
	return nil
}

// initialize runs the handshake of revisions up to 2025-11-25.
func (s *Session) initialize(ctx context.Context, pinned string) error {
	version := pinned
	if version == "" || IsModern(version) {
		version = LatestLegacy
	}
	res, err := s.peer.Call(ctx, "initialize", map[string]any{
		"protocolVersion": version, "capabilities": capabilities, "clientInfo": s.opts.Info,
	})
	if err != nil {
		return fmt.Errorf("initializing: %w", err)
	}
	var r struct {
		ProtocolVersion string          `json:"protocolVersion"`
		ServerInfo      Implementation  `json:"serverInfo"`
		Capabilities    json.RawMessage `json:"capabilities"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		return fmt.Errorf("initializing: reading the server's answer: %w", err)
	}
	if !slices.Contains(Versions, r.ProtocolVersion) || IsModern(r.ProtocolVersion) {
		return fmt.Errorf("initializing: the server speaks protocol %q, which Elicit Desk does not", r.ProtocolVersion)
	}
	s.mu.Lock()
	s.version, s.server, s.serverCaps = r.ProtocolVersion, r.ServerInfo.cut(), r.Capabilities
	s.mu.Unlock()
	if err := s.peer.Notify(ctx, "notifications/initialized", nil); err != nil {
		return fmt.Errorf("initializing: %w", err)
	}
	return nil
}

// meta is 2026-07-28's _meta of every request: the revision, the
// client's capabilities and who it is.
func (s *Session) meta(version string) map[string]any {
	return map[string]any{metaVersion: version, metaCapabilities: modernCapabilities, metaClientInfo: s.opts.Info}
}

// call sends a request, with 2026-07-28's _meta in its params when the
// session speaks it. params is a JSON object, or nil for none.
func (s *Session) call(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	if v := s.ProtocolVersion(); IsModern(v) {
		if params == nil {
			params = json.RawMessage("{}")
		}
		withMeta, err := sjson.SetBytes(params, "_meta", s.meta(v))
		if err != nil {
			return nil, fmt.Errorf("%s params: %w", method, err)
		}
		params = withMeta
	}
	if params == nil {
		return s.peer.Call(ctx, method, nil)
	}
	return s.peer.Call(ctx, method, params)
}

// Ping checks that the server still answers: ping up to 2025-11-25, and
// server/discover, which every 2026-07-28 server must answer, after.
func (s *Session) Ping(ctx context.Context) error {
	if v := s.ProtocolVersion(); IsModern(v) {
		_, err := s.discover(ctx, v)
		return err
	}
	_, err := s.call(ctx, "ping", nil)
	return err
}

// maxPages bounds the pages of one listing.
const maxPages = 1000

// ListTools lists the server's tools, every page, each as the server
// sent it.
func (s *Session) ListTools(ctx context.Context) ([]json.RawMessage, error) {
	var tools []json.RawMessage
	seen := map[string]bool{}
	cursor := ""
	for range maxPages {
		var params json.RawMessage
		if cursor != "" {
			params, _ = json.Marshal(map[string]string{"cursor": cursor})
		}
		res, err := s.call(ctx, "tools/list", params)
		if err != nil {
			return nil, err
		}
		var page struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor string            `json:"nextCursor"`
		}
		if err := json.Unmarshal(res, &page); err != nil {
			return nil, fmt.Errorf("reading the list of tools: %w", err)
		}
		tools = append(tools, page.Tools...)
		if page.NextCursor == "" {
			s.noteTasks(tools)
			return tools, nil
		}
		if seen[page.NextCursor] {
			return nil, fmt.Errorf("the server's list of tools repeats its cursor %q", page.NextCursor)
		}
		seen[page.NextCursor] = true
		cursor = page.NextCursor
	}
	return nil, fmt.Errorf("the server's list of tools has more than %d pages", maxPages)
}

// CallTool calls tool name with arguments (a JSON object; nil sends {})
// and returns its result as the server sent it. The elicitations of
// 2026-07-28 input_required results are answered through Elicit and the
// call retried with the answers, for at most MaxInputRounds rounds. A
// call that becomes a task (2025-11-25's, for a tool that supports one,
// or the 2026-07-28 extension's) is followed to its end, its input
// requests answered through Elicit once each.
func (s *Session) CallTool(ctx context.Context, name string, arguments json.RawMessage) (json.RawMessage, error) {
	if arguments == nil {
		arguments = json.RawMessage("{}") // arguments is an object: servers refuse null
	}
	first, err := json.Marshal(map[string]any{"name": name, "arguments": arguments})
	if err != nil {
		return nil, err
	}
	if task, err := s.callAsTask(ctx, name); err != nil {
		return nil, err
	} else if task {
		if first, err = tasks.AsTask(first); err != nil {
			return nil, err
		}
	}
	params := json.RawMessage(first)
	for rounds := 0; ; rounds++ {
		res, err := s.call(ctx, "tools/call", params)
		if err != nil {
			return nil, err
		}
		in, ok := ReadInputRequired(res)
		if !ok {
			follower := tasks.Follower{Call: s.call, Ask: s.askTask, Log: s.opts.Log}
			return follower.Follow(ctx, res)
		}
		if rounds == MaxInputRounds {
			return nil, fmt.Errorf("the server still asked for input after %d rounds, the most Elicit Desk answers for one request", MaxInputRounds)
		}
		answers, err := s.answerInputs(ctx, in)
		if err != nil {
			return nil, err
		}
		if params, err = RetryParams(first, answers, in.State); err != nil {
			return nil, fmt.Errorf("cannot retry the call with the answers: %w", err)
		}
	}
}

// answerInputs answers the input requests of one input_required result,
// in the server's order. Only elicitations can be answered: any other
// input request, or one nobody could answer, ends the call.
func (s *Session) answerInputs(ctx context.Context, in InputRequired) (map[string]json.RawMessage, error) {
	answers := map[string]json.RawMessage{}
	for _, r := range in.Requests {
		if r.Method != "elicitation/create" {
			return nil, fmt.Errorf("the server asked for input Elicit Desk does not give (%s)", r.Method)
		}
		if s.opts.Elicit == nil {
			return nil, &Unanswered{Key: r.Key, Err: errors.New("no elicitation handler")}
		}
		answer, err := s.opts.Elicit(ctx, r.Params)
		if err != nil {
			if ctx.Err() != nil {
				return nil, context.Cause(ctx)
			}
			return nil, &Unanswered{Key: r.Key, Err: err}
		}
		answers[r.Key] = answer
	}
	return answers, nil
}

// callAsTask reports whether tool name is to be called as a 2025-11-25
// task: the server declared task-augmented tools/call and the tool
// supports tasks. The tools are listed once to know.
func (s *Session) callAsTask(ctx context.Context, name string) (bool, error) {
	s.mu.Lock()
	caps, known := s.serverCaps, s.asTask != nil
	task := s.asTask[name]
	s.mu.Unlock()
	if known || !tasks.TakesToolCalls(caps) {
		return task, nil
	}
	if _, err := s.ListTools(ctx); err != nil {
		return false, fmt.Errorf("listing the tools to know which run as tasks: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.asTask[name], nil
}

// noteTasks keeps which of the tools listed to call as 2025-11-25 tasks.
func (s *Session) noteTasks(tools []json.RawMessage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asTask = map[string]bool{}
	for _, t := range tools {
		if tasks.Wanted(s.serverCaps, t) {
			var v struct {
				Name string `json:"name"`
			}
			json.Unmarshal(t, &v)
			s.asTask[v.Name] = true
		}
	}
}

// askTask answers a task's input request: elicitations only.
func (s *Session) askTask(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	if method != "elicitation/create" || s.opts.Elicit == nil {
		return nil, fmt.Errorf("the task asked for input Elicit Desk does not give (%s)", method)
	}
	return s.opts.Elicit(ctx, params)
}

// Unanswered is why an input request got no answer from a person.
type Unanswered struct {
	Key string
	Err error
}

func (u *Unanswered) Error() string {
	return fmt.Sprintf("nobody could answer the server's input request %q: %v", u.Key, u.Err)
}

func (u *Unanswered) Unwrap() error { return u.Err }

// ping answers the server's ping.
func (s *Session) ping(_ context.Context, params json.RawMessage) (json.RawMessage, error) {
	if err := s.check("ping", params); err != nil {
		return nil, err
	}
	return json.RawMessage("{}"), nil
}

// refuse answers the server's requests of any other method: Elicit Desk
// handles none.
func (s *Session) refuse(_ context.Context, req rpc.Request) (json.RawMessage, error) {
	if err := s.check(req.Method, req.Params); err != nil {
		return nil, err
	}
	return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "Elicit Desk does not handle " + req.Method}
}

// check refuses params that cannot be read, with Options.Check.
func (s *Session) check(method string, params json.RawMessage) error {
	if s.opts.Check == nil || params == nil {
		return nil
	}
	if e := s.opts.Check(params); e != nil {
		s.opts.Log.Warn("refusing a request that cannot be read", "method", method, "reason", e.Message)
		return e
	}
	return nil
}

// notification hears the server's notifications.
func (s *Session) notification(m link.Message) {
	if m.Method != "notifications/elicitation/complete" || s.opts.Complete == nil {
		return
	}
	var v struct {
		Params struct {
			ElicitationID string `json:"elicitationId"`
		} `json:"params"`
	}
	if json.Unmarshal(m.Raw, &v) == nil && v.Params.ElicitationID != "" {
		s.opts.Complete(v.Params.ElicitationID)
	}
}
