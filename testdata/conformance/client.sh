#!/bin/sh
# The client side of the official MCP conformance suite, driven through the
# elicitdesk CLI. The suite runs this with the server URL as the last
# argument, the scenario in MCP_CONFORMANCE_SCENARIO and, for some, the
# calls to make in MCP_CONFORMANCE_CONTEXT (JSON); ELICITDESK names the
# binary under test. Node, which runs the suite, reads that JSON.
#
#	client.sh [bridge] URL
#
# With "bridge", every command reaches the server through
# `elicitdesk bridge -url URL`: the CLI is the bridge's host over stdio, and
# the bridge the client the scenario checks (its headers, _meta, sign-in
# and SSE resumption).
bridged=
if [ "$1" = bridge ]; then
	bridged=1
	shift
fi
url="$1"
ed="${ELICITDESK:-elicitdesk}"

# reach runs "$ed" with its arguments and the server as target: the URL, or
# a bridge to it started as a stdio server.
reach() {
	if [ -n "$bridged" ]; then
		"$ed" "$@" -- "$ed" bridge -url "$url"
	else
		"$ed" "$@" -url "$url"
	fi
}

# js runs a line of JavaScript on standard input, read as JSON into `input`.
js() {
	node -e 'const input = JSON.parse(require("fs").readFileSync(0, "utf8") || "null");'"$1"
}

# calls runs "$ed" call for each "NAME<TAB>ARGS" line on standard input,
# and fails if any call does.
calls() {
	status=0
	tab=$(printf '\t')
	while IFS="$tab" read -r tool args; do
		[ -n "$tool" ] || continue
		reach call -tool "$tool" -args "$args" || status=1
	done
	return $status
}

case "$MCP_CONFORMANCE_SCENARIO" in
initialize|request-metadata|json-schema-ref-no-deref)
	reach tools ;;
tools_call)
	reach call -tool add_numbers -args '{"a": 5, "b": 3}' ;;
elicitation-sep1034-client-defaults)
	reach call -tool test_client_elicitation_defaults -answer defaults ;;
sse-retry)
	# the server ends the call's stream early: it is resumed by a GET with Last-Event-ID
	reach call -tool test_reconnection ;;
http-standard-headers)
	# on 2026-07-28 a call lists the tools first: tools/list and tools/call carry the headers
	reach call -tool test_headers ;;
http-custom-headers)
	# the calls to make come in the context
	todo=$(printf "%s\n" "$MCP_CONFORMANCE_CONTEXT" | js 'for (const c of input.toolCalls) console.log(c.name + "\t" + JSON.stringify(c.arguments))') || exit 2
	printf "%s\n" "$todo" | calls ;;
http-invalid-tool-headers)
	# call every tool the CLI lists: those with invalid x-mcp-header are left out
	listed=$(reach tools) || exit 1
	printf "%s\n" "$listed" | js 'for (const t of input) console.log(t.name + "\t{\"region\": \"us-west1\"}")' | calls ;;
json-schema-2020-12-preservation)
	# echo the focal tool's inputSchema back as the CLI lists it
	listed=$(reach tools) || exit 1
	args=$(printf "%s\n" "$listed" | js 'console.log(JSON.stringify({schema: input.find(t => t.name === "json_schema_2020_12_tool").inputSchema}))') || exit 1
	reach call -tool json_schema_echo -args "$args" ;;
sep-2322-client-request-state)
	status=0
	for tool in test_mrtr_echo_state test_mrtr_no_state test_mrtr_unrelated test_mrtr_no_result_type; do
		reach call -tool "$tool" -answer defaults || status=1
	done
	exit $status ;;
auth/*)
	# The suite's authorization servers approve at once and redirect to our
	# loopback listener: curl following the URL is the browser. Sign-ins go
	# to a throwaway file, never the keyring of whoever runs the tests.
	export ELICITDESK_BROWSER="curl -fsSL -o /dev/null"
	export ELICITDESK_CLIENT_METADATA_URL="https://conformance-test.local/client-metadata.json"
	ELICITDESK_TOKEN_FILE="$(mktemp)"
	export ELICITDESK_TOKEN_FILE
	trap 'rm -f "$ELICITDESK_TOKEN_FILE"' EXIT
	case "$MCP_CONFORMANCE_SCENARIO" in
	auth/pre-registration)
		# The pre-registered client comes in the scenario's context.
		ELICITDESK_CLIENT_ID=$(node -e 'console.log(JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT).client_id)')
		ELICITDESK_CLIENT_SECRET=$(node -e 'console.log(JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT).client_secret)')
		export ELICITDESK_CLIENT_ID ELICITDESK_CLIENT_SECRET
		reach tools ;;
	auth/scope-step-up)
		# tools/list needs one scope, tools/call another.
		reach call -tool test-tool ;;
	auth/authorization-server-migration)
		# The server moves to another authorization server after the first
		# authorized request; the second run must sign in there afresh.
		reach tools && reach call -tool test-tool ;;
	*)
		reach tools ;;
	esac ;;
*)
	echo "client.sh: no mapping for scenario '$MCP_CONFORMANCE_SCENARIO'" >&2
	exit 2 ;;
esac
