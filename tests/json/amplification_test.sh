#! /usr/bin/env atf-sh
# Small inputs that would take a large machine: an object of 5x10^7 repeated
# keys compressed by each codec, values nested deep under an unknown key, a
# long array under an unknown key. Each stays within the documented limits
# (README, "what tracelint promises"): a repeated key and an unknown key's
# value cost nothing (they are checked, not kept), so these are judged in a
# reader of 1 MiB; what the reader keeps is bounded by --max-memory (default
# 4 GiB) and, past 64 MiB, 1000 times the file as given, past which the file
# ends with TL-RESOURCE-LIMIT and exit 2, never an out-of-memory kill. Peak
# memory is measured with GNU time (%M, KiB); the sanitizer build adds its
# shadow memory to what is measured.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"

# repeated_keys N: a DCFG top level followed by N repetitions of one key
repeated_keys() {
	python3 -c '
import sys
n = int(sys.argv[1])
w = sys.stdout.buffer.write
w(b"{\"MAJOR_VERSION\":1,\"MINOR_VERSION\":0,")
chunk = b"\"A\":0," * 100000
for _ in range(n // 100000):
    w(chunk)
w(b"\"A\":0}")' "$1"
}

# cpu_seconds FILE: user plus system time from GNU time's -f '%U %S %M' (its
# last line); CPU time, since other tests share the machine
cpu_seconds() {
	tail -n 1 "$1" | awk '{ printf "%d", $1 + $2 }'
}
peak_kib() {
	tail -n 1 "$1" | cut -d ' ' -f 3
}

# the peak of a tiny valid DCFG: the program (and the sanitizer) alone
base_kib() {
	printf '{"MAJOR_VERSION":1,"MINOR_VERSION":0}' > tiny.dcfg.json
	/usr/bin/time -f '%U %S %M' -o base.time "$TL" tiny.dcfg.json > /dev/null
	peak_kib base.time
}

atf_test_case repeated_keys_compressed
repeated_keys_compressed_head() {
	atf_set "descr" "5x10^7 repeated keys compressed with zstd, gzip and bzip2 are judged (JSON-DUPLICATE-KEY, exit 1) in under 256 MB and 20 s of CPU: a repeat costs nothing, so 1 MiB of reader memory is enough"
	atf_set "require.progs" "python3 zstd gzip bzip2 /usr/bin/time"
	atf_set "timeout" "900"
}
repeated_keys_compressed_body() {
	repeated_keys 50000000 | zstd -q -19 -c > keys.dcfg.json.zst
	# gzip and bzip2 (bzip2 takes 300 s over these 300 MB of repeated text)
	# compress the three pieces of the same text once each, the middle one
	# repeated as members: the file decompresses to the same bytes (members
	# count as one file).
	printf '{"MAJOR_VERSION":1,"MINOR_VERSION":0,' > head.json
	python3 -c 'import sys; sys.stdout.buffer.write(b"\"A\":0," * 100000)' > body.json
	printf '"A":0}' > tail.json
	for codec in gzip:gz bzip2:bz2; do
		c=${codec%:*} f=keys.dcfg.json.${codec#*:}
		for part in head body tail; do $c -9 -c $part.json > $part.$c; done
		{ cat head.$c; i=0; while [ $i -lt 500 ]; do cat body.$c; i=$((i + 1)); done; cat tail.$c; } > $f
		[ "$($c -dc $f | wc -c)" -eq 300000043 ] || atf_fail "$f does not decompress to the 300000043-byte text"
	done
	for f in keys.dcfg.json.zst keys.dcfg.json.gz keys.dcfg.json.bz2; do
		atf_check -s exit:1 -o save:out -e ignore /usr/bin/time -f '%U %S %M' -o time "$TL" --max-memory=1M "$f"
		atf_check -o match:"^$f:1:[0-9]*: error: expected unique keys in an object, found key \"A\" again .*\[JSON-DUPLICATE-KEY\]" \
			-o match:"^$f: invalid \(dcfg: 50000000 errors" -o not-match:TL-RESOURCE-LIMIT cat out
		[ "$(peak_kib time)" -lt 262144 ] || atf_fail "$f: peak $(peak_kib time) KiB, over 256 MiB"
		[ "$(cpu_seconds time)" -lt 20 ] || atf_fail "$f: $(cpu_seconds time) s of CPU, over 20 s"
	done
}

atf_test_case max_memory_option
max_memory_option_head() {
	atf_set "descr" "--max-memory bounds the reader of an uncompressed file (10^6 distinct keys, which it keeps to find repeats): past it TL-RESOURCE-LIMIT and exit 2; 0 lifts it"
	atf_set "require.progs" "python3"
}
max_memory_option_body() {
	python3 -c '
import sys
w = sys.stdout.buffer.write
w(b"{\"MAJOR_VERSION\":1,\"MINOR_VERSION\":0")
w(b"".join(b",\"k%d\":0" % i for i in range(1000000)))
w(b"}")' > keys.dcfg.json
	atf_check -s exit:2 -o match:'within 16777216 bytes of reader memory \(--max-memory\).*\[TL-RESOURCE-LIMIT\]' \
		"$TL" --max-memory=16M keys.dcfg.json
	atf_check -s exit:0 -o match:'JSON-UNKNOWN-KEY' -o match:'keys.dcfg.json: valid' "$TL" --max-memory=0 keys.dcfg.json
	atf_check -s exit:0 -o ignore "$TL" keys.dcfg.json
	atf_check -s exit:2 -e match:"--max-memory needs a size" "$TL" --max-memory=lots keys.dcfg.json
}

atf_test_case unknown_values_bounded
unknown_values_bounded_head() {
	atf_set "descr" "values under an unknown top-level key, deep or long, are checked and not kept: 1 MiB of reader memory is enough, and the peak grows by less than the text's size"
	atf_set "require.progs" "python3 /usr/bin/time"
}
unknown_values_bounded_body() {
	# 4x10^6 values in arrays nested 1000 deep, then a flat array of 4x10^6 zeros
	python3 -c '
import sys
w = sys.stdout.buffer.write
w(b"{\"MAJOR_VERSION\":1,\"MINOR_VERSION\":0,\"DEEP\":[")
w(b",".join([b"[" * 1000 + b"0" + b"]" * 1000] * 4000))
w(b"],\"X\":[0" + b",0" * 3999999 + b"]}")' > unknown.dcfg.json
	base=$(base_kib)
	atf_check -s exit:0 -o match:'unknown key "DEEP"' -o match:'unknown key "X"' -o match:'unknown.dcfg.json: valid' \
		/usr/bin/time -f '%U %S %M' -o time "$TL" --max-memory=1M unknown.dcfg.json
	size=$(wc -c < unknown.dcfg.json)
	# the mapped text, and nothing a value
	[ "$(peak_kib time)" -lt $((base + size / 1024)) ] ||
		atf_fail "peak $(peak_kib time) KiB for $size bytes (program alone: $base KiB)"
	# still checked: a syntax error deep inside is found
	python3 -c '
import sys
sys.stdout.write("{\"MAJOR_VERSION\":1,\"MINOR_VERSION\":0,\"DEEP\":" + "[" * 1000 + "0," + "]" * 1000 + "}")' > bad.dcfg.json
	atf_check -s exit:1 -o match:'bad.dcfg.json:1:[0-9]*: error: expected a JSON value.*JSON-SYNTAX' "$TL" bad.dcfg.json
}

atf_test_case compressed_bombs
compressed_bombs_head() {
	atf_set "descr" "64 MiB of zeros named as an XRay trace, compressed by each codec, with the decompression floor lowered to 1 MiB: bzip2 and zstd stop at max(1 MiB, 2000 times the file) (exit 2), gzip, which cannot pass 2000 times, is read whole and judged (exit 1); none takes 64 MiB over the program alone"
	atf_set "require.progs" "gzip bzip2 zstd /usr/bin/time"
}
compressed_bombs_body() {
	head -c 67108864 /dev/zero > zeros
	gzip -9 -c zeros > zeros.xray.gz
	bzip2 -9 -c zeros > zeros.xray.bz2
	zstd -q -19 -c zeros > zeros.xray.zst
	rm zeros
	base=$(base_kib)
	export TRACELINT_DECOMPRESS_FLOOR=1048576
	for f in zeros.xray.gz zeros.xray.bz2 zeros.xray.zst; do
		given=$(wc -c < $f)
		limit=$((given * 2000 > 1048576 ? given * 2000 : 1048576))
		case $f in
		*.gz) atf_check -s exit:1 -o match:"^$f: invalid \\(xray: " /usr/bin/time -f '%U %S %M' -o time "$TL" $f ;;
		*) atf_check -s exit:2 -o match:"^$f: error: $f: decompressed data exceed $limit bytes \\(the limit for a compressed file of this size\\)" \
			/usr/bin/time -f '%U %S %M' -o time "$TL" $f ;;
		esac
		[ "$(peak_kib time)" -lt $((base + 65536)) ] ||
			atf_fail "$f: peak $(peak_kib time) KiB, the program alone $base KiB"
	done
}

atf_init_test_cases() {
	atf_add_test_case compressed_bombs
	atf_add_test_case repeated_keys_compressed
	atf_add_test_case max_memory_option
	atf_add_test_case unknown_values_bounded
}
