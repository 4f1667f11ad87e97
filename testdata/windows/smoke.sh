#!/usr/bin/env bash
# testdata/windows/smoke.sh runs the Windows build of Elicit Desk under Wine
# on a virtual X display, in a throwaway Wine prefix, and checks what a
# person on Windows relies on: a GUI program (no console window) that
# still prints to the terminal it is started from and speaks through the
# pipes a host starts it with, the command line (its output byte for
# byte that of the Linux build), a bare command name looked up as hosts
# do, the app's first window, the named pipe that scripts and bridges
# reach the app through, answering a request by keyboard alone (the key
# hold and F6), a bridge between pipes and the app, one app per
# user, routing a host's servers and back, and launch at login (the Run
# key). It prints each check's result and time, and fails when any check
# fails. `make windows-check` builds what it needs and runs it:
#
#   EXE=dist/windows/elicitdesk.exe BIN=./elicitdesk SHIM=dist/windows/bcryptprimitives.dll \
#   UIA=dist/windows/uiautomationcore.dll TERMINAL=dist/windows/terminal.exe WINDOWS_CHECK_DISPLAY=:98 WINDOWS_CHECK_OUT=dist/windows \
#   testdata/windows/smoke.sh
#
# Every wait has a timeout; every process started here is ended on exit.
# shellcheck disable=SC2317 # the checks are functions check calls by name
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
EXE=$(realpath "${EXE:-dist/windows/elicitdesk.exe}")
BIN=$(realpath "${BIN:-./elicitdesk}")
SHIM=$(realpath "${SHIM:-dist/windows/bcryptprimitives.dll}")
UIA=$(realpath "${UIA:-dist/windows/uiautomationcore.dll}")
TERMINAL=$(realpath "${TERMINAL:-dist/windows/terminal.exe}")
OUT=$(realpath "${WINDOWS_CHECK_OUT:-dist/windows}")
WAIT=${WINDOWS_CHECK_TIMEOUT:-60} # seconds any one wait may take
DATA=$ROOT/testdata/windows

for tool in wine wineboot wineserver Xvfb openbox xdotool xwininfo import convert jq script; do
	command -v "$tool" >/dev/null || { echo "windows-check: $tool is missing (make windows-check installs it)" >&2; exit 1; }
done
for f in "$EXE" "$BIN" "$SHIM" "$UIA" "$TERMINAL"; do
	[ -f "$f" ] || { echo "windows-check: $f is missing: run make windows-check" >&2; exit 1; }
done

tmp=$(mktemp -d)
# started PID notes a background process, ended on exit: the checks run in
# subshells, so the list is a file.
started() { echo "$1" >>"$tmp/pids"; }
cleanup() {
	# Whatever Wine still runs in this prefix, the wineserver included;
	# then the rest, the last started first.
	WINEPREFIX=$tmp/prefix wineserver -k 2>/dev/null || true
	if [ -f "$tmp/pids" ]; then
		tac "$tmp/pids" | while read -r pid; do kill "$pid" 2>/dev/null || true; done
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Wine writes nothing of its own to the terminal, asks for no Mono or
# Gecko, takes the stand-in uiautomationcore.dll over its own, and keeps
# its prefix and the user's files in tmp.
export HOME=$tmp/home WINEPREFIX=$tmp/prefix WINEDEBUG=-all WINEDLLOVERRIDES='mscoree,mshtml=;uiautomationcore=n' LANG=C.UTF-8
mkdir -p "$HOME"

failed=0
# check NAME FUNCTION runs one check in a subshell that stops at its first
# failing command, and prints its result, time and last line of output,
# what it printed before below.
check() {
	local start rc took
	start=$(date +%s.%N)
	# Not in an if: there, bash would ignore set -e within.
	set +e
	(set -e; "$2") >"$tmp/check.log" 2>&1
	rc=$?
	set -e
	took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1fs", b - a}')
	if [ "$rc" = 0 ]; then
		printf 'PASS  %-28s %6s  %s\n' "$1" "$took" "$(tail -n 1 "$tmp/check.log")"
		head -n -1 "$tmp/check.log" | sed 's/^/      /'
		return
	fi
	printf 'FAIL  %-28s %6s\n' "$1" "$took"
	sed 's/^/      /' "$tmp/check.log"
	if [ -f "$tmp/app.log" ]; then
		echo "      --- app log (last lines)"
		tail -n 20 "$tmp/app.log" | sed 's/^/      /'
	fi
	failed=1
}

# same WHAT ARGS... runs the Windows and the Linux build with ARGS (and
# the same standard input, from $tmp/stdin) in $tmp/work, and fails unless
# both print the same bytes and exit alike.
same() {
	local what=$1 win=0 lin=0
	shift
	(cd "$tmp/work" && wine "$EXE" "$@" <"$tmp/stdin" >"$tmp/win.out" 2>"$tmp/win.err") || win=$?
	(cd "$tmp/work" && "$BIN" "$@" <"$tmp/stdin" >"$tmp/lin.out" 2>"$tmp/lin.err") || lin=$?
	if [ "$win" != "$lin" ] || ! cmp -s "$tmp/win.out" "$tmp/lin.out" || ! cmp -s "$tmp/win.err" "$tmp/lin.err"; then
		echo "$what: Windows exits $win, Linux $lin"
		diff -u --label Linux --label Windows <(cat "$tmp/lin.out" "$tmp/lin.err") <(cat "$tmp/win.out" "$tmp/win.err") | head -n 30
		return 1
	fi
	echo "$what: both exit $win, $(wc -c <"$tmp/win.out") bytes alike"
}

# until_true SECONDS COMMAND... polls COMMAND until it succeeds.
until_true() {
	local deadline=$((SECONDS + $1))
	shift
	until "$@" >/dev/null 2>&1; do
		((SECONDS < deadline)) || return 1
		sleep 0.2
	done
}

# window REGEX prints the id of the visible window whose title matches.
# It searches until one shows, not with --sync: xdotool gives up at once
# (BadWindow) when a window it looks at is destroyed meanwhile, as the
# windows' process's unshown GL warm-up window is at its start.
window() {
	local deadline=$((SECONDS + WAIT)) w
	until w=$(xdotool search --onlyvisible --name "$1" 2>/dev/null | head -n 1) && [ -n "$w" ]; do
		((SECONDS < deadline)) || { echo "no window matching '$1' within ${WAIT}s" >&2; return 1; }
		sleep 0.2
	done
	echo "$w"
}

# settled waits for window $1 to be drawn: two captures in a row the same.
settled() {
	local prev="" cur deadline=$((SECONDS + WAIT))
	while ((SECONDS < deadline)); do
		# import waits for ever on a window that is gone.
		cur=$(timeout 10 import -window "$1" rgb:- 2>/dev/null | md5sum)
		[ "$cur" = "$prev" ] && return 0
		prev=$cur
		sleep 0.2
	done
	echo "window $1 still changes after ${WAIT}s" >&2
	return 1
}

# click ID X Y clicks at X,Y in window ID, which Wine takes as the focus.
click() { xdotool mousemove --window "$1" "$2" "$3" click 1; }

# tray_item Y opens the menu of Elicit Desk's icon in Wine's system tray
# and clicks the entry Y pixels below the menu's top: Wine draws the menu
# itself, the same in every prefix, and takes no keys in it here.
tray_item() {
	local tray menu mx my
	tray=$(window '^Wine System Tray$')
	click "$tray" 12 12
	until_true 10 menu_open || { echo "the tray menu did not open"; return 1; }
	menu=$(menu_open)
	read -r mx my < <(xwininfo -id "$menu" | awk '/Absolute upper-left X/ {x=$NF} /Absolute upper-left Y/ {y=$NF} END {print x, y}')
	xdotool mousemove $((mx + 60)) $((my + $1)) click 1
	until_true 10 sh -c "! xwininfo -id $menu | grep -q IsViewable" || { echo "the tray menu stays open"; return 1; }
}

# menu_open prints Wine's open popup menu: a viewable override-redirect
# window at least 100 pixels square.
menu_open() {
	local id info
	for id in $(xwininfo -root -children | awk '/^ +0x/ {print $1}'); do
		info=$(xwininfo -id "$id")
		if grep -q 'Override Redirect State: yes' <<<"$info" && grep -q IsViewable <<<"$info" &&
			(($(awk '/Width:/ {print $NF}' <<<"$info") >= 100 && $(awk '/Height:/ {print $NF}' <<<"$info") >= 100)); then
			echo "$id"
			return 0
		fi
	done
	return 1
}

# run_key prints Elicit Desk's Run value, or fails when there is none.
run_key() {
	wine reg query 'HKCU\Software\Microsoft\Windows\CurrentVersion\Run' /v 'Elicit Desk' 2>/dev/null | grep 'Elicit Desk'
}

# --- the environment: display, window manager, Wine prefix

display() {
	# Without WINDOWS_CHECK_DISPLAY, Xvfb takes the first free display.
	# shellcheck disable=SC2086 # none or one argument
	Xvfb ${WINDOWS_CHECK_DISPLAY:-} -screen 0 1440x900x24 -nolisten tcp -br -displayfd 3 3>"$tmp/xvfb.ready" >"$tmp/xvfb.log" 2>&1 &
	started $!
	until_true 30 test -s "$tmp/xvfb.ready" || { cat "$tmp/xvfb.log"; return 1; }
	DISPLAY=:$(cat "$tmp/xvfb.ready")
	export DISPLAY
	openbox --sm-disable >"$tmp/openbox.log" 2>&1 &
	started $!
	echo "Xvfb and openbox on $DISPLAY"
}

prefix() {
	wineboot -i >"$tmp/wineboot.log" 2>&1
	wineserver -w
	# Go 1.24 and later need ProcessPrng, which Wine 8 lacks; Fyne's
	# accessibility calls a function Wine 8 aborts in.
	cp "$SHIM" "$UIA" "$WINEPREFIX/drive_c/windows/system32/"
	mkdir -p "$tmp/work"
	cp "$DATA"/*.json "$tmp/work/"
	wine "$EXE" version >/dev/null || { echo "the exe does not start in the prefix"; return 1; }
	echo "prefix $WINEPREFIX"
}

# --- a GUI program that prints to its terminal and speaks through pipes

subsystem() {
	"$DATA/subsystem.sh" "$EXE"
}

# terminal starts the exe as cmd.exe starts a GUI program, with no
# standard handles, in a console on a pseudo-terminal: it must print
# there all the same, and exit as the Linux build does.
terminal() {
	local want rc=0 lin=0
	want=$("$BIN" version)
	want=${want%% (*}
	"$BIN" lint nothing.json >/dev/null 2>&1 || lin=$?
	script -qec "wine '$TERMINAL' '$(wine winepath -w "$EXE" | tr -d '\r')' version" /dev/null >"$tmp/term.out" 2>&1 </dev/null || rc=$?
	[ "$rc" = 0 ] || { echo "exited $rc"; cat -A "$tmp/term.out"; return 1; }
	grep -qF "$want" <(tr -d '\r' <"$tmp/term.out") || { echo "not printed to the terminal: $want"; cat -A "$tmp/term.out"; return 1; }
	rc=0
	script -qec "wine '$TERMINAL' '$(wine winepath -w "$EXE" | tr -d '\r')' lint nothing.json" /dev/null >"$tmp/term.out" 2>&1 </dev/null || rc=$?
	[ "$rc" = "$lin" ] || { echo "lint of a missing file exited $rc, not $lin"; cat -A "$tmp/term.out"; return 1; }
	grep -q 'nothing.json' "$tmp/term.out" || { echo "its error was not printed"; cat -A "$tmp/term.out"; return 1; }
	echo "started without standard handles: version and an error printed to the console, the exit codes kept"
}

# --- the command line, against the Linux build

# version: the same release; the build details in parentheses (the commit
# go build stamps, the Go version) may differ between the two builds.
version() {
	local win lin
	win=$(wine "$EXE" version | tr -d '\r') || return 1
	lin=$("$BIN" version) || return 1
	[ "${win%% (*}" = "${lin%% (*}" ] || { echo "Windows says $win, Linux $lin"; return 1; }
	echo "both say ${win%% (*}"
}

lint() {
	: >"$tmp/stdin"
	same "a form's warnings" lint warn.json
	same "a fatal problem" lint -json fatal.json
}

validate() {
	: >"$tmp/stdin"
	same "valid content" validate -schema warn.json valid.json
	same "invalid content" validate -schema warn.json invalid.json
	cp "$tmp/work/invalid.json" "$tmp/stdin"
	same "content on standard input" validate -schema warn.json -
}

demo_server() {
	: >"$tmp/stdin"
	# Each build runs its own demo server: the Windows one a child process
	# of Wine's, on its standard input and output.
	(cd "$tmp/work" && wine "$EXE" tools -- "$EXE" demo-server) >"$tmp/win.out"
	(cd "$tmp/work" && "$BIN" tools -- "$BIN" demo-server) >"$tmp/lin.out"
	cmp "$tmp/win.out" "$tmp/lin.out"
	cp "$tmp/win.out" "$tmp/tools.out"
	echo "tools: $(grep -c '"name"' "$tmp/win.out") alike, the GUI exe's server on pipes"
}

# bare_name runs the demo server by its bare name, elicitdesk, as a host
# config names a command: found on the PATH with PATHEXT's .exe, then in
# the current folder, where it is not on the PATH.
bare_name() {
	local dir
	dir=$(dirname "$EXE")
	(cd "$tmp/work" && WINEPATH=$(wine winepath -w "$dir" | tr -d '\r') wine "$EXE" tools -- "$(basename "$EXE" .exe)" demo-server) >"$tmp/win.out"
	cmp "$tmp/win.out" "$tmp/tools.out" || { echo "not found on the PATH"; return 1; }
	(cd "$dir" && wine "$EXE" tools -- "$(basename "$EXE" .exe)" demo-server) >"$tmp/win.out"
	cmp "$tmp/win.out" "$tmp/tools.out" || { echo "not found in the current folder"; return 1; }
	echo "$(basename "$EXE" .exe): found on the PATH, and in the current folder"
}

call_defaults() {
	: >"$tmp/stdin"
	(cd "$tmp/work" && wine "$EXE" call -tool ask_every_field -answer defaults -- "$EXE" demo-server) >"$tmp/win.out" 2>"$tmp/win.err"
	(cd "$tmp/work" && "$BIN" call -tool ask_every_field -answer defaults -- "$BIN" demo-server) >"$tmp/lin.out" 2>"$tmp/lin.err"
	cmp "$tmp/win.out" "$tmp/lin.out"
	grep -q '"action": "accept"' "$tmp/win.out" || { cat "$tmp/win.out"; return 1; }
	echo "ask_every_field: the defaults accepted, the result as Linux's"
}

# --- unit tests

# unit_tests runs the test binaries of the packages WINE_TESTS names, each
# from its package's folder as go test does, and lists what they skip and
# why (test2json, as parallel subtests print out of order).
unit_tests() {
	local p json summary=""
	for p in ${WINE_TESTS:-}; do
		json=$tmp/$(basename "$p").json
		(cd "$ROOT/$p" && wine "$OUT/$(basename "$p").test.exe" -test.v=test2json -test.timeout 5m) 2>&1 |
			"${GO:-go}" tool test2json -p "$p" >"$json" || {
			jq -j 'select(.Action == "output") | .Output' "$json" | grep -E -B3 -A10 -- '--- FAIL|^panic' | head -n 80
			echo "$p: tests failed under Wine"
			return 1
		}
		jq -rs --arg p "$p" '
			(reduce (.[] | select(.Test)) as $e ({};
				if $e.Action == "output" then .[$e.Test].out += $e.Output
				elif ($e.Action | IN("pass", "fail", "skip")) then .[$e.Test].end = $e.Action
				else . end)) as $tests
			| ($tests | to_entries[] | select(.value.end == "skip")
				| "\($p): skipped \(.key): \(.value.out | split("\n") | map(select(test("_test.go:[0-9]+: "))) | first // "" | sub("^ *\\S+_test.go:[0-9]+: "; ""))"),
			  "\($p): \([$tests[] | select(.end == "pass")] | length) passed, \([$tests[] | select(.end == "skip")] | length) skipped"' "$json" >"$tmp/unit.txt"
		grep -v ' passed, ' "$tmp/unit.txt" || true
		summary+="$(grep ' passed, ' "$tmp/unit.txt"); "
	done
	echo "${summary%; }"
}

# --- the app

first_window() {
	wine "$EXE" >"$tmp/app.log" 2>&1 &
	started $!
	echo $! >"$tmp/app.pid"
	local w colors width height
	w=$(window '^Welcome ')
	settled "$w"
	timeout 10 import -window "$w" "$OUT/windows-welcome.png"
	read -r width height < <(xwininfo -id "$w" | awk '/Width:/ {w=$NF} /Height:/ {h=$NF} END {print w, h}')
	colors=$(convert "$OUT/windows-welcome.png" -format '%k' info:)
	echo "Welcome window $w: ${width}x${height}, $colors colours, in $OUT/windows-welcome.png"
	((width >= 400 && height >= 300)) || { echo "too small for the Welcome window"; return 1; }
	((colors >= 16)) || { echo "not drawn: $colors colours"; return 1; }
	click "$w" $((width - 40)) $((height - 30)) # Close
	until_true "$WAIT" sh -c "! xdotool search --onlyvisible --name '^Welcome ' | grep -q ."
}

endpoint() {
	wine "$EXE" call -tool ask_confirm -answer desk -server demo >"$tmp/call.out" 2>"$tmp/call.err" &
	local call=$! w
	started "$call"
	w=$(window '^demo: ') || { cat "$tmp/call.err"; return 1; }
	# The person ticks Confirm, which gives the form the keyboard, and
	# presses Enter. A request window answers nothing for its first
	# moments (app.GuardTime): Enter again until the call ends.
	settled "$w"
	click "$w" 22 150
	local deadline=$((SECONDS + WAIT))
	while kill -0 "$call" 2>/dev/null; do
		((SECONDS < deadline)) || { echo "the call still waits after ${WAIT}s"; return 1; }
		xdotool search --onlyvisible --name '^demo: ' >/dev/null 2>&1 && xdotool key Return
		sleep 0.3
	done
	wait "$call" || { cat "$tmp/call.err"; return 1; }
	grep -q '"confirm": true' "$tmp/call.out" || { cat "$tmp/call.out"; return 1; }
	echo "call -answer desk: Confirm ticked and Enter in the app's window, through the named pipe"
}

# keyboard_only answers a request without the mouse. Wine's window manager
# gives a new window the keyboard as it appears, within app.GuardTime, so
# switching to it changes nothing: the window holds typing, a key shows the
# line saying so, and F6, once that line has shown for app.GuardTime,
# starts typing. Space ticks Confirm and Enter accepts.
keyboard_only() {
	wine "$EXE" call -tool ask_confirm -answer desk -server demo >"$tmp/call.out" 2>"$tmp/call.err" &
	local call=$! w
	started "$call"
	w=$(window '^demo: ') || { cat "$tmp/call.err"; return 1; }
	settled "$w"
	xdotool windowactivate --sync "$w" 2>/dev/null || true # the person switches to it
	sleep 1                                                # past app.GuardTime
	xdotool key x
	sleep 1 # the line has shown for app.GuardTime
	timeout 10 import -window "$w" "$OUT/windows-typing-held.png"
	xdotool key F6 space Return
	until_true "$WAIT" sh -c "! kill -0 $call" || { echo "the call still waits after ${WAIT}s: keys did not reach the form"; return 1; }
	wait "$call" || { cat "$tmp/call.err"; return 1; }
	grep -q '"confirm": true' "$tmp/call.out" || { cat "$tmp/call.out"; return 1; }
	echo "a key showed that typing is held ($OUT/windows-typing-held.png); F6, Space and Enter accepted"
}

single_instance() {
	local rc=0
	timeout "$WAIT" wine "$EXE" >"$tmp/second.log" 2>&1 || rc=$?
	[ "$rc" = 0 ] || { echo "a second start exited $rc"; cat "$tmp/second.log"; return 1; }
	kill -0 "$(cat "$tmp/app.pid")" || { echo "the first app is gone"; return 1; }
	wine "$EXE" servers >"$tmp/servers.out"
	grep -q '^demo .*ready' "$tmp/servers.out" || { cat "$tmp/servers.out"; return 1; }
	echo "a second start left at once; the first still serves"
}

# bridge_pipes has a host, here elicitdesk's own call, start the GUI exe
# as a bridge on pipes, which reaches the running app and the demo server.
bridge_pipes() {
	(cd "$tmp/work" && wine "$EXE" tools -- "$EXE" bridge -- "$EXE" demo-server) >"$tmp/win.out"
	cmp "$tmp/win.out" "$tmp/tools.out"
	echo "tools through the bridge: $(grep -c '"name"' "$tmp/win.out"), as the server's own"
}

hosts_route() {
	local cfg=$profile/.cursor/mcp.json
	mkdir -p "$(dirname "$cfg")"
	cp "$DATA/cursor-mcp.json" "$cfg"
	wine "$EXE" hosts route cursor
	grep -q '"bridge"' "$cfg" || { echo "not routed:"; cat "$cfg"; return 1; }
	wine "$EXE" hosts unroute cursor
	cmp "$DATA/cursor-mcp.json" "$cfg"
	echo "route and unroute gave back the file byte for byte (CRLF and all)"
}

run_key_check() {
	! run_key || { echo "a Run value before launch at login was turned on"; return 1; }
	tray_item 140 # Launch at login, below Traffic…
	until_true 10 run_key || { echo "no Run value after launch at login was turned on"; return 1; }
	run_key | grep -qF "\"$(wine winepath -w "$EXE" | tr -d '\r')\"" || { run_key; echo "the Run value does not start this exe"; return 1; }
	tray_item 140
	until_true 10 sh -c '! wine reg query "HKCU\Software\Microsoft\Windows\CurrentVersion\Run" /v "Elicit Desk"' ||
		{ echo "the Run value stays after launch at login was turned off"; return 1; }
	echo "set and removed"
}

quit() {
	tray_item 209 # Quit
	until_true "$WAIT" sh -c "! kill -0 $(cat "$tmp/app.pid")" || { echo "still running"; return 1; }
	echo "quit from the tray menu"
}

mkdir -p "$OUT"
check "display" display
DISPLAY=:$(cat "$tmp/xvfb.ready" 2>/dev/null)
export DISPLAY
check "wine prefix" prefix
profile=$WINEPREFIX/drive_c/users/$(wine cmd /c 'echo %USERNAME%' | tr -d '\r')
check "GUI subsystem" subsystem
check "unit tests" unit_tests
check "version" version
check "terminal" terminal
check "lint" lint
check "validate" validate
check "demo-server" demo_server
check "bare command name" bare_name
check "call -answer defaults" call_defaults
check "first window" first_window
check "endpoint (call -answer desk)" endpoint
check "keyboard only" keyboard_only
check "single instance" single_instance
check "bridge on pipes" bridge_pipes
check "hosts route/unroute" hosts_route
check "Run key" run_key_check
check "quit" quit
exit $failed
