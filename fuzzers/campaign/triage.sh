#!/bin/sh
# triage.sh TARGET LIBFUZZER_BINARY CRASH... : replays each input on the
# target and refuses (exit status 1, nothing written for it) one that does not
# crash, leak or time out there. Groups the rest by stack signature (the
# sanitizer's report + the first three frames, ours first), minimises one
# input per group, and copies it to $CORPUS_ROOT/<format>/regressions/
# <target>-<signature> with a .expected sidecar written from the release
# build's diagnostics (build/tracelint), plus a .md holding the stack.
# CORPUS_ROOT defaults to build/triage; CORPUS_ROOT=corpus pins the cases
# directly. Prints "regression: <path>" per new case.
set -eu
. fuzzers/campaign/common.sh
TARGET=$1 BIN=$2
shift 2
TRACELINT_GIVEN=${TRACELINT:-}
TRACELINT=${TRACELINT:-build/tracelint}
# Where the cases go and how long to minimise; replays time out after
# TIMEOUT_SECONDS, as the campaigns' -timeout=10.
CORPUS_ROOT=${CORPUS_ROOT:-build/triage}
MINIMIZE_SECONDS=${MINIMIZE_SECONDS:-60}
TIMEOUT_SECONDS=${TIMEOUT_SECONDS:-10}
# The sidecars come from the current sources: bring the release build up to date.
[ -n "${TRACELINT_GIVEN:-}" ] || make -s all > /dev/null
tmp=$(mktemp -d /tmp/tracelint-triage.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# What the sanitizer or libFuzzer reported, or nothing when the input ran clean.
report_kind() {
	grep -m1 -oE 'ERROR: LeakSanitizer: detected memory leaks|ERROR: (AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|MemorySanitizer|libFuzzer): [A-Za-z-]+|runtime error: [a-z ]+' "$1" || true
}

# The first three frames of the report: those in our sources when there are
# any, else the first ones outside the sanitizer and libFuzzer runtimes.
report_frames() {
	grep -E '^ *#[0-9]+ 0x[0-9a-f]+ in ' "$1" |
		grep -vE ' in (__(asan|lsan|ubsan|sanitizer|interceptor)_|fuzzer::|LLVMFuzzerTestOneInput|main |malloc|calloc|realloc|free|operator new|__libc_|_start)' > "$tmp/frames" || true
	grep -E 'validators/|fuzzers/' "$tmp/frames" | grep -v regression_driver > "$tmp/ours" || true
	[ -s "$tmp/ours" ] && mv "$tmp/ours" "$tmp/frames"
	sed -E 's/^ *#[0-9]+ 0x[0-9a-f]+ in ([^ ]+).*/\1/' "$tmp/frames" | head -3 | tr '\n' ' ' | sed 's/ $//'
}

# The .expected lines of the release build for a case (with its .args).
expected_for() {
	case_path=$1 fmt=$2
	set -- -o json --max-errors=0
	[ -n "$fmt" ] && set -- "$@" --format="$fmt"
	"$TRACELINT" "$@" "$case_path" 2>/dev/null | jq -r '
		.files[0].diagnostics[]? |
		((if .member then .member + ":" else "" end) +
		 (if (.line // 0) > 0 then "\(.line):\(.column)" else "\(.offset)" end)) +
		" " + .severity + " " + .rule + " " + .message'
}

seen=$tmp/seen
: > "$seen"
refused=0
for crash in "$@"; do
	status=0
	"$BIN" -runs=1 -timeout="$TIMEOUT_SECONDS" "$crash" > "$tmp/out" 2>&1 || status=$?
	kind=$(report_kind "$tmp/out")
	frames=$(report_frames "$tmp/out")
	if [ "$status" -eq 0 ] || [ -z "$kind" ]; then
		echo "not a crash: $crash runs without a sanitizer report under $BIN (exit status $status); nothing written" >&2
		refused=1
		continue
	fi
	if [ -z "$frames" ]; then
		echo "no stack: $crash ($kind) has no stack frame in its report; nothing written" >&2
		refused=1
		continue
	fi
	sig="$kind | $frames"
	if grep -qxF "$sig" "$seen"; then
		echo "duplicate: $crash ($sig)"
		continue
	fi
	echo "$sig" >> "$seen"
	hash=$(printf '%s' "$sig" | sha1sum | cut -c1-8)
	min=$tmp/min-$hash
	nice -n 10 "$BIN" -minimize_crash=1 -timeout="$TIMEOUT_SECONDS" -max_total_time="$MINIMIZE_SECONDS" -exact_artifact_path="$min" "$crash" > "$tmp/min.txt" 2>&1 || true
	[ -s "$min" ] || cp "$crash" "$min"
	# The --instr-map target reads ELF binaries, not traces: its finds are pinned
	# as seeds of that target, which the regression test runs in make check.
	case $TARGET in xray_instr_map|xray-instr-map)
		dest=$CORPUS_ROOT/seeds/xray_instr_map/crash-$hash
		mkdir -p "${dest%/*}"
		cp "$min" "$dest"
		echo "regression: $dest"
		echo "(a seed of the target once copied to fuzzers/seeds/xray_instr_map/)" >&2
		continue ;;
	esac
	fmt=$(target_format "$TARGET")
	dir_fmt=$fmt
	if [ -z "$dir_fmt" ]; then
		dir_fmt=$("$TRACELINT" -o json "$min" 2>/dev/null | jq -r '.files[0].format // empty')
	fi
	if [ -z "$dir_fmt" ]; then
		echo "not pinned (the release build recognises no format): $crash ($sig)"
		continue
	fi
	dest=$CORPUS_ROOT/$dir_fmt/regressions/$(target_source_name "$TARGET")-$hash
	mkdir -p "$CORPUS_ROOT/$dir_fmt/regressions"
	cp "$min" "$dest"
	[ -n "$fmt" ] && printf -- '--format=%s\n--max-errors=0\n' "$fmt" > "$dest.args" \
		|| printf -- '--max-errors=0\n' > "$dest.args"
	status=0
	# shellcheck disable=SC2046
	"$TRACELINT" $(cat "$dest.args") "$dest" > /dev/null 2>&1 || status=$?
	expected=$(expected_for "$dest" "$fmt")
	# what a reader must do with the input (corpus/README.md, "intent")
	case $status in
	1) intent=must-reject ;;
	0) intent=must-accept
	   case $expected in *" warning "*) intent='either tracelint only warns: a stricter reader may refuse it' ;; esac ;;
	*) intent='either tracelint gives no verdict on it' ;;
	esac
	{
		echo "# intent: $intent"
		echo "# fuzz target $TARGET, signature $hash: $sig"
		echo "# expected diagnostics of the release build (exit status $status)"
		[ -z "$expected" ] || printf '%s\n' "$expected"
	} > "$dest.expected"
	"$BIN" -runs=1 -timeout="$TIMEOUT_SECONDS" "$min" > "$tmp/out" 2>&1 || true
	{
		echo "# $(basename "$dest"): a crash found by fuzzing ($TARGET)"
		echo
		echo "Signature: \`$sig\`"
		echo
		echo '```'
		grep -E 'ERROR|runtime error|^ *#[0-9]+ |SUMMARY' "$tmp/out" | head -25
		echo '```'
	} > "$dest.md"
	echo "regression: $dest"
done
exit "$refused"
