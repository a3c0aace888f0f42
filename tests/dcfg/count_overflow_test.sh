#! /usr/bin/env atf-sh
# INSTR_COUNT_PER_THREAD summed with overflow detection: a sum past
# 2^64 - 1 is a DCFG-INSTR-COUNT-SUM error at the thread where it passes,
# with or without INSTR_COUNT (it used to switch the rule off).

BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"

atf_test_case sum_past_2_64
sum_past_2_64_head() { atf_set "descr" "[2^64 - 1, 536] is reported, with and without INSTR_COUNT"; }
sum_past_2_64_body() {
	printf '{"MAJOR_VERSION":1,"MINOR_VERSION":0,"PROCESSES":[["PROCESS_ID","PROCESS_DATA"],[1,{"INSTR_COUNT":535,"INSTR_COUNT_PER_THREAD":[18446744073709551615,536]}]]}\n' > a.dcfg.json
	atf_check -s exit:1 \
		-o match:'a.dcfg.json:1:150: error: expected the sum of INSTR_COUNT_PER_THREAD \(the process.s INSTR_COUNT\) below 2\^64, found it past 2\^64 - 1 at thread 1 \(18446744073709551615 \+ 536\) at /PROCESSES/1/1/INSTR_COUNT_PER_THREAD/1 \[DCFG-INSTR-COUNT-SUM\]' \
		-o match:'invalid \(dcfg: 1 error, 0 warnings' "$TL" a.dcfg.json
	printf '{"MAJOR_VERSION":1,"MINOR_VERSION":0,"PROCESSES":[["PROCESS_ID","PROCESS_DATA"],[1,{"INSTR_COUNT_PER_THREAD":[9223372036854775808,1,9223372036854775807]}]]}\n' > b.dcfg.json
	atf_check -s exit:1 -o match:'at thread 2 \(9223372036854775809 \+ 9223372036854775807\).*\[DCFG-INSTR-COUNT-SUM\]' "$TL" b.dcfg.json
	# Exactly 2^64 - 1 is a sum like any other.
	printf '{"MAJOR_VERSION":1,"MINOR_VERSION":0,"PROCESSES":[["PROCESS_ID","PROCESS_DATA"],[1,{"INSTR_COUNT":18446744073709551615,"INSTR_COUNT_PER_THREAD":[18446744073709551614,1]}]]}\n' > c.dcfg.json
	atf_check -s exit:0 -o match:'c.dcfg.json: valid' "$TL" c.dcfg.json
}

atf_init_test_cases() {
	atf_add_test_case sum_past_2_64
}
