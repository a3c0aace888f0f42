#! /usr/bin/env atf-sh
# Small inputs that would take a large machine: an object of 5x10^7 repeated
# keys compressed by each codec, values nested deep under an unknown key, a
# long array under an unknown key. Each stays within the documented limits
# (README, "what tracelint promises"): the reader holds at most --max-memory
# (default 4 GiB) and, past 64 MiB, at most 1000 times the file as given;
# past either the file ends with TL-RESOURCE-LIMIT and exit 2, never an
# out-of-memory kill. Peak memory is measured with GNU time (%M, KiB); the
# sanitizer build adds its shadow memory to what is measured.

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

# peak_kib FILE, seconds FILE: what GNU time wrote with -f '%e %M' (its last
# line; a line before it says when the status was not 0)
peak_kib() {
	tail -n 1 "$1" | cut -d ' ' -f 2
}
seconds() {
	tail -n 1 "$1" | cut -d ' ' -f 1
}

atf_test_case repeated_keys_compressed
repeated_keys_compressed_head() {
	atf_set "descr" "5x10^7 repeated keys compressed with zstd, gzip and bzip2 end with TL-RESOURCE-LIMIT (exit 2) within the amplification limit; the zstd file under 256 MB and 20 s"
	atf_set "require.progs" "python3 zstd gzip bzip2 /usr/bin/time"
	atf_set "timeout" "600"
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
		atf_check -s exit:2 -o save:out -e save:time /usr/bin/time -f '%e %M' timeout 120 "$TL" "$f"
		atf_check -o match:"^$f:1:[0-9]*: error: expected a JSON document within [0-9]* bytes of reader memory \\(1000 times the file's size as given, past 64 MiB\\).*\\[TL-RESOURCE-LIMIT\\]" \
			-o match:"^$f: error: cannot validate $f: it needs more memory than allowed \\(amplification limit\\)" cat out
		given=$(wc -c < "$f")
		limit=$((given * 1000 > 67108864 ? given * 1000 : 67108864))
		# the reader's limit, and 256 MiB for the program, the decompressor, the
		# sanitizer and an array's old copy while it grows
		[ "$(peak_kib time)" -lt $(((limit + 268435456) / 1024)) ] ||
			atf_fail "$f: peak $(peak_kib time) KiB, over $(((limit + 268435456) / 1024)) KiB"
	done
	atf_check -s exit:2 -o ignore -e save:time /usr/bin/time -f '%e %M' "$TL" keys.dcfg.json.zst
	[ "$(peak_kib time)" -lt 262144 ] || atf_fail "zstd: peak $(peak_kib time) KiB, over 256 MiB"
	s=$(seconds time)
	[ "${s%.*}" -lt 20 ] || atf_fail "zstd: $s s, over 20 s"
}

atf_test_case max_memory_option
max_memory_option_head() {
	atf_set "descr" "--max-memory bounds the reader of an uncompressed file: past it TL-RESOURCE-LIMIT and exit 2; 0 lifts it"
	atf_set "require.progs" "python3 /usr/bin/time"
}
max_memory_option_body() {
	repeated_keys 2000000 > keys.dcfg.json
	atf_check -s exit:2 -o match:'within 16777216 bytes of reader memory \(--max-memory\).*\[TL-RESOURCE-LIMIT\]' \
		-e save:time /usr/bin/time -f '%e %M' "$TL" --max-memory=16M keys.dcfg.json
	atf_check -s exit:1 -o match:'JSON-DUPLICATE-KEY' -o match:'keys.dcfg.json: invalid' "$TL" --max-memory=0 keys.dcfg.json
	atf_check -s exit:1 -o ignore "$TL" keys.dcfg.json
	atf_check -s exit:2 -e match:"--max-memory needs a size" "$TL" --max-memory=lots keys.dcfg.json
}

atf_test_case unknown_values_bounded
unknown_values_bounded_head() {
	atf_set "descr" "values under an unknown key, deep or long, cost at most the documented bytes a byte of text (27 at the peak)"
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
	atf_check -s exit:0 -o match:'unknown key "DEEP"' -o match:'unknown key "X"' -o match:'unknown.dcfg.json: valid' \
		-e save:time /usr/bin/time -f '%e %M' "$TL" unknown.dcfg.json
	size=$(wc -c < unknown.dcfg.json)
	# 27 bytes a byte, and 192 MiB for the program and the sanitizer
	[ "$(peak_kib time)" -lt $(((size * 27 + 201326592) / 1024)) ] ||
		atf_fail "peak $(peak_kib time) KiB for $size bytes"
}

atf_init_test_cases() {
	atf_add_test_case repeated_keys_compressed
	atf_add_test_case max_memory_option
	atf_add_test_case unknown_values_bounded
}
