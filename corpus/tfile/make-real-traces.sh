#!/bin/sh
# Makes the real trace files of corpus/tfile/valid/gdb-*.tf with gdb and
# gdbserver on this machine: compiles gdb/work.c (gcc -g -O0) in a temp
# directory, and for each gdb/<case>.gdb starts gdbserver on a free loopback
# port, lets gdb run the inferior to main, plays the case's tracepoint
# commands (trace/actions/tstart/continue/tstop) and saves the buffer with
# tsave into valid/gdb-<case>.tf. Then writes two big-endian copies with
# gdb/byteswap.py: gdb-tsv-be.tf (auto-detected) and gdb-locals-be.tf (with a
# .args file forcing --endian=big; it has R blocks, whose payload stays as is).
#
# The committed files were made by GNU gdb (Debian 13.1-3) 13.1 and
# GNU gdbserver (Debian 13.1-3) 13.1 on x86-64 Linux. Re-running the script
# rewrites them (timestamps and addresses may differ).
#
# What the real files show beyond the manual (checked when they were made):
# - every file starts with gdbserver's target description (240 tdesc lines,
#   about 15 KB, the first one "tdesc " with an empty payload);
# - gdb-circular.tf: the wrapped buffer saves fewer frames than its status
#   says (tframes:12 = 18, tcreated:28 = 40, 15 frames in the file) and the
#   end marker is followed by 74 more zero bytes (78 zeros in all), not 2;
#   its M blocks hold the counter after hits 21..35 of 0..39, while the
#   newest 18 hits are 22..39: the copy is not the buffer's live frames;
# - gdb-full.tf: a 200-byte buffer; the 2416-byte R block never fits, so
#   gdbserver drops it and its frames hold only the two 4-byte M blocks,
#   although the tracepoint collects registers (tp A ...:R40);
# - gdb-large-memory.tf: one 100000-byte collection saved as two M blocks,
#   65535 + 34465 bytes;
# - gdb-notes.tf: the stop note keeps the quotes typed to tstop.
#
# Usage: corpus/tfile/make-real-traces.sh [CASE...]   (default: every case)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
valid=$here/valid
cases=${*:-$(cd "$here/gdb" && ls *.gdb | sed 's/\.gdb$//')}

for tool in gcc gdb gdbserver python3; do
	command -v "$tool" > /dev/null || { echo "make-real-traces: $tool not found" >&2; exit 1; }
done

tmp=$(mktemp -d)
server=
cleanup() {
	[ -z "$server" ] || kill "$server" 2> /dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

gcc -g -O0 -o "$tmp/work" "$here/gdb/work.c"
mkdir -p "$valid"

# Runs one case; the inferior's argument comes from a "# args: N" line.
make_trace() {
	name=$1
	script=$here/gdb/$name.gdb
	out=$valid/gdb-$name.tf
	args=$(sed -n 's/^# args: //p' "$script")
	rm -f "$out" "$tmp/server.log"
	# Port 0: gdbserver picks a free port and prints it.
	gdbserver --once 127.0.0.1:0 "$tmp/work" $args > "$tmp/server.log" 2>&1 &
	server=$!
	port=
	tries=0
	while [ -z "$port" ] && [ $tries -lt 50 ]; do
		sleep 0.1
		port=$(sed -n 's/^Listening on port //p' "$tmp/server.log")
		tries=$((tries + 1))
	done
	[ -n "$port" ] || { echo "make-real-traces: gdbserver did not start" >&2; cat "$tmp/server.log" >&2; exit 1; }
	# The prelude sets breakpoints 1 (main) and 2 (done): tracepoints of a
	# case are numbered from 3. tsave runs even if the case's last command
	# failed (e.g. tstop after the run stopped itself).
	timeout 60 gdb -batch -nx \
		-ex 'set pagination off' -ex 'set confirm off' -ex 'set sysroot /' \
		-ex "target remote 127.0.0.1:$port" \
		-ex 'break main' -ex 'continue' -ex 'break done' \
		-x "$script" \
		-ex 'tstatus' -ex "tsave $out" -ex 'kill' \
		"$tmp/work" > "$tmp/gdb.log" 2>&1 || true
	wait "$server" 2> /dev/null || true
	server=
	if [ ! -s "$out" ]; then
		echo "make-real-traces: $name: gdb wrote no trace file" >&2
		cat "$tmp/gdb.log" >&2
		exit 1
	fi
	echo "gdb-$name.tf: $(wc -c < "$out") bytes; $(grep -E '^Collected|^Trace stopped|^No trace' "$tmp/gdb.log" | tr '\n' ' ')"
}

for name in $cases; do
	make_trace "$name"
done

# Big-endian copies: one left to auto-detection, one with the order forced.
if [ -f "$valid/gdb-tsv.tf" ]; then
	python3 "$here/gdb/byteswap.py" "$valid/gdb-tsv.tf" "$valid/gdb-tsv-be.tf"
	echo "gdb-tsv-be.tf: $(wc -c < "$valid/gdb-tsv-be.tf") bytes (big-endian copy, auto)"
fi
if [ -f "$valid/gdb-locals.tf" ]; then
	python3 "$here/gdb/byteswap.py" "$valid/gdb-locals.tf" "$valid/gdb-locals-be.tf"
	echo '--endian=big' > "$valid/gdb-locals-be.tf.args"
	echo "gdb-locals-be.tf: $(wc -c < "$valid/gdb-locals-be.tf") bytes (big-endian copy, --endian=big)"
fi
