#!/bin/sh
# make-content.sh TRACELINT [FORMAT...]: writes the expected content of every
# valid case, `tracelint dump` with the case's .args and .env, as the sidecar
# <case>.content.expected (JSON Lines, the schema of tracelint(1), DUMP).
# Review `git diff corpus/` after running it: the sidecars are what a reader
# of the case must decode.
set -eu
tl=$1
shift
here=$(dirname "$0")
. "$here/cases.sh"
[ $# -gt 0 ] || set -- xray tfile dcfg dcfg-trace umtrace
status=0
for fmt; do
	for path in "$here/$fmt"/valid/*; do
		is_case "$path" || continue
		out=$path.content.expected
		if case_run "$tl" "$path" dump > "$out.tmp" 2> "$out.err"; then
			mv "$out.tmp" "$out"
		else
			echo "make-content.sh: $path: tracelint dump failed:" >&2
			cat "$out.err" >&2
			rm -f "$out.tmp"
			status=1
		fi
		rm -f "$out.err"
	done
done
exit $status
