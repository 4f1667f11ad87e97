// Package bridge puts Elicit Desk between an MCP host and one of its
// servers. A Session passes every message both ways as it was written,
// in order, whatever its method, with one exception: elicitation. The
// session declares elicitation to the server whatever the host declared,
// and answers every elicitation in the person's windows through a Desk:
// elicitation/create requests, URL elicitations of -32042 errors, and the
// elicitations of 2026-07-28 input_required results, which it answers by
// retrying the host's request itself, so the host sees only the final
// result. While a person answers, the host's request is kept alive with
// progress notifications. The elicitations of tasks are answered too: a
// 2025-11-25 task's come as elicitation/create requests (on the
// tasks/result stream); a 2026-07-28 extension task's are among the
// inputRequests of the tasks/get results the host polls (or of its
// notifications/tasks), which the bridge answers with tasks/update itself
// and leaves out of what the host sees, once for each input request
// however often the host polls. A server's task-augmented
// elicitation/create, when the host declared those, runs as a task of the
// bridge's own, which the server polls while the person answers.
//
// When no window can be shown, an elicitation goes to the host if the
// host declared elicitation, and is otherwise answered cancel, logged and
// recorded as such: an automatic refusal never looks like a person's.
package bridge
