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
*)
	echo "client.sh: no mapping for scenario '$MCP_CONFORMANCE_SCENARIO'" >&2
	exit 2 ;;
esac
