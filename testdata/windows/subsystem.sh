#!/usr/bin/env bash
# testdata/windows/subsystem.sh EXE fails unless EXE is a Windows GUI
# program, which Windows starts without a console window: the Subsystem
# field of its PE optional header is 2 (3 is a console program). The PE
# header starts where the 32-bit value at 0x3c says; Subsystem is 92
# bytes in: the signature (4), the COFF header (20), then offset 68.
set -euo pipefail
exe=$1
[ "$(head -c 2 "$exe")" = MZ ] || { echo "$exe: not a Windows program" >&2; exit 1; }
pe=$(od -An -tu4 -j 60 -N 4 "$exe" | tr -d ' ')
[ "$(tail -c +$((pe + 1)) "$exe" | head -c 4 | od -An -c | tr -d ' ')" = 'PE\0\0' ] || { echo "$exe: no PE header" >&2; exit 1; }
subsystem=$(od -An -tu2 -j $((pe + 92)) -N 2 "$exe" | tr -d ' ')
case $subsystem in
2) echo "$(basename "$exe"): Windows GUI subsystem: no console window" ;;
3) echo "$(basename "$exe"): console subsystem: Windows opens a console window for it" >&2; exit 1 ;;
*) echo "$(basename "$exe"): subsystem $subsystem" >&2; exit 1 ;;
esac
