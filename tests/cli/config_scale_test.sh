#! /usr/bin/env atf-sh
# Config handling is linear: [path] sections are found by name through an
# index (100,000 distinct sections used to take 30 s), and a long rule list
# is checked pattern by pattern and resolved per file in time linear in its
# length (a 792 KB list took 38 s for one file, 339 s for 21).

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"
C="$SRCDIR/corpus"

# seconds_of COMMAND...: runs it; its wall time in milliseconds goes to ms.
timed() {
	start=$(date +%s%N)
	"$@"
	rc=$?
	echo $(( ($(date +%s%N) - start) / 1000000 )) > ms
	return $rc
}

atf_test_case many_path_sections
many_path_sections_head() { atf_set "descr" "100,000 [path] sections are read and applied in linear time"; atf_set timeout 300; }
many_path_sections_body() {
	mkdir -p repo/.git repo/dir99999
	cp "$C/xray/invalid/metadata-kind.xray" repo/dir99999/bad.xray
	awk 'BEGIN { for (i = 0; i < 100000; i++) printf "[path \"dir%d/*.xray\"]\nwarning = XRAY-FDR-METADATA-KIND\n", i }' > repo/.tracelint.ini
	# The last section applies, so every one was read.
	timed "$TL" repo/dir99999/bad.xray > out 2>&1 || atf_fail "exit $rc: $(cat out)"
	grep -q 'warning: .*XRAY-FDR-METADATA-KIND' out || atf_fail "$(cat out)"
	# ~0.3 s optimised, ~2 s under the sanitizers; it took 30 s optimised.
	[ "$(cat ms)" -lt 15000 ] || atf_fail "100,000 sections took $(cat ms) ms"
}

atf_test_case long_rule_list
long_rule_list_head() { atf_set "descr" "a 792 KB rule list over 21 files is linear in the list"; atf_set timeout 300; }
long_rule_list_body() {
	mkdir -p repo/.git repo/traces
	for i in $(seq 1 21); do cp "$C/xray/invalid/metadata-kind.xray" repo/traces/bad$i.xray; done
	"$TL" --list-rules | awk '$1 ~ /^[A-Z0-9]+-[A-Z0-9-]+$/ { print $1 }' > ids
	[ "$(wc -l < ids)" -gt 100 ] || atf_fail "no rule list: $(head ids)"
	# Every ID as a warning, over and over, to 792 KB; the last line turns one back to an error.
	awk 'BEGIN { print "[tracelint]" } { id[n++] = $1 } END { s = 0; for (i = 0; s < 792000; i++) { l = "warning = " id[i % n]; print l; s += length(l) + 1 } print "error = XRAY-FDR-METADATA-KIND" }' ids > repo/.tracelint.ini
	timed "$TL" repo/traces > out 2>&1
	[ "$rc" = 1 ] || atf_fail "exit $rc: $(tail -3 out)"
	[ "$(grep -c 'error: .*XRAY-FDR-METADATA-KIND' out)" = 21 ] || atf_fail "$(tail -5 out)"
	# ~0.2 s optimised, ~2 s under the sanitizers; it took 339 s optimised.
	[ "$(cat ms)" -lt 20000 ] || atf_fail "21 files took $(cat ms) ms"
}

atf_init_test_cases() {
	atf_add_test_case many_path_sections
	atf_add_test_case long_rule_list
}
