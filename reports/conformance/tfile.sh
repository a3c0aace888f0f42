#!/bin/sh
# The tfile conformance report: runs tracelint and gdb's own reader on every
# case of corpus/tfile/{valid,invalid,regressions}/ and writes
# reports/conformance/tfile.md, a table of both verdicts with every
# disagreement explained.
#
# gdb's side: `target tfile FILE` and a walk over every frame with
# corpus/tfile/gdb/walk.py (tfind start, tfind until no frame is left, and in
# each frame $pc and a memory probe, so every block is read), under a timeout,
# with `set endian` from the case's --endian= option. No executable is
# loaded: gdb then cannot re-create the file's tracepoints and prints "Failed
# to create tracepoint ..." for each one; that line is the same for every
# file and is left out of the warnings.
#
# Usage: reports/conformance/tfile.sh [TRACELINT] [OUT.md]
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
tracelint=${1:-$top/build/tracelint}
out=${2:-$top/reports/conformance/tfile.md}
walker=$top/corpus/tfile/gdb/walk.py
: "${GDB_TIMEOUT:=60}"

for tool in gdb jq timeout; do
	command -v "$tool" > /dev/null || { echo "conformance-tfile: $tool not found" >&2; exit 1; }
done
[ -x "$tracelint" ] || { echo "conformance-tfile: $tracelint not built" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

is_case() {
	case "$1" in
	*.expected | *.args | *.md | *.sh | *.py | */README*) return 1 ;;
	esac
	[ -f "$1" ]
}

# Prints the case's extra options (its .args file), one per line.
case_args() {
	[ -f "$1.args" ] || return 0
	grep -v -e '^#' -e '^[[:space:]]*$' "$1.args" || true
}

# Our verdict: "valid", "valid (warnings: R1, R2)", "invalid: R1, R2 (warnings: ...)"
# or "not validated: <why>". Also leaves the error rule IDs in $tmp/rules and
# the byte order tracelint used in $tmp/detail.
our_verdict() {
	path=$1
	set --
	while IFS= read -r arg; do set -- "$@" "$arg"; done < "$tmp/args"
	rc=0
	"$tracelint" --output=json "$@" "$path" > "$tmp/ours.json" 2> /dev/null || rc=$?
	jq -r '[.files[0].diagnostics[] | select(.severity == "error") | .rule] | unique | join(", ")' \
		"$tmp/ours.json" > "$tmp/rules" 2> /dev/null || : > "$tmp/rules"
	jq -r '.files[0].detail // ""' "$tmp/ours.json" > "$tmp/detail" 2> /dev/null || : > "$tmp/detail"
	warnings=$(jq -r '[.files[0].diagnostics[] | select(.severity == "warning") | .rule] | unique | join(", ")' \
		"$tmp/ours.json" 2> /dev/null || true)
	why=$(jq -r '.files[0].error // ""' "$tmp/ours.json" 2> /dev/null || true)
	suffix=
	[ -z "$warnings" ] || suffix=" (warnings: $warnings)"
	case $rc in
	0) echo "valid$suffix" ;;
	1) echo "invalid: $(cat "$tmp/rules")$suffix" ;;
	*) echo "not validated: $(printf '%s' "${why:-exit status $rc}" | cut -c1-60)" ;;
	esac
}

# gdb's outcome on PATH read with byte order ENDIAN (little, big or "" for
# gdb's default): "accepted (N frames)", "accepted with warnings (N frames):
# ...", "rejected: <first error>", "crashed: ...", or "timeout (Ns)".
gdb_outcome() {
	path=$1 endian=$2
	set -- -batch -nx
	[ -z "$endian" ] || set -- "$@" -ex "set endian $endian"
	rc=0
	# Run in the temp directory without core files: gdb offers to dump core
	# on an internal error and would leave it in the current directory.
	(cd "$tmp" && ulimit -c 0 && timeout "$GDB_TIMEOUT" gdb "$@" \
		-iex 'maint set internal-error corefile no' \
		-ex "python path = '$path'" -x "$walker") > "$tmp/gdb.log" 2>&1 < /dev/null || rc=$?
	if [ $rc = 124 ]; then
		echo "timeout (${GDB_TIMEOUT}s)"
		return
	fi
	crash=$(grep -m1 -E 'internal-error|Fatal signal|Segmentation fault|virtual memory exhausted' "$tmp/gdb.log" || true)
	if [ -n "$crash" ] || [ $rc -ge 128 ]; then
		[ $rc -lt 128 ] || crash="${crash:+$crash; }killed by signal $((rc - 128))"
		echo "crashed: $(printf '%s' "$crash" | sed 's/^.*internal-error/internal-error/' | cut -c1-120)"
		return
	fi
	open_error=$(sed -n 's/^WALK-OPEN-ERROR //p' "$tmp/gdb.log" | head -n 1)
	walk_error=$(sed -n 's/^WALK-ERROR [0-9]* //p' "$tmp/gdb.log" | head -n 1)
	error_frame=$(sed -n 's/^WALK-ERROR \([0-9]*\) .*/\1/p' "$tmp/gdb.log" | head -n 1)
	frames=$(sed -n 's/^WALK-END //p' "$tmp/gdb.log" | head -n 1)
	warnings=$(sed -n 's/^warning: //p' "$tmp/gdb.log" | sed 's/  */ /g' | cut -c1-100 |
		awk '!seen[$0]++ { printf "%s%s", (n++ ? " / " : ""), $0 }')
	if [ -n "$open_error" ]; then
		# An error while merging tracepoints leaves the file open and walkable.
		case "$frames" in
		'' | 0) echo "rejected: $open_error" ;;
		*) echo "rejected: $open_error (the $frames frames stay readable)" ;;
		esac
	elif [ -n "$walk_error" ]; then
		case "$walk_error" in
		*"block type '") walk_error="$walk_error (gdb cuts its message at a NUL type byte)" ;;
		esac
		echo "rejected at frame $error_frame: $walk_error"
	elif [ -z "$frames" ]; then
		echo "crashed: no walk result (exit status $rc): $(grep -v '^Found trace' "$tmp/gdb.log" | tail -n 1 | cut -c1-100)"
	elif [ -n "$warnings" ]; then
		echo "accepted with warnings ($frames frames): $warnings"
	else
		echo "accepted ($frames frames)"
	fi
}

# Why gdb and tracelint disagree: from gdb's outcome (a crash or timeout on a
# file we reject), from the first error rule we report (an invalid file gdb
# reads: one of gdb's leniencies, shared/research/tfile.md §7), or, for a
# file we pass and gdb fails on, from gdb's message.
explain() {
	rules=$1 gdb_says=$2 ours=$3
	case "$ours" in
	"not validated"*) echo "tracelint gave no verdict (${ours#not validated: }), so there is nothing to compare." ; return ;;
	esac
	case "$gdb_says" in
	crashed*) echo "gdb crashes on this input (research §8 lists its crashes on malformed files); our rejection is the safe verdict." ; return ;;
	timeout*) echo "gdb does not finish reading this input within ${GDB_TIMEOUT}s." ; return ;;
	*"Premature end of file"*"with \`set endian big\`: accepted"*)
		echo "the file does not record its byte order and gdb cannot detect it: read as little-endian it fails, read with \`set endian big\` it is accepted; tracelint detects big-endian from the frame chain." ; return ;;
	esac
	[ -n "$rules" ] || { echo "gdb fails on a file tracelint passes: ${gdb_says}." ; return ; }
	rule=${rules%%,*}
	case "$rule" in
	TFILE-BLOCK-M-WRAP) why="gdb does not check an M block's address range, so a block that wraps past 2^64 is walked over like any other" ;;
	TFILE-BLOCK-OVERRUN) why="gdb steps from block to block while it is inside the frame and never checks that the last block ends at the frame end, so an overrunning block just ends its walk (research §4.3)" ;;
	TFILE-END-TRAILING) why="gdb stops at the zero tracepoint number of the end marker and never reads the bytes after it (research §4.1)" ;;
	TFILE-FRAME-TPNUM-UNDEFINED) why="gdb does not look a frame's tracepoint number up among the tp lines (research §7)" ;;
	TFILE-FRAME-TPNUM) why="gdb reads a frame's tracepoint number as a signed 16-bit value and takes any nonzero one, including those of 0x8000 and above that it sees as negative (research §4.1)" ;;
	TFILE-LINE-CR) why="gdb splits lines on newline only: the CR stays at the end of the payload, where its parsers ignore it (research §3.1)" ;;
	TFILE-LINE-NUL) why="gdb's line parsers see the line only up to the NUL and silently drop the rest (research §3.1)" ;;
	TFILE-R-DUPLICATE) why="gdb takes the last R line and ignores the others (research §3.3)" ;;
	TFILE-R-SYNTAX) why="gdb reads the R value with strtol base 16, which accepts leading blanks, a sign, 0x and trailing junk (research §3.3)" ;;
	TFILE-STATUS-REASON) why="gdb skips a stop reason it does not know like any unknown status key (research §3.5)" ;;
	TFILE-STATUS-RUNNING) why="gdb takes any first status byte other than 1 as \"not running\" without checking it (research §3.5)" ;;
	TFILE-TDESC-INCLUDE) why="gdb serves only target.xml: it warns that it cannot load the included document and carries on with a fallback architecture (research §3.4)" ;;
	TFILE-TDESC-ROOT) why="gdb gives no warning: its XML reader quietly skips elements it does not expect (it reports them only under \`set debug xml\`), so a description without a <target> root just describes nothing" ;;
	TFILE-TDESC-XML) why="gdb only warns that the target description does not parse and carries on with a fallback architecture (research §3.4)" ;;
	TFILE-TP-ACTION) why="gdb stores A and S action texts without parsing them (research §3.7)" ;;
	TFILE-TP-NUMBER) why="gdb takes any hex tracepoint number, here one above 0x7fff that no frame can carry as a positive number, and only warns that it has no source location" ;;
	TFILE-TP-PREFIX) why="gdb skips one byte where each colon of a tp piece should be without checking it (research §3.7)" ;;
	TFILE-TP-T-SYNTAX) why="gdb's T parser takes any flag but E as disabled, never checks separators and copies a condition of the declared length without checking that the line holds it (research §3.7)" ;;
	TFILE-TP-T-DUPLICATE) why="gdb lets a second T line for the same location set its fields again (research §7)" ;;
	TFILE-TP-V-SYNTAX) why="gdb adds the tp V numbers to the location's counts without checking their form (research §3.7)" ;;
	TFILE-TP-Z-DUPLICATE) why="gdb lets a second at or cond text of a location replace the first" ;;
	TFILE-TSV-DUPLICATE-NAME) why="gdb merges trace state variables by name, so two numbers with one name become one variable (research §3.6)" ;;
	TFILE-TSV-DUPLICATE-NUMBER) why="gdb lets a second tsv line with the same number overwrite the first (research §3.6)" ;;
	TFILE-TSV-NAME) why="gdb decodes any hex name, empty or not printable, without complaint (research §3.6)" ;;
	TFILE-TSV-SYNTAX) why="gdb's tsv parser reads three hex numbers and skips one byte after each without checking the builtin flag's value or the separators (research §3.6)" ;;
	*TDESC* | *XML*) why="gdb only warns about a broken or include-using target description and falls back to another architecture (research §3.4)" ;;
	*NUL* | *CR* | *CONTROL* | *PRINT* | *ASCII*) why="gdb treats every byte but newline as payload: a CR stays in the text and a NUL silently cuts the line short (research §3.1)" ;;
	*PREFIX* | *UNKNOWN-LINE* | *UNKNOWN-DEF*) why="gdb ignores a line it does not recognise, with a warning (research §3.1)" ;;
	*STATUS*FRAMES* | *TFRAMES*) why="gdb never compares the status tframes with the frames it finds (research §3.5)" ;;
	*STATUS*) why="gdb's status parser skips one byte between fields unchecked, matches keys by prefix, reads bad numbers as 0 and skips unknown keys, reasons and duplicate lines (research §3.5, §7)" ;;
	*TSV*) why="gdb's tsv parser never checks separators, lets a duplicate number overwrite the first and decodes odd-length or truncated names without complaint (research §3.6)" ;;
	*TP*V* | *TP*HIT*) why="gdb adds the tp V counts without checking them (research §3.7)" ;;
	*TP* | *TRACEPOINT* | *COND* | *ACTION*) why="gdb's tracepoint parser never checks separators, takes any flag but E as disabled, accepts duplicate definitions, unchecked condition lengths and pieces without a T line when no executable is loaded (research §3.7, §7)" ;;
	*R-* | *RSIZE* | *REG*) why="gdb reads the R line with strtol base 16 (blanks, a sign, 0x and trailing junk accepted; the last R line wins) and uses only the first R block of a frame (research §3.3, §4.3)" ;;
	*TRAIL* | *AFTER* | *MARKER* | *END*) why="gdb stops at the first zero tracepoint number and never reads what follows it (research §4.1, §7)" ;;
	*FRAME*TP* | *TPNUM* | *UNDEF*) why="gdb does not require a frame's tracepoint number to be defined by a tp line (research §7)" ;;
	*BLOCK* | *TILE* | *OVERRUN* | *FRAME*) why="gdb stops walking a frame's blocks at the first one that overruns the frame and does not require the blocks to end exactly at the frame end (research §4.3, §7)" ;;
	*M-* | *MEM*) why="gdb accepts zero-length and address-wrapping M blocks (research §7)" ;;
	*V-* | *VAR*) why="gdb does not check a V block's number against the tsv lines (research §7)" ;;
	*) why="no explanation recorded for rule $rule" ;;
	esac
	echo "$why; tracelint reports $rule."
}

verdict_kind() {
	case "$1" in
	valid*) echo pass ;;
	invalid*) echo fail ;;
	*) echo none ;;
	esac
}

gdb_kind() {
	case "$1" in
	accepted*) echo pass ;;
	*) echo fail ;;
	esac
}

md() { printf '%s' "$1" | sed 's/|/\\|/g'; }

rows=$tmp/rows
notes=$tmp/notes
: > "$rows"
: > "$notes"
: > "$tmp/outcomes"
total=0 agree=0
for kind in valid invalid regressions; do
	for path in "$top/corpus/tfile/$kind"/*; do
		is_case "$path" || continue
		rel=${path#"$top"/}
		case_args "$path" > "$tmp/args"
		ours=$(our_verdict "$path")
		endian=$(sed -n 's/^--endian=\(little\|big\)$/\1/p' "$tmp/args" | tail -n 1)
		theirs=$(gdb_outcome "$path" "$endian")
		# gdb has no byte-order detection: a big-endian file we detected is
		# also read with `set endian big` to compare the content.
		if [ -z "$endian" ] && grep -q big "$tmp/detail" && [ "$(gdb_kind "$theirs")" = fail ]; then
			theirs="$theirs; with \`set endian big\`: $(gdb_outcome "$path" big)"
		fi
		total=$((total + 1))
		if [ "$(verdict_kind "$ours")" = "$(gdb_kind "$theirs")" ]; then
			same=yes
			agree=$((agree + 1))
		else
			same=**no**
			printf -- '- `%s`: %s\n' "$rel" "$(explain "$(cat "$tmp/rules")" "$theirs" "$ours")" >> "$notes"
		fi
		printf '| `%s` | %s | %s | %s |\n' "$rel" "$(md "$ours")" "$(md "$theirs")" "$same" >> "$rows"
		printf '%s\n' "$theirs" | sed 's/ *[(:].*//; s/ at frame [0-9]*//' >> "$tmp/outcomes"
		echo "$rel: $ours / $theirs" >&2
	done
done

{
	echo "# tfile conformance: tracelint versus gdb's \`target tfile\`"
	echo
	echo "Generated by \`make conformance-tfile\` (reports/conformance/tfile.sh) with"
	echo "$(gdb --version | head -n 1) and $("$tracelint" --version 2> /dev/null | head -n 1 || echo tracelint)."
	echo "gdb reads each case with \`target tfile\` (no executable loaded, \`set endian\` from the"
	echo "case's \`--endian=\` option), then selects every frame (\`tfind start\`, \`tfind\` until none is"
	echo "left) and in each reads \$pc and probes memory, so every block of every frame is read."
	echo "\"accepted\" means gdb opened the file and walked to its end; warnings are gdb's own"
	echo "\`warning:\` lines. \"Failed to create tracepoint ...\" (printed for every file, since no"
	echo "executable is loaded) is left out. The two agree when tracelint says valid and gdb"
	echo "accepts, or tracelint says invalid and gdb rejects, crashes or times out."
	echo
	echo "$agree of $total cases agree. gdb's outcomes: $(sort "$tmp/outcomes" | uniq -c |
		awk '{ n = $1; $1 = ""; printf "%s%s%s", (k++ ? ", " : ""), n, $0 }')."
	echo
	echo "| case | tracelint | gdb 13.1 | agree |"
	echo "|---|---|---|---|"
	cat "$rows"
	echo
	echo "## Disagreements"
	echo
	if [ -s "$notes" ]; then cat "$notes"; else echo "None."; fi
} > "$out"
echo "wrote ${out#"$top"/}: $agree of $total cases agree" >&2
