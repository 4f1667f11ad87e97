package bridge

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// The 2026-07-28 tasks extension's messages, as a host and a server of it
// write them.
const (
	taskMeta   = `"_meta":{"progressToken":"p1","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`
	taskFields = `"taskId":"t1","createdAt":"2026-08-01T10:00:00Z","lastUpdatedAt":"2026-08-01T10:00:00Z","ttlMs":60000,"pollIntervalMs":10`
	askName    = `"name":{"method":"elicitation/create","params":{"mode":"form","message":"Your name?","requestedSchema":{"type":"object","properties":{"n":{"type":"string"}}}}}`
	askColour  = `"colour":{"method":"elicitation/create","params":{"mode":"form","message":"Colour?","requestedSchema":{"type":"object","properties":{"c":{"type":"string"}}}}}`
	askModel   = `"llm":{"method":"sampling/createMessage","params":{"maxTokens":1,"messages":[]}}`
)

// taskHost drives a host's side of the extension through a session.
type taskHost struct {
	*session
	t    *testing.T
	next int
	meta string // the _meta of the host's requests; taskMeta if ""
}

func (h *taskHost) requestMeta() string {
	if h.meta == "" {
		return taskMeta
	}
	return h.meta
}

func (h *taskHost) callTool() {
	h.t.Helper()
	h.host.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow",` + h.requestMeta() + `}}`)
	h.server.next()
	h.server.send(`{"jsonrpc":"2.0","id":1,"result":{"resultType":"task",` + taskFields + `,"status":"working"}}`)
	if got := h.host.next(); gjson.Get(got, "result.resultType").String() != "task" {
		h.t.Fatalf("the host got %s", got)
	}
	h.next = 2
}

// poll has the host poll the task, the server answer with status and
// inputs, and returns what the host got.
func (h *taskHost) poll(status, inputs string) string {
	h.t.Helper()
	extra := ""
	if inputs != "" {
		extra = `,"inputRequests":{` + inputs + `}`
	}
	return h.pollWith(status, extra)
}

// pollWith is poll with the task's other members as the server writes
// them.
func (h *taskHost) pollWith(status, extra string) string {
	h.t.Helper()
	id := h.next
	h.next++
	h.host.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tasks/get","params":{"taskId":"t1",%s}}`, id, h.requestMeta()))
	if got := h.server.next(); gjson.Get(got, "method").String() != "tasks/get" {
		h.t.Fatalf("the server got %s", got)
	}
	h.server.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"resultType":"complete",%s,"status":%q%s}}`, id, taskFields, status, extra))
	got := h.host.next()
	if gjson.Get(got, "id").Int() != int64(id) {
		h.t.Fatalf("the host got %s for its tasks/get %d", got, id)
	}
	return got
}

// update expects the bridge's tasks/update with the answer to key and
// acknowledges it.
func (h *taskHost) update(key, answer string) {
	h.t.Helper()
	got := h.server.next()
	if gjson.Get(got, "method").String() != "tasks/update" || gjson.Get(got, "params.taskId").String() != "t1" {
		h.t.Fatalf("the server got %s, want tasks/update", got)
	}
	if r := gjson.Get(got, "params.inputResponses"); !sameJSON(r.Raw, `{"`+key+`":`+answer+`}`) {
		t := h.t
		t.Errorf("the tasks/update answers %s, want %s for %s", r.Raw, answer, key)
	}
	if meta := gjson.Get(got, "params._meta"); !meta.Get(`io\.modelcontextprotocol/protocolVersion`).Exists() ||
		!meta.Get(`io\.modelcontextprotocol/clientCapabilities.elicitation`).Exists() || meta.Get("progressToken").Exists() {
		h.t.Errorf("the tasks/update carries %s, want the host's 2026-07-28 _meta as sent upstream and no more", meta.Raw)
	}
	h.server.send(`{"jsonrpc":"2.0","id":` + gjson.Get(got, "id").Raw + `,"result":{"resultType":"complete"}}`)
}

func sameJSON(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return string(ja) == string(jb)
}

// noMoreQuestions ends the session, so that every answer it started has
// ended, and checks that none reached the desk.
func (h *taskHost) noMoreQuestions() {
	h.t.Helper()
	h.stop()
	if n := len(h.desk.asked); n != 0 {
		h.t.Errorf("%d more windows opened", n)
	}
}

// TestTaskInputsOnce answers each input request of a 2026-07-28 task in
// one window, however often the host polls while the person answers and
// however long the server keeps listing an answered one; the host sees the
// task working, then its result as sent.
func TestTaskInputsOnce(t *testing.T) {
	h := &taskHost{session: start(t, newDesk(), Options{}), t: t}
	h.callTool()
	h.poll("working", "")
	for range 2 { // polled twice while the person answers: one window
		got := h.poll("input_required", askName)
		if gjson.Get(got, "result.status").String() != "working" || gjson.Get(got, "result.inputRequests").Exists() {
			t.Errorf("the host got %s, want the task working", got)
		}
	}
	q := h.desk.question(t)
	if gjson.GetBytes(q.q.Params, "message").String() != "Your name?" {
		t.Errorf("the desk was asked %s", q.q.Params)
	}
	q.answer <- answer{raw: json.RawMessage(`{"action":"accept","content":{"n":"Ada"}}`)}
	h.update("name", `{"action":"accept","content":{"n":"Ada"}}`)
	h.poll("input_required", askName) // not yet seen by the server: not asked again
	h.poll("input_required", askName+","+askColour)
	q = h.desk.question(t)
	if gjson.GetBytes(q.q.Params, "message").String() != "Colour?" {
		t.Errorf("the desk was asked %s", q.q.Params)
	}
	q.answer <- answer{raw: json.RawMessage(`{"action":"decline"}`)}
	h.update("colour", `{"action":"decline"}`)
	done := `{"jsonrpc":"2.0","id":%d,"result":{"resultType":"complete",` + taskFields + `,"status":"completed","result":{"content":[{"type":"text","text":"hi Ada"}]}}}`
	if got, want := h.pollWith("completed", `,"result":{"content":[{"type":"text","text":"hi Ada"}]}`), fmt.Sprintf(done, h.next-1); got != want {
		t.Errorf("the host got\n%s\nwant\n%s", got, want)
	}
	h.noMoreQuestions()
}

// TestTaskInputsMixed leaves the input requests the desk does not answer
// to the host, which still sees the task input_required.
func TestTaskInputsMixed(t *testing.T) {
	h := &taskHost{session: start(t, newDesk(), Options{}), t: t}
	h.callTool()
	got := h.poll("input_required", askName+","+askModel)
	if gjson.Get(got, "result.status").String() != "input_required" || gjson.Get(got, "result.inputRequests.name").Exists() || !gjson.Get(got, "result.inputRequests.llm").Exists() {
		t.Errorf("the host got %s, want only the sampling request", got)
	}
	q := h.desk.question(t)
	q.answer <- answer{raw: json.RawMessage(`{"action":"cancel"}`)}
	h.update("name", `{"action":"cancel"}`)
}

// TestTaskInputsEnd closes the window of an input request the server no
// longer lists, or of a task the host cancelled.
func TestTaskInputsEnd(t *testing.T) {
	for _, tt := range []struct {
		name string
		end  func(h *taskHost)
	}{
		{"the server stops asking", func(h *taskHost) { h.poll("working", "") }},
		{"the task ends", func(h *taskHost) { h.poll("failed", "") }},
		{"the host cancels", func(h *taskHost) {
			h.host.send(`{"jsonrpc":"2.0","id":9,"method":"tasks/cancel","params":{"taskId":"t1",` + taskMeta + `}}`)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := &taskHost{session: start(t, newDesk(), Options{}), t: t}
			h.callTool()
			h.poll("input_required", askName)
			q := h.desk.question(t)
			tt.end(h)
			<-q.ctx.Done()
			h.noMoreQuestions()
		})
	}
}

// TestTaskInputsNoWindow gives the host that declared elicitation the
// input request no window could show, on its next poll.
func TestTaskInputsNoWindow(t *testing.T) {
	desk := newDesk()
	desk.noWindow = true
	h := &taskHost{session: start(t, desk, Options{}), t: t,
		meta: `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}}`}
	h.callTool()
	h.poll("input_required", askName)
	if u := <-h.unshown; !u.ToHost {
		t.Errorf("recorded %+v, want given to the host", u)
	}
	// The bridge gives up on the window before it lets the host have the
	// request: the host polls until it does, as a host would.
	for deadline := time.Now().Add(10 * time.Second); ; {
		if got := h.poll("input_required", askName); gjson.Get(got, "result.inputRequests.name").Exists() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the host never got the input request")
		}
	}
}

// The 2025-11-25 client capabilities of a host that runs elicitations as
// tasks, and a server's task-augmented elicitation.
const (
	taskHostCaps = `{"elicitation":{},"tasks":{"cancel":{},"requests":{"elicitation":{"create":{}}}}}`
	taskElicit   = `{"jsonrpc":"2.0","id":5,"method":"elicitation/create","params":{"task":{"ttl":600000},"message":"Your name?","requestedSchema":{"type":"object","properties":{"n":{"type":"string"}},"required":["n"]}}}`
)

// createdTask reads the task id of the bridge's CreateTaskResult.
func createdTask(t *testing.T, got string) string {
	t.Helper()
	task := gjson.Get(got, "result.task")
	if gjson.Get(got, "id").Int() != 5 || task.Get("status").String() != "working" || !strings.HasPrefix(task.Get("taskId").String(), "elicitdesk-task-") ||
		!task.Get("createdAt").Exists() || !task.Get("ttl").Exists() {
		t.Fatalf("the server got %s, want a CreateTaskResult", got)
	}
	return task.Get("taskId").String()
}

// TestElicitationTask runs a server's task-augmented elicitation/create as
// a task of the bridge's own: the server gets a CreateTaskResult at once,
// polls it while the person answers in one window, and fetches the answer
// with tasks/result; the host sees none of it.
func TestElicitationTask(t *testing.T) {
	s := start(t, newDesk(), Options{})
	s.initialize(t, taskHostCaps)
	s.server.send(taskElicit)
	id := createdTask(t, s.server.next())
	q := s.desk.question(t)
	if gjson.GetBytes(q.q.Params, "message").String() != "Your name?" {
		t.Errorf("the desk was asked %s", q.q.Params)
	}
	s.server.send(`{"jsonrpc":"2.0","id":6,"method":"tasks/get","params":{"taskId":"` + id + `"}}`)
	if got := s.server.next(); gjson.Get(got, "id").Int() != 6 || gjson.Get(got, "result.taskId").String() != id || gjson.Get(got, "result.status").String() != "working" {
		t.Errorf("tasks/get: %s", got)
	}
	s.server.send(`{"jsonrpc":"2.0","id":7,"method":"tasks/result","params":{"taskId":"` + id + `"}}`)
	q.answer <- answer{raw: json.RawMessage(`{"action":"accept","content":{"n":"Ada"}}`)}
	got := s.server.next()
	if gjson.Get(got, "id").Int() != 7 || gjson.Get(got, "result.content.n").String() != "Ada" ||
		gjson.Get(got, `result._meta.io\.modelcontextprotocol/related-task.taskId`).String() != id {
		t.Errorf("tasks/result: %s", got)
	}
	s.server.send(`{"jsonrpc":"2.0","id":8,"method":"tasks/get","params":{"taskId":"` + id + `"}}`)
	if got := s.server.next(); gjson.Get(got, "result.status").String() != "completed" {
		t.Errorf("tasks/get: %s", got)
	}
	s.server.send(`{"jsonrpc":"2.0","id":9,"method":"tasks/cancel","params":{"taskId":"` + id + `"}}`)
	if got := s.server.next(); gjson.Get(got, "error.code").Int() != -32602 {
		t.Errorf("tasks/cancel of an ended task: %s", got)
	}
	// A task the bridge does not run is the host's.
	other := `{"jsonrpc":"2.0","id":10,"method":"tasks/get","params":{"taskId":"host-task"}}`
	s.server.send(other)
	if got := s.host.next(); got != other {
		t.Errorf("the host got %s, want %s", got, other)
	}
}

// TestElicitationTaskCancelled ends the window of a task the server
// cancels; its tasks/result is an error.
func TestElicitationTaskCancelled(t *testing.T) {
	s := start(t, newDesk(), Options{})
	s.initialize(t, taskHostCaps)
	s.server.send(taskElicit)
	id := createdTask(t, s.server.next())
	q := s.desk.question(t)
	s.server.send(`{"jsonrpc":"2.0","id":6,"method":"tasks/cancel","params":{"taskId":"` + id + `"}}`)
	if got := s.server.next(); gjson.Get(got, "result.status").String() != "cancelled" {
		t.Errorf("tasks/cancel: %s", got)
	}
	<-q.ctx.Done()
	s.server.send(`{"jsonrpc":"2.0","id":7,"method":"tasks/result","params":{"taskId":"` + id + `"}}`)
	if got := s.server.next(); !gjson.Get(got, "error").Exists() {
		t.Errorf("tasks/result of a cancelled task: %s", got)
	}
}

// TestElicitationTaskNotDeclared answers a task-augmented elicitation as a
// plain one when the host did not declare task-augmented elicitation, so
// neither did the server see it declared.
func TestElicitationTaskNotDeclared(t *testing.T) {
	s := start(t, newDesk(), Options{})
	s.initialize(t, `{"elicitation":{}}`)
	s.server.send(taskElicit)
	s.desk.question(t).answer <- answer{raw: json.RawMessage(`{"action":"decline"}`)}
	if got, want := s.server.next(), `{"jsonrpc":"2.0","id":5,"result":{"action":"decline"}}`; got != want {
		t.Errorf("the server got %s, want %s", got, want)
	}
}

// elicitationTaskToHost starts a session whose server asks an elicitation
// task no window can show: it returns the session, the task's id and the
// bridge's own request to the host.
func elicitationTaskToHost(t *testing.T) (*session, string, string) {
	desk := newDesk()
	desk.noWindow = true
	s := start(t, desk, Options{})
	s.initialize(t, taskHostCaps)
	s.server.send(taskElicit)
	id := createdTask(t, s.server.next())
	return s, id, s.host.nextMethod("elicitation/create")
}

// TestElicitationTaskToHost gives the host an elicitation task no window
// could show, as the bridge's own request without the task; the host's
// answer is the task's result.
func TestElicitationTaskToHost(t *testing.T) {
	s, id, asked := elicitationTaskToHost(t)
	if gjson.Get(asked, "params.task").Exists() || gjson.Get(asked, "params.message").String() != "Your name?" {
		t.Errorf("the host was asked %s", asked)
	}
	s.server.send(`{"jsonrpc":"2.0","id":7,"method":"tasks/result","params":{"taskId":"` + id + `"}}`)
	s.host.send(`{"jsonrpc":"2.0","id":` + gjson.Get(asked, "id").Raw + `,"result":{"action":"accept","content":{"n":"Host"}}}`)
	if got := s.server.next(); gjson.Get(got, "result.content.n").String() != "Host" {
		t.Errorf("tasks/result: %s", got)
	}
}

// TestTaskInputsNotified takes the input requests of a task status
// notification too: the host is told the task works, the desk asks once,
// and the tasks/update carries the host's _meta.
func TestTaskInputsNotified(t *testing.T) {
	h := &taskHost{session: start(t, newDesk(), Options{}), t: t}
	h.callTool()
	note := `{"jsonrpc":"2.0","method":"notifications/tasks","params":{` + taskFields + `,"status":"input_required","inputRequests":{` + askName + `}}}`
	h.server.send(note)
	if got := h.host.next(); gjson.Get(got, "params.status").String() != "working" || gjson.Get(got, "params.inputRequests").Exists() {
		t.Errorf("the host got %s", got)
	}
	q := h.desk.question(t)
	h.poll("input_required", askName) // the same request polled: no second window
	q.answer <- answer{raw: json.RawMessage(`{"action":"accept","content":{"n":"Ada"}}`)}
	h.update("name", `{"action":"accept","content":{"n":"Ada"}}`)
	h.noMoreQuestions()
}

// TestServerCannotAnswerForTheBridge: a server's request to the host
// whose id is one the bridge might give its own request to the host is
// passed on, and the host's answer to it reaches the server; the bridge's
// own request still gets the host's answer meant for it.
func TestServerCannotAnswerForTheBridge(t *testing.T) {
	s, id, asked := elicitationTaskToHost(t)
	for _, guess := range []string{`"elicitdesk-host-1"`, `"elicitdesk-host-2"`, `"elicitdesk-1"`, `1`} {
		s.server.send(`{"jsonrpc":"2.0","id":` + guess + `,"method":"sampling/createMessage","params":{}}`)
		if got := s.host.next(); gjson.Get(got, "method").String() != "sampling/createMessage" {
			t.Fatalf("the host got %s, want the server's request", got)
		}
		s.host.send(`{"jsonrpc":"2.0","id":` + guess + `,"result":{"model":"m"}}`)
		if got := s.server.next(); gjson.Get(got, "id").Raw != guess || gjson.Get(got, "result.model").String() != "m" {
			t.Fatalf("the server got %s, want the host's answer to its request %s", got, guess)
		}
	}
	s.server.send(`{"jsonrpc":"2.0","id":7,"method":"tasks/result","params":{"taskId":"` + id + `"}}`)
	s.host.send(`{"jsonrpc":"2.0","id":` + gjson.Get(asked, "id").Raw + `,"result":{"action":"accept","content":{"n":"Host"}}}`)
	if got := s.server.next(); gjson.Get(got, "result.content.n").String() != "Host" {
		t.Errorf("tasks/result: %s", got)
	}
}
