#!/bin/sh
# gdb's `target tfile` as a reader for tracelint-conform:
#   tracelint-conform --format=tfile --reader='sh .../gdb-tfile.sh {}'
# Opens FILE in gdb (batch mode, no executable) and walks every trace frame
# with corpus/tfile/gdb/walk.py (tfind start, tfind ... each frame's $pc and
# a memory probe), so every block of the file is read. The byte order comes
# from --endian= in $TRACELINT_CONFORM_ARGS (the case's .args sidecar).
# Exit 0: gdb opened the file and walked all frames. Exit 1: gdb reported an
# error; its first line goes to stderr. A gdb internal error is re-raised as
# SIGABRT, since gdb abandons the session there; a gdb killed by a signal is
# reported as 128+signal.
set -u
file=${1:?usage: gdb-tfile.sh FILE}
case $file in /*) ;; *) file=$PWD/$file ;; esac
here=$(cd "$(dirname "$0")" && pwd)
walker=${TRACELINT_GDB_WALKER:-}
for w in "$here/../../../corpus/tfile/gdb/walk.py" "$here/../corpus/tfile/gdb/walk.py"; do
	[ -n "$walker" ] || [ ! -f "$w" ] || walker=$w
done
[ -n "$walker" ] || { echo "gdb-tfile.sh: corpus/tfile/gdb/walk.py not found (set TRACELINT_GDB_WALKER)" >&2; exit 2; }

endian=
case " ${TRACELINT_CONFORM_ARGS:-} " in
*" --endian=big "*) endian=big ;;
*" --endian=little "*) endian=little ;;
esac

log=$(mktemp) || exit 2
dir=$(mktemp -d) || exit 2
trap 'rm -rf "$log" "$dir"' EXIT
set -- -batch -nx -iex 'maint set internal-error corefile no' -iex 'maint set internal-error quit yes'
[ -z "$endian" ] || set -- "$@" -ex "set endian $endian"
# gdb runs in a scratch directory: a core dump or history file stays out of the caller's.
rc=0
(cd "$dir" && ulimit -c 0 && WALK_PATH=$file gdb "$@" \
	-ex "python path = __import__('os').environ['WALK_PATH']" -x "$walker") > "$log" 2>&1 < /dev/null || rc=$?

if grep -q 'internal-error' "$log"; then
	grep -m1 'internal-error' "$log" >&2
	kill -s ABRT $$
fi
if [ "$rc" -gt 128 ]; then
	tail -n 3 "$log" >&2
	exit "$rc"
fi
if grep -q '^WALK-END ' "$log" && ! grep -q -e '^WALK-ERROR ' -e '^WALK-OPEN-ERROR ' "$log"; then
	grep -m1 '^WALK-END ' "$log"
	exit 0
fi
line=$(grep -m1 -e '^WALK-OPEN-ERROR ' -e '^WALK-ERROR ' "$log" || true)
[ -n "$line" ] || line="gdb ended without finishing the walk (status $rc): $(tail -n 1 "$log")"
echo "$line" >&2
exit 1
