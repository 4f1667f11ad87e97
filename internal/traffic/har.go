package traffic

import (
	"cmp"
	"encoding/json"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"time"
)

// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), as far as a
// JSON-RPC exchange fills it. Each request is an entry, its answer the
// entry's response; a notification is an entry whose response has
// status 0. The URL names the server and the method
// (mcp://elicitdesk/SERVER/METHOD, escaped); which side asked, the JSON-RPC id, a bridged
// session and its host are custom fields (_dir, _id, _session, _host).
type (
	harFile struct {
		Log harLog `json:"log"`
	}
	harLog struct {
		Version string     `json:"version"`
		Creator harCreator `json:"creator"`
		Entries []harEntry `json:"entries"`
	}
	harCreator struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	}
	harEntry struct {
		Started  string      `json:"startedDateTime"`
		Time     float64     `json:"time"` // milliseconds
		Request  harRequest  `json:"request"`
		Response harResponse `json:"response"`
		Cache    struct{}    `json:"cache"`
		Timings  harTimings  `json:"timings"`
		Comment  string      `json:"comment,omitempty"`
		Dir      Dir         `json:"_dir"`
		ID       string      `json:"_id,omitempty"`
		Session  string      `json:"_session,omitempty"`
		Host     string      `json:"_host,omitempty"`
	}
	harRequest struct {
		Method      string       `json:"method"`
		URL         string       `json:"url"`
		HTTPVersion string       `json:"httpVersion"`
		Cookies     []struct{}   `json:"cookies"`
		Headers     []harHeader  `json:"headers"`
		QueryString []struct{}   `json:"queryString"`
		PostData    *harPostData `json:"postData,omitempty"`
		HeadersSize int          `json:"headersSize"`
		BodySize    int          `json:"bodySize"`
	}
	harHeader struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	}
	harPostData struct {
		MimeType string `json:"mimeType"`
		Text     string `json:"text"`
	}
	harResponse struct {
		Status      int         `json:"status"`
		StatusText  string      `json:"statusText"`
		HTTPVersion string      `json:"httpVersion"`
		Cookies     []struct{}  `json:"cookies"`
		Headers     []harHeader `json:"headers"`
		Content     harContent  `json:"content"`
		RedirectURL string      `json:"redirectURL"`
		HeadersSize int         `json:"headersSize"`
		BodySize    int         `json:"bodySize"`
	}
	harContent struct {
		Size     int    `json:"size"`
		MimeType string `json:"mimeType"`
		Text     string `json:"text,omitempty"`
	}
	harTimings struct {
		Send    float64 `json:"send"`
		Wait    float64 `json:"wait"`
		Receive float64 `json:"receive"`
	}
)

// HAR returns lines as a HAR 1.2 log by creator (its version beside):
// each request with its answer, where both are among lines, bodies where
// a capture kept them. An answer whose request is not among lines is an
// entry of its own, its request's method as the answer named it.
func HAR(lines []CaptureLine, creator, version string) ([]byte, error) {
	type key struct {
		server, session string
		dir             Dir
		id              string
	}
	har := harFile{Log: harLog{Version: "1.2", Creator: harCreator{creator, version}, Entries: []harEntry{}}}
	asked := map[key]int{} // requests' entries, by who asked and the id
	for _, l := range lines {
		switch l.Kind {
		case Request, Notification:
			e := harEntry{Started: l.Time.Format(time.RFC3339Nano), Dir: l.Dir, ID: string(l.ID),
				Session: l.Session, Host: string(l.Host), Request: harRequestOf(l), Response: noAnswer(l.Kind)}
			if l.Kind == Request {
				asked[key{l.Server, l.Session, l.Dir, string(l.ID)}] = len(har.Log.Entries)
			}
			har.Log.Entries = append(har.Log.Entries, e)
		default:
			asker := other(l.Dir) // of an answer; a cancel goes the way its request went
			if l.Kind == Cancel {
				asker = l.Dir
			}
			k := key{l.Server, l.Session, asker, string(l.ID)}
			i, ok := asked[k]
			if !ok {
				req := l
				req.Dir, req.Body, req.Size, req.Header = asker, nil, 0, nil
				har.Log.Entries = append(har.Log.Entries, harEntry{Started: l.Time.Add(-l.Latency).Format(time.RFC3339Nano),
					Dir: req.Dir, ID: string(l.ID), Session: l.Session, Host: string(l.Host), Request: harRequestOf(req),
					Comment: "The request was not recorded."})
				i = len(har.Log.Entries) - 1
			}
			delete(asked, k)
			e := &har.Log.Entries[i]
			e.Response = harResponseOf(l)
			ms := float64(l.Latency) / float64(time.Millisecond)
			e.Time, e.Timings = ms, harTimings{Wait: ms}
		}
	}
	return json.MarshalIndent(har, "", "  ")
}

func harRequestOf(l CaptureLine) harRequest {
	u := url.URL{Scheme: "mcp", Host: "elicitdesk", Path: "/" + l.Server + "/" + string(l.Method)}
	r := harRequest{Method: "POST", URL: u.String(),
		HTTPVersion: "JSON-RPC 2.0", Cookies: []struct{}{}, Headers: harHeaders(l.Header), QueryString: []struct{}{},
		HeadersSize: -1, BodySize: l.Size}
	if l.Body != nil {
		r.PostData = &harPostData{MimeType: mimeOf(l), Text: string(l.Body)}
	}
	return r
}

// noAnswer is the response of a request not answered yet, or of a
// notification, which never is.
func noAnswer(k Kind) harResponse {
	text := "no answer recorded"
	if k == Notification {
		text = "a notification: no answer"
	}
	return harResponse{StatusText: text, HTTPVersion: "JSON-RPC 2.0", Cookies: []struct{}{}, Headers: []harHeader{},
		Content: harContent{MimeType: "application/json"}, HeadersSize: -1, BodySize: -1}
}

func harResponseOf(l CaptureLine) harResponse {
	r := noAnswer(l.Kind)
	r.StatusText, r.BodySize = l.Outcome(), l.Size
	r.Content = harContent{Size: l.Size, MimeType: mimeOf(l)}
	r.Headers = harHeaders(l.Header)
	if l.Body != nil {
		r.Content.Text = string(l.Body)
	}
	switch {
	case l.Status != 0:
		r.Status = l.Status
	case l.Kind == Result || l.Kind == Error:
		r.Status = 200 // JSON-RPC errors travel in a 200 where HTTP carries them
	}
	return r
}

// harHeaders are the headers of the HTTP response a message came in, as
// a HAR lists them: by name, in order.
func harHeaders(h http.Header) []harHeader {
	out := []harHeader{}
	for _, name := range slices.Sorted(maps.Keys(h)) {
		for _, v := range h[name] {
			out = append(out, harHeader{name, v})
		}
	}
	return out
}

// mimeOf is a captured body's type: JSON, or the text a cut one keeps.
func mimeOf(l CaptureLine) string {
	if l.Cut {
		return "text/plain; charset=utf-8"
	}
	return "application/json"
}

// Latency is how long the answered requests of one method, or one tool,
// took.
type Latency struct {
	Method string `json:"method"`
	Tool   string `json:"tool,omitempty"`
	Count  int    `json:"count"`
	Errors int    `json:"errors"` // errors and cancels
	// ToolFailed counts the tools/call results that say the tool failed
	// (isError): answers, for JSON-RPC, but failures to whoever called.
	ToolFailed int           `json:"toolFailed,omitempty"`
	P50        time.Duration `json:"p50Ns"`
	P95        time.Duration `json:"p95Ns"`
	P99        time.Duration `json:"p99Ns"`
	Slowest    time.Duration `json:"maxNs"`
}

// Latencies are the latency percentiles (nearest rank) of the answers
// among entries whose requests were seen, a line per method and, for
// tools/call, per tool; slowest p95 first.
func Latencies(entries []Entry) []Latency {
	type key struct{ method, tool string }
	took := map[key][]time.Duration{}
	failed, toolFailed := map[key]int{}, map[key]int{}
	for _, e := range entries {
		if e.Latency == 0 || e.Kind != Result && e.Kind != Error && e.Kind != Cancel {
			continue
		}
		k := key{string(e.Method), string(e.Tool)}
		took[k] = append(took[k], e.Latency)
		if e.Kind != Result {
			failed[k]++
		}
		if e.ToolFailed {
			toolFailed[k]++
		}
	}
	out := make([]Latency, 0, len(took))
	for k, d := range took {
		slices.Sort(d)
		rank := func(p int) time.Duration { return d[max(0, (p*len(d)+99)/100-1)] }
		out = append(out, Latency{Method: k.method, Tool: k.tool, Count: len(d), Errors: failed[k], ToolFailed: toolFailed[k],
			P50: rank(50), P95: rank(95), P99: rank(99), Slowest: d[len(d)-1]})
	}
	slices.SortFunc(out, func(a, b Latency) int {
		return cmp.Or(cmp.Compare(b.P95, a.P95), cmp.Compare(a.Method, b.Method), cmp.Compare(a.Tool, b.Tool))
	})
	return out
}
