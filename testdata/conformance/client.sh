#!/bin/sh
# The client side of the official MCP conformance suite, driven through the
# elicitdesk CLI. The suite runs this with the server URL as the last
# argument and the scenario in MCP_CONFORMANCE_SCENARIO; ELICITDESK names the
# binary under test.
url="$1"
ed="${ELICITDESK:-elicitdesk}"
case "$MCP_CONFORMANCE_SCENARIO" in
initialize)
	exec "$ed" tools -url "$url" ;;
tools_call)
	exec "$ed" call -tool add_numbers -args '{"a": 5, "b": 3}' -url "$url" ;;
elicitation-sep1034-client-defaults)
	exec "$ed" call -tool test_client_elicitation_defaults -answer defaults -url "$url" ;;
sep-2322-client-request-state)
	status=0
	for tool in test_mrtr_echo_state test_mrtr_no_state test_mrtr_unrelated test_mrtr_no_result_type; do
		"$ed" call -tool "$tool" -answer defaults -url "$url" || status=1
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
		"$ed" tools -url "$url" ;;
	auth/scope-step-up)
		# tools/list needs one scope, tools/call another.
		"$ed" call -tool test-tool -url "$url" ;;
	auth/authorization-server-migration)
		# The server moves to another authorization server after the first
		# authorized request; the second run must sign in there afresh.
		"$ed" tools -url "$url" && "$ed" call -tool test-tool -url "$url" ;;
	*)
		"$ed" tools -url "$url" ;;
	esac ;;
*)
	echo "client.sh: no mapping for scenario '$MCP_CONFORMANCE_SCENARIO'" >&2
	exit 2 ;;
esac
