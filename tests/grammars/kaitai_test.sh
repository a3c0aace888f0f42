#! /usr/bin/env atf-sh
# The Kaitai Struct grammars of grammars/ compile cleanly with the reference
# compiler, parse every valid corpus case of their format to the last byte,
# reject exactly the invalid cases that break a rule their <format>.rules list
# names (and parse the others), and read records of the sizes the validators
# hard-code.

SRCDIR='@SRCDIR@'
G="$SRCDIR/grammars"
CHECK="$G/ksy-check.js"

# Skips only when the toolchain is truly absent; `make deps` installs it.
need_compiler() {
	command -v node >/dev/null 2>&1 || atf_skip "node is not installed (make deps installs it)"
	[ -d "$G/node_modules/kaitai-struct-compiler" ] ||
		atf_skip "grammars/node_modules lacks kaitai-struct-compiler (run make deps)"
}

compile() {
	node "$CHECK" compile out "$@" > compile.log 2>&1 || { cat compile.log; atf_fail "compiling $* failed or warned"; }
}

# Case files of a corpus directory, decompressed into ./cases when compressed.
cases() {
	mkdir -p cases
	for f in "$1"/*; do
		case "$f" in
		*.expected|*.args|*.md|*/README*) continue ;;
		*.zst) zstd -dcq "$f" > "cases/$(basename "$f" .zst)" && echo "cases/$(basename "$f" .zst)" ;;
		*.gz) gzip -dc "$f" > "cases/$(basename "$f" .gz)" && echo "cases/$(basename "$f" .gz)" ;;
		*.bz2) bzip2 -dc "$f" > "cases/$(basename "$f" .bz2)" && echo "cases/$(basename "$f" .bz2)" ;;
		*.xz) xz -dc "$f" > "cases/$(basename "$f" .xz)" && echo "cases/$(basename "$f" .xz)" ;;
		*) [ -f "$f" ] && echo "$f" ;;
		esac
	done
}

# parse_xray LIST: LIST has one line "FILE ORIGINAL" per case; prints one line
# per case, in order, "ok FILE" or "fail FILE: why". One node process parses
# them all (a process a case was most of this test's time).
parse_xray() {
	[ -s "$1" ] || return 0
	node "$CHECK" parse out xray -- $(cut -d' ' -f1 "$1")
}

# parse_tfile LIST: the same for tfile. The byte order is the case's --endian,
# else either order (as tracelint detects it): a case the first order fails
# is tried in the other, and the last try's line is the case's; the R size
# is the R line's.
parse_tfile() {
	[ -s "$1" ] || return 0
	: > tfile.try1
	: > tfile.try2
	while read -r f orig; do
		args="$orig.args"
		r=$(sed -n '2,/^$/s/^R \([0-9a-fA-F]\{1,8\}\)\r\{0,1\}$/\1/p' "$f" | head -1)
		r=$((0x${r:-0}))
		first=false second=true
		if [ -f "$args" ]; then
			grep -qx -- '--endian=big' "$args" && first=true second=
			grep -qx -- '--endian=little' "$args" && first=false second=
		fi
		echo "$f is_be=$first len_registers=$r" >> tfile.try1
		[ -z "$second" ] || echo "$f is_be=$second len_registers=$r" >> tfile.try2
	done < "$1"
	node "$CHECK" parse-each out tfile tfile.try1 > tfile.res1
	: > tfile.res2
	[ ! -s tfile.try2 ] || node "$CHECK" parse-each out tfile tfile.try2 > tfile.res2
	# A case's line: its first try when that parsed or it has no second,
	# else its second try.
	awk 'FILENAME == ARGV[1] { f = $2; sub(/:$/, "", f); second[f] = $0; next }
		{ f = $2; sub(/:$/, "", f) }
		$1 == "ok" || !(f in second) { print; next }
		{ print second[f] }' tfile.res2 tfile.res1
}

# UMTracer member files that have a grammar.
UMT_MEMBERS="thread address_space module ins context_map"

# umt_files DIR...: the member files with a grammar in each trace directory.
umt_files() {
	for d in "$@"; do
		d=${d%/}
		for m in $UMT_MEMBERS; do
			[ -f "$d/$m.itable" ] && echo "$d/$m.itable"
		done
	done
}

# The offset-linked UMTracer member files: each has a grammar of its own, and
# what it needs of another file comes in as parameters (a header's RecordCount,
# a file size) or, for the records of the .vtable files, as the pieces their
# offsets file cuts.
UMT_LINKED="exec.vtable exec.offsets exec.prev_next.column syscall.vtable syscall.offsets"

# i64_at8 FILE: the little-endian i64 at byte 8 (a .vtable header's RecordCount).
i64_at8() {
	od -An -t d8 -j 8 -N 8 "$1" | tr -d ' '
}

# umt_linked DIR...: one line per offset-linked member file of each trace
# directory, "ok FILE", "fail FILE: why", or "skip FILE" when the file it takes
# its parameters from does not parse (the validator skips it too: a header
# that fails stops every check that points through it). A .vtable file fails
# when its header does, or when exec.offsets (syscall.offsets) parses and one
# of the pieces it cuts fails the record type (exec_rec, syscall_rec).
umt_linked() {
	for t in exec syscall; do
		for d in "$@"; do
			d=${d%/}
			[ -f "$d/$t.vtable" ] && echo "$d/$t.vtable"
		done > $t.vt
		: > $t.vt.res
		[ -s $t.vt ] && node "$CHECK" parse out ${t}_vtable -- $(cat $t.vt) > $t.vt.res
		: > $t.of.list; : > $t.pn.list
		for v in $(sed -n 's/^ok //p' $t.vt.res); do
			d=${v%/*} n=$(i64_at8 "$v") s=$(wc -c < "$v")
			[ -f "$d/$t.offsets" ] && echo "$d/$t.offsets n=$n s=$s" >> $t.of.list
			[ $t = exec ] && [ -f "$d/exec.prev_next.column" ] && echo "$d/exec.prev_next.column n=$n" >> $t.pn.list
		done
		node "$CHECK" parse-each out ${t}_offsets $t.of.list > $t.of.res
		: > $t.pn.res
		[ $t = exec ] && node "$CHECK" parse-each out exec_prev_next_column $t.pn.list > $t.pn.res
		: > $t.rec.res
		pairs=$(sed -n "s|^ok \(.*\)/$t\.offsets\$|\1/$t.offsets \1/$t.vtable|p" $t.of.res)
		if [ $t = exec ]; then kind=ends; else kind=pairs; fi
		[ -n "$pairs" ] && node "$CHECK" slices out ${t}_vtable ${t}_rec $kind -- $pairs > $t.rec.res
		# A piece that fails makes its .vtable fail.
		awk 'NR == FNR { if ($1 == "fail") { f = $2; sub(/:$/, "", f); bad[f] = $0 }; next }
			$1 == "ok" && ($2 in bad) { print bad[$2]; next } { print }' $t.rec.res $t.vt.res
		cat $t.of.res $t.pn.res
	done > linked.res
	for d in "$@"; do
		d=${d%/}
		for m in $UMT_LINKED; do
			[ -f "$d/$m" ] && echo "$d/$m"
		done
	done > linked.files
	# Each file's result lines, in the order they came, or "skip FILE".
	awk 'FILENAME == "linked.res" {
		if ($1 != "ok" && $1 != "fail") next
		f = $2; sub(/:$/, "", f)
		if (f in lines) lines[f] = lines[f] "\n" $0
		else lines[f] = $0
		next
	}
	{ print (($0 in lines) ? lines[$0] : "skip " $0) }' linked.res linked.files
}

# expect_valid ID MIN DIR: every case in DIR parses.
expect_valid() {
	id=$1 min=$2 dir=$3
	cases "$dir" > list
	n=$(wc -l < list)
	[ "$n" -ge "$min" ] || atf_fail "only $n cases in $dir"
	for f in $(cat list); do
		echo "$f $dir/$(basename "$f")"
	done > parse.list
	parse_$id parse.list > result 2>&1
	if grep -v '^ok ' result; then
		atf_fail "the $id grammar rejects valid cases"
	fi
	[ "$(grep -c '^ok ' result)" -eq "$n" ] || { cat result; atf_fail "not every case was parsed"; }
}

# expect_verdicts ID RULES DIR: an invalid case fails to parse exactly when
# one of its errors is a rule listed in RULES.
expect_verdicts() {
	id=$1 rules=$2 dir=$3
	grep -v '^#' "$rules" | sed '/^$/d' > rules
	[ -s rules ] || atf_fail "$rules lists no rule"
	: > parse.list
	: > wants
	for f in $(cases "$dir"); do
		orig="$dir/$(basename "$f")"
		[ -f "$orig.expected" ] || orig="$(ls "$orig".* | grep -v '\.expected$' | head -1)"
		# Reporting stopped early: the case's full list of errors is unknown.
		grep -qs -- '--max-errors' "$orig.args" && continue
		errors=$(sed -e 's/#.*//' "$orig.expected" | awk '$2 == "error" { print $3 }' | sort -u)
		want=ok
		if echo "$errors" | grep -qxF -f rules; then want=fail; fi
		echo "$f $orig" >> parse.list
		echo "$want $(echo $errors)" >> wants
	done
	parse_$id parse.list > results 2>&1
	[ "$(wc -l < results)" -eq "$(wc -l < parse.list)" ] ||
		{ cat results; atf_fail "the $id grammar did not give one result a case"; }
	: > mismatches
	rejected=0 parsed=0
	exec 3< wants 4< results
	while read -r f orig; do
		read -r want errors <&3
		read -r got <&4
		case "$got" in
		"ok $f") [ $want = ok ] && parsed=$((parsed + 1)) ;;
		"fail $f:"*) [ $want = fail ] && rejected=$((rejected + 1)) ;;
		*) echo "$f: result for another case: $got" >> mismatches; continue ;;
		esac
		case "$got" in "$want"*) ;; *) echo "$f: expected $want ($errors), got: $got" >> mismatches ;; esac
	done < parse.list
	exec 3<&- 4<&-
	if [ -s mismatches ]; then
		cat mismatches
		atf_fail "the $id grammar and the validator disagree"
	fi
	[ $rejected -gt 0 ] && [ $parsed -gt 0 ] ||
		atf_fail "expected both rejected and parsed invalid cases, got $rejected and $parsed"
}

# span_is ID TYPE SIZE: every object of TYPE read SIZE bytes (spans file).
span_is() {
	line=$(grep "^$2 " spans) || atf_fail "no $2 object was read"
	[ "$line" = "$2 $3" ] || atf_fail "$1 grammar: $line, the validator expects $2 $3"
}

# define VALUE NAME FILE: the value of a #define of the validator.
define() {
	v=$(sed -n "s/^#define $1 \([0-9]*\)u\{0,1\}.*/\1/p" "$SRCDIR/$2")
	[ -n "$v" ] || atf_fail "no #define $1 in $2"
	echo "$v"
}

atf_test_case compile_clean
compile_clean_head() {
	atf_set descr "every .ksy compiles with the reference compiler without a warning and documents every field; a broken one or one with a warning fails"
}
compile_clean_body() {
	need_compiler
	compile "$G"/*.ksy "$G"/umtrace/*.ksy
	for p in Xray Tfile ThreadItable AddressSpaceItable ModuleItable InsItable ContextMapItable \
		ExecVtable ExecOffsets ExecPrevNextColumn SyscallVtable SyscallOffsets; do
		[ -f out/$p.js ] || atf_fail "no parser $p.js generated"
	done
	node "$CHECK" lint "$G"/*.ksy "$G"/umtrace/*.ksy > lint 2>&1 || { cat lint; atf_fail "a field has no doc"; }
	sed '/^        doc: Unused\.$/d' "$G/xray.ksy" > nodoc.ksy
	if node "$CHECK" lint nodoc.ksy > lint 2>&1; then
		atf_fail "a field without doc passed the lint"
	fi
	# A warning alone fails too: a style warning, which the compiler's
	# JavaScript API drops unless ksy-check.js collects it.
	printf '%s\n' 'meta: {id: warn, endian: le}' 'seq:' \
		'  - {id: body_size, type: u1, doc: The size.}' \
		'  - {id: body, size: body_size, doc: The body.}' > warn.ksy
	if node "$CHECK" compile warn warn.ksy > log 2>&1; then
		atf_fail "a grammar with a compiler warning compiled cleanly"
	fi
	grep -q 'warning: use `len_body`' log || { cat log; atf_fail "the compiler's warning was not printed"; }
	sed 's/type: u2$/type: u7/' "$G/xray.ksy" > broken.ksy
	if node "$CHECK" compile broken broken.ksy > log 2>&1; then
		atf_fail "a grammar with an unknown type compiled"
	fi
}

atf_test_case xray_valid
xray_valid_head() {
	atf_set descr "xray.ksy parses every valid XRay corpus case (both byte orders, FDR 1-5, basic 1-3)"
}
xray_valid_body() {
	need_compiler
	compile "$G/xray.ksy"
	expect_valid xray 40 "$SRCDIR/corpus/xray/valid"
}

atf_test_case xray_invalid
xray_invalid_head() {
	atf_set descr "xray.ksy rejects exactly the invalid XRay cases that break a rule of xray.rules"
}
xray_invalid_body() {
	need_compiler
	compile "$G/xray.ksy"
	expect_verdicts xray "$G/xray.rules" "$SRCDIR/corpus/xray/invalid"
}

atf_test_case xray_layout
xray_layout_head() {
	atf_set descr "xray.ksy reads headers and records of the sizes validators/xray hard-codes"
}
xray_layout_body() {
	need_compiler
	compile "$G/xray.ksy"
	node "$CHECK" spans out xray -- $(cases "$SRCDIR/corpus/xray/valid") > spans || { cat spans; atf_fail "parse failed"; }
	h=validators/xray/xray.h
	span_is xray Header "$(define XRAY_HEADER_SIZE $h)"
	span_is xray BasicRecord "$(define XRAY_BASIC_RECORD_SIZE $h)"
	# A record's first byte is read by Record itself, the rest by its body.
	span_is xray Function $(($(define XRAY_FUNCTION_SIZE $h) - 1))
	span_is xray MetadataOfKind "$(define XRAY_METADATA_SIZE $h)"
	# A grammar drifting from the validator is caught: metadata records one byte short.
	sed 's/^        size: 15$/        size: 14/' "$G/xray.ksy" > drift.ksy
	cmp -s drift.ksy "$G/xray.ksy" && atf_fail "could not make a drifted grammar"
	node "$CHECK" compile drift drift.ksy > log 2>&1 || { cat log; atf_fail "drifted grammar did not compile"; }
	node "$CHECK" spans drift xray -- "$SRCDIR/corpus/xray/valid/gen-fdr-v5-le.xray" > drift.spans 2>&1 || true
	if grep -qx "MetadataOfKind $(define XRAY_METADATA_SIZE $h)" drift.spans; then
		atf_fail "a drifted grammar passed the layout check"
	fi
	sizes=$(grep '^Record ' spans)
	for s in "$(define XRAY_FUNCTION_SIZE $h)" "$(define XRAY_METADATA_SIZE $h)"; do
		echo " $sizes " | grep -q " $s " || atf_fail "no record of $s bytes: $sizes"
	done
}

atf_test_case tfile_valid
tfile_valid_head() {
	atf_set descr "tfile.ksy parses every valid tfile corpus case (both byte orders)"
}
tfile_valid_body() {
	need_compiler
	compile "$G/tfile.ksy"
	expect_valid tfile 40 "$SRCDIR/corpus/tfile/valid"
}

atf_test_case tfile_invalid
tfile_invalid_head() {
	atf_set descr "tfile.ksy rejects exactly the invalid tfile cases that break a rule of tfile.rules"
}
tfile_invalid_body() {
	need_compiler
	compile "$G/tfile.ksy"
	expect_verdicts tfile "$G/tfile.rules" "$SRCDIR/corpus/tfile/invalid"
}

atf_test_case tfile_layout
tfile_layout_head() {
	atf_set descr "tfile.ksy reads a header of the size validators/tfile hard-codes"
}
tfile_layout_body() {
	need_compiler
	compile "$G/tfile.ksy"
	node "$CHECK" spans out tfile is_be=false len_registers=16 -- "$SRCDIR/corpus/tfile/valid/synthetic-le.tf" > spans ||
		{ cat spans; atf_fail "parse failed"; }
	span_is tfile Header "$(define TFILE_HEADER_SIZE validators/tfile/tfile.h)"
}

atf_test_case umtrace_valid
umtrace_valid_head() {
	atf_set descr "the grammars of grammars/umtrace parse their member file of every valid trace, the offset-linked ones and every record and syscall block included"
}
umtrace_valid_body() {
	need_compiler
	compile "$G"/umtrace/*.ksy
	umt_files "$SRCDIR"/corpus/umtrace/valid/*/ > list
	n=$(wc -l < list)
	[ "$n" -ge 200 ] || atf_fail "only $n member files found"
	for m in $UMT_MEMBERS; do
		node "$CHECK" parse out "${m}_itable" -- $(grep "/$m\.itable\$" list)
	done > result
	if grep -v '^ok ' result; then
		atf_fail "a UMTracer grammar rejects a valid member file"
	fi
	[ "$(grep -c '^ok ' result)" -eq "$n" ] || { cat result; atf_fail "not every file was parsed"; }
	dirs=$(ls -d "$SRCDIR"/corpus/umtrace/valid/*/)
	umt_linked $dirs > linked
	if grep -v '^ok ' linked; then
		atf_fail "a grammar of an offset-linked member file rejects a valid trace"
	fi
	[ "$(grep -c '^ok ' linked)" -eq $(($(echo "$dirs" | wc -l) * 5)) ] ||
		{ cat linked; atf_fail "not every offset-linked member file was parsed"; }
	# The records and syscall blocks were parsed too, one per RecordCount.
	for t in exec syscall; do
		want=$(for v in $(cat $t.vt); do i64_at8 "$v"; done | awk '{ n += $1 } END { print n }')
		got=$(awk '{ n += $3 } END { print n }' $t.rec.res)
		[ "$got" = "$want" ] || atf_fail "$got of $want $t records parsed"
	done
}

atf_test_case umtrace_invalid
umtrace_invalid_head() {
	atf_set descr "a UMTracer member file fails its grammar exactly when it breaks a rule umtrace.rules gives it"
}
umtrace_invalid_body() {
	need_compiler
	compile "$G"/umtrace/*.ksy
	grep -v '^#' "$G/umtrace/umtrace.rules" | sed '/^$/d' > rules
	: > mismatches
	rejected=0 parsed=0
	umt_files "$SRCDIR"/corpus/umtrace/invalid/*/ > list
	for m in $UMT_MEMBERS; do
		node "$CHECK" parse out "${m}_itable" -- $(grep "/$m\.itable\$" list)
	done > results
	umt_linked "$SRCDIR"/corpus/umtrace/invalid/*/ >> results
	# Every member file checked, "FILE MEMBER SIDECAR"; then one awk pass
	# judges them all (a few processes a file made this the suite's slowest
	# test case).
	for d in "$SRCDIR"/corpus/umtrace/invalid/*/; do
		d=${d%/}
		for f in $(umt_files "$d"; for m in $UMT_LINKED; do [ -f "$d/$m" ] && echo "$d/$m"; done); do
			echo "$f ${f##*/} $d.expected"
		done
	done > members
	awk '
	FILENAME == "rules" { rule[$1 " " $2] = 1; next }
	FILENAME == "results" {
		f = $2; sub(/:$/, "", f)
		if ($1 == "skip") skip[f] = 1
		else if ($1 == "ok" && !(f in ok)) ok[f] = $0
		else if ($1 == "fail" && !(f in bad)) bad[f] = $0
		next
	}
	{
		f = $1; m = $2; sidecar = $3
		# Not checked by the validator either: the file its parameters come from failed.
		if (f in skip) next
		want = "ok"; errors = ""; n = 0
		while ((getline line < sidecar) > 0) {
			sub(/#.*/, "", line)
			split(line, w)
			if (w[2] != "error" || index(w[1], m ":") != 1 || (w[3] in seen)) continue
			seen[w[3]] = 1; list[++n] = w[3]
		}
		close(sidecar)
		for (i = 1; i <= n; i++) {
			errors = errors (i > 1 ? " " : "") list[i]
			if ((m " " list[i]) in rule) want = "fail"
			delete seen[list[i]]
		}
		got = (f in ok) ? ok[f] : (f in bad) ? bad[f] : ""
		if (got ~ /^ok/) { if (want == "ok") parsed++ } else if (want == "fail") rejected++
		if (index(got, want) != 1) printf "%s: expected %s (%s), got: %s\n", f, want, errors, got > "mismatches"
	}
	END { print rejected + 0, parsed + 0 > "counts" }' rules results members
	: >> mismatches
	read -r rejected parsed < counts
	if [ -s mismatches ]; then
		cat mismatches
		atf_fail "the UMTracer grammars and the validator disagree"
	fi
	[ $rejected -ge 10 ] && [ $parsed -gt 0 ] ||
		atf_fail "expected rejected and parsed member files, got $rejected and $parsed"
}

atf_test_case umtrace_layout
umtrace_layout_head() {
	atf_set descr "the UMTracer grammars read headers and rows of the sizes validators/umtrace hard-codes"
}
umtrace_layout_body() {
	need_compiler
	compile "$G"/umtrace/*.ksy
	src="$SRCDIR/validators/umtrace/umt_table.c"
	for pair in INS:ins:InsRec MODULE:module:ModuleRec THREAD:thread:ThreadRec default:address_space:AddressRange; do
		tag=${pair%%:*} rest=${pair#*:}; m=${rest%%:*} row=${rest#*:}
		if [ $tag = default ]; then
			kind=$(sed -n 's/^\tdefault: return (struct table_kind){ \([0-9]*\), \([0-9]*\),.*/\1 \2/p' "$src")
		else
			kind=$(sed -n "s/^\tcase M_$tag: return (struct table_kind){ \([0-9]*\), \([0-9]*\),.*/\1 \2/p" "$src")
		fi
		[ -n "$kind" ] || atf_fail "no table_kind for $m in $src"
		set -- $kind
		node "$CHECK" spans out "${m}_itable" -- "$SRCDIR/corpus/umtrace/valid/trace64/$m.itable" > spans ||
			{ cat spans; atf_fail "$m.itable does not parse"; }
		span_is "$m" TableHeader "$1"
		span_is "$m" "$row" "$2"
	done
	node "$CHECK" spans out context_map_itable -- "$SRCDIR/corpus/umtrace/valid/trace64/context_map.itable" > spans
	span_is context_map ContextMapItable "$(define UMT_CMAP_SIZE validators/umtrace/umt.h)"
}

atf_test_case umtrace_linked_layout
umtrace_linked_layout_head() {
	atf_set descr "the grammars of the offset-linked UMTracer files and the context map read structures of the sizes validators/umtrace hard-codes"
}
# first_number FILE SED-EXPR: the number the expression captures in FILE (a size
# the validator passes to its reader).
first_number() {
	v=$(sed -n "$2" "$SRCDIR/$1" | head -1)
	[ -n "$v" ] || atf_fail "no match of $2 in $1"
	echo "$v"
}
umtrace_linked_layout_body() {
	need_compiler
	compile "$G"/umtrace/*.ksy
	v=validators/umtrace
	t="$SRCDIR/corpus/umtrace/valid/trace64"
	node "$CHECK" spans out exec_vtable -- "$t/exec.vtable" > spans || { cat spans; atf_fail "exec.vtable does not parse"; }
	span_is exec_vtable ExecHeader "$(first_number $v/umt_exec_index.c 's/.*umt_row(vt, 0, \([0-9]*\), &h).*/\1/p')"
	n=$(i64_at8 "$t/exec.vtable")
	node "$CHECK" spans out exec_prev_next_column n=$n -- "$t/exec.prev_next.column" > spans ||
		{ cat spans; atf_fail "exec.prev_next.column does not parse"; }
	span_is exec_prev_next_column PrevNext "$(first_number $v/umt_exec_index.c 's/.*tl_mul_u64(n, \([0-9]*\), &want).*/\1/p')"
	node "$CHECK" spans out syscall_vtable -- "$t/syscall.vtable" > spans || { cat spans; atf_fail "syscall.vtable does not parse"; }
	span_is syscall_vtable SyscallHeader "$(first_number $v/umt_syscall.c 's/.*umt_row(vt, 0, \([0-9]*\), &h).*/\1/p')"
	n=$(i64_at8 "$t/syscall.vtable") s=$(wc -c < "$t/syscall.vtable")
	node "$CHECK" spans out syscall_offsets n=$n s=$s -- "$t/syscall.offsets" > spans ||
		{ cat spans; atf_fail "syscall.offsets does not parse"; }
	span_is syscall_offsets Block "$(first_number $v/umt_syscall_block.c 's/.*umt_row(&t->f\[M_SYSCALL_OFFSETS\], at, \([0-9]*\), &row).*/\1/p')"
	# The context map: names and register entries at the offsets the validator reads.
	c=$v/umt_context_map.c
	max=$(define CMAP_MAX $c) names=$(define CMAP_NAMES $c) m32=$(define CMAP_MAP32 $c) m64=$(define CMAP_MAP64 $c)
	node "$CHECK" spans out context_map_itable -- "$t/context_map.itable" > spans
	span_is context_map RegName $(((m32 - names) / max))
	span_is context_map RegInfo $(((m64 - m32) / max))
	[ $((m64 + max * (m64 - m32) / max)) -eq "$(define UMT_CMAP_SIZE $v/umt.h)" ] ||
		atf_fail "the validator's context map layout does not end at UMT_CMAP_SIZE"
}

atf_init_test_cases() {
	atf_add_test_case umtrace_linked_layout
	atf_add_test_case umtrace_valid
	atf_add_test_case umtrace_invalid
	atf_add_test_case umtrace_layout
	atf_add_test_case tfile_layout
	atf_add_test_case tfile_valid
	atf_add_test_case tfile_invalid
	atf_add_test_case compile_clean
	atf_add_test_case xray_valid
	atf_add_test_case xray_invalid
	atf_add_test_case xray_layout
}
