#!/usr/bin/env bash
# docs/screenshots.sh takes the README's screenshots: for each theme (light,
# dark) and scale (1, 2) it starts a virtual X server with openbox, runs the
# built app in a temporary HOME with the demo server and three MCP hosts, and
# captures each window with its frame as docs/shots/NAME-THEME-SCALEx.png.
# At scale 1 it also takes a request gone stale, a hostile server's request,
# a bridged server's request with the Servers window listing its session,
# and the Welcome window of a first start.
# `make screenshots` builds the app and runs it from the repository root.
#
#   BIN=./elicitdesk OUT=docs/shots SHOTS_DISPLAY=:99 SHOTS_SCREEN=1440x900 docs/screenshots.sh
#
# Everything waits on a window to appear or a frame to stop changing, each
# with a timeout, and every process started here is ended on exit.
set -euo pipefail

BIN=$(realpath "${BIN:-./elicitdesk}")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-docs/shots}
DISPLAY_NUM=${SHOTS_DISPLAY:-:99}
SCREEN=${SHOTS_SCREEN:-1440x900} # in pixels, at either scale
WAIT=${SHOTS_TIMEOUT:-30} # seconds any one wait may take

for tool in Xvfb openbox xdotool xwininfo import convert jq; do
	command -v "$tool" >/dev/null || { echo "screenshots: $tool is missing (make test-deps installs it)" >&2; exit 1; }
done
[ -x "$BIN" ] || { echo "screenshots: no app at $BIN: run make build" >&2; exit 1; }
mkdir -p "$OUT"

pids=() # every background process, ended in reverse order on exit
tmp=""
cleanup() {
	local i
	for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
		kill "${pids[i]}" 2>/dev/null || true
	done
	for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
		wait "${pids[i]}" 2>/dev/null || true
	done
	pids=()
	if [ -n "$tmp" ]; then rm -rf "$tmp"; fi
	tmp=""
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail() {
	echo "screenshots: $*" >&2
	if [ -n "$tmp" ] && [ -f "$tmp/app.log" ]; then
		echo "--- app log (last lines)" >&2
		tail -n 30 "$tmp/app.log" >&2
	fi
	exit 1
}

# window REGEX prints the id of the visible window whose title matches.
# xdotool reads WM_NAME, where the em dash of the titles does not match:
# the patterns stop short of it.
window() {
	timeout "$WAIT" xdotool search --sync --onlyvisible --name "$1" 2>/dev/null | head -n 1 ||
		fail "no window matching '$1' within ${WAIT}s"
}

# gone REGEX waits until no visible window's title matches.
gone() {
	local deadline=$((SECONDS + WAIT))
	while xdotool search --onlyvisible --name "$1" >/dev/null 2>&1; do
		((SECONDS < deadline)) || fail "window '$1' still open after ${WAIT}s"
		sleep 0.1
	done
}

# frame is the window manager's frame around client window $1: its parent.
frame() {
	xwininfo -id "$1" -tree 2>/dev/null | sed -n 's/.*Parent window id: \(0x[0-9a-f]*\).*/\1/p'
}

# settled waits for window $1 to be drawn: two captures in a row the same,
# or the timeout (a blinking text cursor never settles; it is then taken
# as it is).
settled() {
	local prev="" cur deadline=$((SECONDS + 5))
	sleep 0.3 # the first frame
	while ((SECONDS < deadline)); do
		cur=$(import -window "$1" rgb:- 2>/dev/null | md5sum)
		[ "$cur" = "$prev" ] && return 0
		prev=$cur
		sleep 0.2
	done
}

# shot NAME ID captures client window ID with its frame.
shot() {
	local f file="$OUT/$1-$theme-${scale}x.png"
	f=$(frame "$2")
	[ -n "$f" ] || f=$2
	settled "$f"
	# 256 colours without dithering look the same and take a third of
	# the bytes.
	import -window "$f" miff:- | convert - -strip -dither None -colors 256 "PNG8:$file"
	echo "  $file $(identify -format '%wx%h' "$file")"
}

# focus ID gives window ID the keyboard, through the window manager, as a
# person does once the window is there: a request window the app opened
# takes no keys until 0.75 s after it appeared (app.GuardTime).
focus() {
	sleep 0.8
	xdotool windowactivate --sync "$1" >/dev/null 2>&1 || xdotool windowfocus --sync "$1"
	sleep 0.2 # Fyne takes the focus change on its next event loop turn
}

# call TOOL asks the running app's demo server to run TOOL, its requests
# answered by a person in the app's windows; it runs in the background.
call() {
	"$BIN" call -server demo -tool "$1" -answer desk >>"$tmp/calls.log" 2>&1 &
	pids+=($!)
}

# menu ITEM opens the Nth item (1 = Servers…) of the Servers window's
# Elicit Desk menu: a click opens the menu, the keyboard picks the item.
menu() {
	local servers n
	servers=$(window '^Servers ')
	focus "$servers"
	xdotool mousemove --window "$servers" $((30 * scale)) $((12 * scale)) click 1
	sleep 0.3
	for ((n = 0; n < $1; n++)); do xdotool key Down; done
	xdotool key Return
}

# hosts writes three MCP hosts' configs where Elicit Desk looks for them,
# Claude Code's with the servers of one project.
hosts() {
	mkdir -p "$HOME/.cursor" "$XDG_CONFIG_HOME/Claude"
	cat >"$HOME/.cursor/mcp.json" <<-'EOF'
	{"mcpServers": {
	  "github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"]},
	  "filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/ada/projects"]}
	}}
	EOF
	cat >"$XDG_CONFIG_HOME/Claude/claude_desktop_config.json" <<-'EOF'
	{"mcpServers": {
	  "everything": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"]}
	}}
	EOF
	cat >"$HOME/.claude.json" <<-'EOF'
	{"projects": {"/home/ada/projects/site": {"mcpServers": {
	  "postgres": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-postgres", "postgresql://localhost/site"]}
	}}}}
	EOF
}

# ready NAME waits until the app's server NAME is ready.
ready() {
	local deadline=$((SECONDS + WAIT))
	until elicitdesk servers 2>/dev/null | grep -q "^$1 .* ready"; do
		((SECONDS < deadline)) || fail "the server $1 was not ready within ${WAIT}s"
		sleep 0.1
	done
}

# outcome OUTCOME waits until the newest request in the history ended so.
outcome() {
	local deadline=$((SECONDS + WAIT))
	until elicitdesk history -json -limit 1 2>/dev/null | jq -e --arg o "$1" '.outcome == $o' >/dev/null; do
		((SECONDS < deadline)) || fail "no request ended $1 within ${WAIT}s"
		sleep 0.1
	done
}

# hostile writes a stdio MCP server whose one tool, upload, asks a form
# request carrying the strings of testdata/hostile/strings.json, as does
# its serverInfo, and adds it to servers.json as "files".
hostile() {
	cp "$ROOT/testdata/hostile/strings.json" "$tmp/bin/hostile.json"
	cat >"$tmp/bin/hostile-server" <<-'EOF'
	#!/usr/bin/env bash
	h=$(jq -c .strings "$(dirname "$0")/hostile.json")
	reply() { jq -nc --argjson id "$1" --argjson h "$h" "{jsonrpc: \"2.0\", id: \$id, result: ($2)}"; }
	call=null
	while IFS= read -r line; do
		id=$(jq -c '.id // null' <<<"$line")
		case $(jq -r '.method // ""' <<<"$line") in
		initialize) reply "$id" '{protocolVersion: "2025-06-18", capabilities: {tools: {}},
			serverInfo: {name: "files", title: ("Fi\u200bles " + $h["clear-screen"] + " (files" + $h["isolate"] + ")"), version: "1.0\u0007"}}' ;;
		tools/list) reply "$id" '{tools: [{name: "upload", inputSchema: {type: "object"}}]}' ;;
		tools/call)
			call=$id
			jq -nc --argjson h "$h" '{jsonrpc: "2.0", id: "ask", method: "elicitation/create", params: {
				message: ("Please confirm the upload of " + $h["bidi-extension"] + "\n\n" + $h["clear-screen"] + "\n" + $h["zero-width"] + " needed"),
				requestedSchema: {type: "object", required: ["kind"], properties: {
					"file\u200bname": {type: "string", title: ("File " + $h["bidi-extension"]),
						description: ($h["zero-width"] + " and " + $h["isolate"] + " " + $h["unbroken"]),
						default: ($h["carriage-return"] + $h["bell"] + $h["osc8-link"])},
					kind: {type: "string", title: "Kind", enum: [$h["bidi-extension"], "Plain choice"]}}}}}' ;;
		ping) reply "$id" '{}' ;;
		"") [ "$id" = '"ask"' ] && reply "$call" '{content: [{type: "text", text: "done"}]}' ;;
		esac
	done
	EOF
	chmod +x "$tmp/bin/hostile-server"
	printf '{"mcpServers": {"demo": {"command": "elicitdesk", "args": ["demo-server"]}, "files": {"command": "hostile-server"}}}\n' \
		>"$XDG_CONFIG_HOME/elicitdesk/servers.json"
}

# bridge NAME TITLE starts the bridge to the demo server for a host titled
# TITLE, the host being this script: it writes JSON-RPC lines to
# $tmp/NAME.in and reads the bridge's to $tmp/NAME.out. It initializes.
bridge() {
	local in=$tmp/$1.in out=$tmp/$1.out deadline=$((SECONDS + WAIT))
	mkfifo "$in"
	elicitdesk bridge -name "$1" -- elicitdesk demo-server <"$in" >"$out" 2>>"$tmp/bridge.log" &
	pids+=($!)
	sleep 3600 >"$in" & # keeps the bridge's input open
	pids+=($!)
	jq -nc --arg t "$2" '{jsonrpc: "2.0", id: 1, method: "initialize", params: {protocolVersion: "2025-06-18",
		capabilities: {}, clientInfo: {name: ($t | ascii_downcase | gsub(" "; "-")), title: $t, version: "1.0.0"}}}' >"$in"
	until grep -q '"id":1' "$out" 2>/dev/null; do
		((SECONDS < deadline)) || fail "the bridge $1 did not initialize within ${WAIT}s: $(cat "$tmp/bridge.log")"
		sleep 0.1
	done
	echo '{"jsonrpc":"2.0","method":"notifications/initialized"}' >"$in"
}

# extras takes the shots taken at scale 1 only, the app running with the
# demo server.
extras() {
	local servers=$1 id width
	# A request the server gave up on: frozen, nothing sent.
	"$BIN" call -server demo -tool ask_then_give_up -args '{"seconds": 1}' -answer desk >>"$tmp/calls.log" 2>&1 &
	pids+=($!)
	id=$(window '^demo: Answer within')
	outcome stale
	shot request-stale "$id"
	# Its banner's Close button, at the top right: the field the keyboard
	# was in keeps Escape from the window.
	width=$(xdotool getwindowgeometry --shell "$id" | sed -n 's/^WIDTH=//p')
	xdotool mousemove --window "$id" $((width - 30 * scale)) $((20 * scale)) click 1
	gone '^demo: Answer within'

	# A bridged server's request: its configured name, then the host.
	bridge github Cursor
	bridge everything "Claude Desktop"
	echo '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask_confirm","arguments":{}}}' >"$tmp/everything.in"
	id=$(window '^everything: Do you want')
	shot request-bridged "$id"
	focus "$id"
	xdotool key Escape
	gone '^everything: Do you want'
	focus "$servers" # raised, it draws what the request window covered
	shot servers-bridged "$servers"

	# A hostile server's request, shown with its markers.
	hostile
	ready files
	"$BIN" call -server files -tool upload -answer desk >>"$tmp/calls.log" 2>&1 &
	pids+=($!)
	id=$(window 'Please confirm the upload')
	shot request-hostile "$id"
}

# welcome takes the Welcome window of a first start: no servers.json yet.
welcome() {
	setup "$1" 1
	app
	shot welcome "$(window '^Welcome ')"
	cleanup
}

# setup THEME SCALE makes a temporary HOME and starts a virtual X server
# with openbox on it; the app is not started yet.
setup() {
	theme=$1 scale=$2
	echo "$theme, scale $scale"
	# The Hosts window shows where each config is: a fixed folder keeps
	# the shots alike from run to run, a new one is used while it is taken.
	tmp=${TMPDIR:-/tmp}/elicitdesk-shots
	mkdir -m 0700 "$tmp" 2>/dev/null || tmp=$(mktemp -d)
	export HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/.config XDG_DATA_HOME=$tmp/home/.local/share \
		XDG_STATE_HOME=$tmp/home/.local/state XDG_CACHE_HOME=$tmp/home/.cache XDG_RUNTIME_DIR=$tmp/run
	mkdir -p "$XDG_CONFIG_HOME/elicitdesk" "$XDG_DATA_HOME" "$XDG_STATE_HOME" "$XDG_CACHE_HOME" "$tmp/bin"
	mkdir -m 0700 "$XDG_RUNTIME_DIR"
	# The demo server is started by name, so its windows show
	# "elicitdesk demo-server", not where this checkout is.
	ln -s "$BIN" "$tmp/bin/elicitdesk"
	export PATH=$tmp/bin:$PATH
	hosts
	# The messages themselves are kept (Settings, Traffic), for the
	# Traffic window's shot.
	mkdir -p "$XDG_CONFIG_HOME/fyne/io.github.elicitdesk"
	echo '{"trafficCapture": true}' >"$XDG_CONFIG_HOME/fyne/io.github.elicitdesk/preferences.json"

	export DISPLAY=$DISPLAY_NUM FYNE_PLATFORM=x11 LANG=en_US.UTF-8 FYNE_THEME=$theme FYNE_SCALE=$scale
	export DBUS_SESSION_BUS_ADDRESS= # no tray: the Servers window stands in, with its menu
	# Xvfb writes its display number to fd 3 once it takes connections.
	Xvfb "$DISPLAY" -screen 0 "${SCREEN}x24" -nolisten tcp -br -displayfd 3 3>"$tmp/xvfb.ready" >"$tmp/xvfb.log" 2>&1 &
	pids+=($!)
	local deadline=$((SECONDS + WAIT))
	until [ -s "$tmp/xvfb.ready" ]; do
		kill -0 "${pids[-1]}" 2>/dev/null && ((SECONDS < deadline)) ||
			fail "Xvfb did not start on $DISPLAY (another X server there? set SHOTS_DISPLAY): $(cat "$tmp/xvfb.log")"
		sleep 0.05
	done
	openbox --sm-disable >"$tmp/openbox.log" 2>&1 &
	pids+=($!)
}

# app starts Elicit Desk.
app() {
	elicitdesk -v >"$tmp/app.log" 2>&1 &
	pids+=($!)
}

# session takes every shot in one theme and scale.
session() {
	setup "$1" "$2"
	printf '{"mcpServers": {"demo": {"command": "elicitdesk", "args": ["demo-server"]}}}\n' \
		>"$XDG_CONFIG_HOME/elicitdesk/servers.json"
	app
	local servers id
	servers=$(window '^Servers ')
	# The demo server is ready before the first request is sent.
	ready demo

	# A URL-mode request, cancelled.
	call open_link
	id=$(window '^demo: Open the')
	shot request-url "$id"
	focus "$id"
	xdotool key Escape
	gone '^demo: Open the'

	# The form of every kind of field, then two of them made wrong and
	# accepted: the errors show; then cancelled.
	call ask_every_field
	id=$(window '^demo: Every kind')
	shot form-everything "$id"
	focus "$id"
	xdotool key ctrl+a && xdotool type A
	xdotool key Tab ctrl+a && xdotool type 'ada@'
	xdotool key Return
	shot form-errors "$id"
	# Leaving a changed form asks first: Discard is the dialog's first
	# button.
	xdotool key Escape
	sleep 0.3
	xdotool key Tab space
	gone '^demo: Every kind'

	# A one-checkbox request, answered: tick and accept.
	call ask_confirm
	id=$(window '^demo: Do you want')
	shot request-checkbox "$id"
	focus "$id"
	xdotool key space Return
	gone '^demo: Do you want'

	shot servers "$servers"

	# History, the newest request (the one accepted) open below the list.
	menu 3 # History…
	id=$(window '^History ')
	settled "$(frame "$id")"
	xdotool mousemove --window "$id" $((400 * scale)) $((105 * scale)) click 1
	shot history "$id"

	# Traffic, filtered to the person's answers, the last (to the checkbox
	# request) selected: its message below, as the capture kept it. The
	# rows sit under the filter and the headings, which scale alike.
	menu 4 # Traffic…
	id=$(window '^Traffic ')
	settled "$(frame "$id")"
	focus "$id"
	xdotool key ctrl+f
	xdotool type 'status:ok method:elicitation'
	sleep 0.3
	xdotool mousemove --window "$id" $((400 * scale)) $((178 * scale)) click 1
	shot traffic "$id"

	menu 2 # Hosts…
	id=$(window '^Hosts ')
	shot hosts "$id"

	menu 5 # Settings…
	shot settings "$(window '^Settings ')"
	menu 9 # About Elicit Desk… (the separators take no key)
	shot about "$(window '^About ')"

	if ((scale == 1)); then extras "$servers"; fi
	cleanup
}

start=$SECONDS
for theme in light dark; do
	for scale in 1 2; do
		session "$theme" "$scale"
	done
	welcome "$theme"
done
echo "screenshots: done in $((SECONDS - start))s"
