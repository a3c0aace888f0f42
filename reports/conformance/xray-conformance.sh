#!/bin/sh
# Runs tracelint and llvm-xray 14 (fdr-dump --verify, convert) on every XRay
# corpus case and prints one Markdown table row per case:
#   | case | corpus verdict | tracelint | fdr-dump --verify | convert | first llvm-xray message |
# Usage: xray-conformance.sh TRACELINT  (from the repository root)
set -u
tl=$1
for f in corpus/xray/valid/* corpus/xray/invalid/*; do
	case "$f" in *.expected | *.args | *.md) continue ;; esac
	dir=$(basename "$(dirname "$f")")
	args=""
	[ -f "$f.args" ] && args=$(cat "$f.args")
	if "$tl" -q $args "$f" > /dev/null 2>&1; then ours=valid; else ours=invalid; fi
	if llvm-xray fdr-dump --verify "$f" > /dev/null 2> /tmp/xray-conf.$$; then
		dump=accepts
	else
		dump=rejects
	fi
	msg=$(head -n 1 /tmp/xray-conf.$$ | sed 's/|/\\|/g' | cut -c1-90)
	if llvm-xray convert --output-format=yaml "$f" > /dev/null 2> /tmp/xray-conf.$$; then
		conv=accepts
	else
		conv=rejects
		[ -n "$msg" ] || msg=$(head -n 1 /tmp/xray-conf.$$ | sed 's/|/\\|/g' | cut -c1-90)
	fi
	echo "| $(basename "$f") | $dir | $ours | $dump | $conv | ${msg:--} |"
done
rm -f /tmp/xray-conf.$$
