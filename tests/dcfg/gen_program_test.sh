#! /usr/bin/env atf-sh
# corpus/dcfg/gen_program.py, the random program model: every pair it writes
# is valid DCFG and DCFG-trace and pairs cleanly, its sequences use every
# feature of the mini-language (repeat groups, nested ones, dictionary
# references, values that refer to other keys) and its DCFGs have loops
# nested in loops, several images and call bypass edges; and a one-number
# change to a generated pair is caught (so "valid" is not a skipped check).

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"
GEN="$SRCDIR/corpus/dcfg/gen_program.py"

# gen SEED ROUTINES IMAGES THREADS BUDGET CHUNK: writes p$SEED.dcfg.json / .trace.json
gen() {
	atf_check -s exit:0 -e match:'edges walked' python3 "$GEN" --seed "$1" --routines "$2" --images "$3" \
		--threads "$4" --budget "$5" --chunk "$6" "p$1.dcfg.json" "p$1.trace.json"
}

atf_test_case valid_pairs_from_random_programs
valid_pairs_from_random_programs_head() {
	atf_set "descr" "twelve programs of different shapes give valid, cleanly paired DCFG and DCFG-trace files"
}
valid_pairs_from_random_programs_body() {
	for s in 1 2 3 4 5 6 7 8 9 10 11 12; do
		gen "$s" $((s * 9)) $((s % 4 + 1)) $((s % 3 + 1)) $((s * 2500)) $((s * 250 + 50))
		atf_check -s exit:0 -o match:'valid \(dcfg: 0 errors, 0 warnings' "$TL" "p$s.dcfg.json"
		atf_check -s exit:0 -o match:'valid \(dcfg-trace: 0 errors, 0 warnings; .*; paired with' \
			"$TL" --pair="p$s.dcfg.json" "p$s.trace.json"
	done
}

atf_test_case every_feature_is_used
every_feature_is_used_head() {
	atf_set "descr" "across six seeds: nested repeats, dictionary references and nested values, nested loops, images, bypass edges"
}
every_feature_is_used_body() {
	for s in 1 2 3 4 5 6; do
		gen "$s" 40 3 2 20000 1500
	done
	atf_check -s exit:0 -o inline:'nested-groups references nested-values chunks loops nested-loops images bypass\n' python3 - <<'PY'
import json, re
seen = set()
for s in range(1, 7):
    t = json.load(open("p%d.trace.json" % s))["PROCESSES"][1]
    seqs = [c[4] for th in t[3][1:] for c in th[1][1:]]
    if any(re.search(r"\(\d+\*[^()]*\(", q) for q in seqs):
        seen.add("nested-groups")
    if any("<" in q for q in seqs):
        seen.add("references")
    if any("<" in v for v in t[1].values()):
        seen.add("nested-values")
    if len(seqs) > 2:
        seen.add("chunks")
    d = json.load(open("p%d.dcfg.json" % s))["PROCESSES"][1][1]
    if len(d["IMAGES"]) > 2:
        seen.add("images")
    for img in d["IMAGES"][1:]:
        for r in img[3]["ROUTINES"][1:]:
            if len(r) > 3:
                seen.add("loops")
                if any(row[3] for row in r[3][1:]):
                    seen.add("nested-loops")
    bypass = [row[0] for row in json.load(open("p%d.dcfg.json" % s))["EDGE_TYPES"][1:] if row[1] == "CALL_BYPASS"][0]
    if any(e[3] == bypass and not any(e[4]) for e in d["EDGES"][1:]):
        seen.add("bypass")
order = "nested-groups references nested-values chunks loops nested-loops images bypass".split()
print(" ".join(x for x in order if x in seen))
PY
}

atf_test_case changes_are_caught
changes_are_caught_head() {
	atf_set "descr" "one changed count in a generated pair is reported with the rule that owns it"
}
changes_are_caught_body() {
	gen 3 30 2 2 9000 800
	# a block's COUNT one higher than its in-edges
	python3 - <<'PY'
import json
d = json.load(open("p3.dcfg.json"))
d["PROCESSES"][1][1]["IMAGES"][1][3]["BASIC_BLOCKS"][3][5] += 1
json.dump(d, open("count.dcfg.json", "w"))
t = json.load(open("p3.trace.json"))
t["PROCESSES"][1][3][1][1][1][1] += 1   # thread 0, first chunk, INSTR_COUNT
json.dump(t, open("instr.trace.json", "w"))
PY
	atf_check -s exit:0 -o match:'DCFG-BLOCK-COUNT' "$TL" count.dcfg.json
	atf_check -s not-exit:0 -o match:'PAIR-INSTR-COUNT' "$TL" --pair=p3.dcfg.json instr.trace.json
}

atf_test_case wide_dispatch_pairs
wide_dispatch_pairs_head() {
	atf_set "descr" "interpreter loops around 16-, 64- and 256-way switches (uniform and skewed) give valid, cleanly paired files whose widest transition state has that many codes"
}
wide_dispatch_pairs_body() {
	for w in 16 64 256; do
		for skew in "" --dispatch-skew; do
			atf_check -s exit:0 -e match:'edges walked' python3 "$GEN" --seed 2 --routines 5 --images 1 --threads 1 \
				--budget 2000 --chunk 1000 --dispatch "$w" $skew --dispatch-trips 3000 d.dcfg.json d.trace.json
			atf_check -s exit:0 -o match:'valid \(dcfg: 0 errors, 0 warnings' "$TL" d.dcfg.json
			atf_check -s exit:0 -o match:'valid \(dcfg-trace: 0 errors, 0 warnings; .*; paired with' \
				"$TL" --pair=d.dcfg.json d.trace.json
			widest=$(python3 -c 'import collections, json, sys
t = json.load(open(sys.argv[1]))["PROCESSES"][1][2][1:]
print(max(collections.Counter(r[0] for r in t).values()))' d.trace.json)
			# a skewed choice leaves cold cases unexecuted
			want=$((w * 3 / 4))
			[ -z "$skew" ] || want=$((w / 2))
			[ "$widest" -ge "$want" ] || atf_fail "$w-way$skew: widest state has $widest codes"
		done
	done
}

atf_init_test_cases() {
	atf_add_test_case wide_dispatch_pairs
	atf_add_test_case valid_pairs_from_random_programs
	atf_add_test_case every_feature_is_used
	atf_add_test_case changes_are_caught
}
