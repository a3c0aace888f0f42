#! /usr/bin/env atf-sh
# Parallel bzip2 keeps memory flat in --threads: blocks decoded ahead of the
# one being consumed wait in temporary files, and the workers' decoders fit
# a fixed budget. A run-heavy .bz2 (about 46 MB a block, ratio ~840, under
# the bomb limit) took 570 MB with --threads=64 and 10 MB with --threads=1.

BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"

atf_test_case run_heavy_blocks
run_heavy_blocks_head() {
	atf_set descr "--threads=64 on concatenated run-heavy bzip2 streams stays under 256 MB, with the output of --threads=1"
	atf_set timeout 900
	atf_set require.progs "python3"
}
run_heavy_blocks_body() {
	[ -x /usr/bin/time ] || atf_skip "no /usr/bin/time"
	# Runs of 259 bytes (the most bzip2's first run-length stage packs in 5)
	# of four values: each 900 KB block decodes to ~46 MB.
	python3 - <<'PY' || atf_fail "cannot write the case"
import bz2, random
random.seed(2)
data = b"".join(bytes([random.choice(b"ACGT")]) * 259 for _ in range(100_000_000 // 259))
open("heavy.bz2", "wb").write(bz2.compress(data, 9) * 3)
PY
	# The sanitizers' quarantine would hold freed blocks: keep it small, so
	# what is measured is what the decoder keeps.
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=8:detect_leaks=0"
	for t in 64 1; do
		/usr/bin/time -f %M -o rss-$t "$TL" --threads=$t --format=xray --max-errors=5 heavy.bz2 > out-$t 2>&1
		[ $? = 1 ] || atf_fail "--threads=$t: $(cat out-$t)"
	done
	atf_check cmp out-64 out-1
	rss=$(tail -1 rss-64)
	echo "peak RSS: --threads=64 $rss KB, --threads=1 $(tail -1 rss-1) KB"
	[ "$rss" -lt 262144 ] || atf_fail "--threads=64 took $rss KB"
}

atf_init_test_cases() {
	atf_add_test_case run_heavy_blocks
}
