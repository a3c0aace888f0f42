#!/bin/sh
# gdb's `target tfile` as a content reader for tracelint-conform --content:
#   tracelint-conform --format=tfile --content --reader='sh .../gdb-tfile-content.sh {}'
# Prints what gdb reads of the trace in the schema of tracelint dump (a
# header line and one "frame" line per frame: index and tracepoint, through
# gdb-frames.py next to this script) and exits 0 when gdb walked every frame,
# 1 with gdb's first error on stderr otherwise. The byte order comes from
# --endian= in $TRACELINT_CONFORM_ARGS (the case's .args sidecar).
set -u
file=${1:?usage: gdb-tfile-content.sh FILE}
case $file in /*) ;; *) file=$PWD/$file ;; esac
here=$(cd "$(dirname "$0")" && pwd)
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
rc=0
(cd "$dir" && ulimit -c 0 && WALK_PATH=$file gdb "$@" -x "$here/gdb-frames.py") > "$log" 2>&1 < /dev/null || rc=$?
grep '^{"kind"' "$log"
if [ "$rc" -gt 128 ]; then
	tail -n 3 "$log" >&2
	exit "$rc"
fi
if grep -q '^FRAMES-END ' "$log" && ! grep -q '^FRAMES-ERROR ' "$log"; then
	exit 0
fi
line=$(grep -m1 -e '^FRAMES-ERROR ' -e 'internal-error' "$log" || true)
[ -n "$line" ] || line="gdb ended without finishing the walk (status $rc): $(tail -n 1 "$log")"
echo "$line" >&2
exit 1
