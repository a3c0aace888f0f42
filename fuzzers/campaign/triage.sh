#!/bin/sh
# triage.sh TARGET LIBFUZZER_BINARY CRASH... : groups crash inputs by stack
# signature (sanitizer kind + the first three frames in our own sources),
# minimises one input per group, and copies it to
# corpus/<format>/regressions/<target>-<signature> with a .expected sidecar
# written from the release build's diagnostics (build/tracelint), plus a .md
# holding the stack. Prints "regression: <path>" per new case.
set -eu
. fuzzers/campaign/common.sh
TARGET=$1 BIN=$2
shift 2
TRACELINT_GIVEN=${TRACELINT:-}
TRACELINT=${TRACELINT:-build/tracelint}
# Where the cases go (a test points this elsewhere) and how long to minimise.
CORPUS_ROOT=${CORPUS_ROOT:-corpus}
MINIMIZE_SECONDS=${MINIMIZE_SECONDS:-60}
# The sidecars come from the current sources: bring the release build up to date.
[ -n "${TRACELINT_GIVEN:-}" ] || make -s all > /dev/null
tmp=$(mktemp -d /tmp/tracelint-triage.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# The signature of one crash: what the sanitizer said and where in our code.
signature() {
	kind=$(grep -m1 -oE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer): [a-z-]+|runtime error: [a-z ]+|deadly signal|timeout' "$1" || echo unknown)
	frames=$(grep -E '^ *#[0-9]+ 0x[0-9a-f]+ in ' "$1" | grep -E 'validators/|fuzzers/' |
		grep -vE 'regression_driver|LLVMFuzzerTestOneInput' |
		sed -E 's/^ *#[0-9]+ 0x[0-9a-f]+ in ([^ ]+).*/\1/' | head -3 | tr '\n' ' ')
	[ -n "$frames" ] || frames=$(grep -m1 -oE '[a-z_/]+\.c:[0-9]+' "$1" || true)
	printf '%s | %s' "$kind" "$frames"
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
		" " + .severity + " " + .rule'
}

seen=$tmp/seen
: > "$seen"
for crash in "$@"; do
	"$BIN" -runs=1 "$crash" > "$tmp/out" 2>&1 || true
	sig=$(signature "$tmp/out")
	if grep -qxF "$sig" "$seen"; then
		echo "duplicate: $crash ($sig)"
		continue
	fi
	echo "$sig" >> "$seen"
	hash=$(printf '%s' "$sig" | sha1sum | cut -c1-8)
	min=$tmp/min-$hash
	nice -n 10 "$BIN" -minimize_crash=1 -max_total_time="$MINIMIZE_SECONDS" -exact_artifact_path="$min" "$crash" > "$tmp/min.txt" 2>&1 || true
	[ -s "$min" ] || cp "$crash" "$min"
	# The --instr-map target reads ELF binaries, not traces: its finds are pinned
	# as seeds of that target, which the regression test runs in make check.
	case $TARGET in xray_instr_map|xray-instr-map)
		dest=fuzzers/seeds/xray_instr_map/crash-$hash
		mkdir -p "${dest%/*}"
		cp "$min" "$dest"
		echo "regression: $dest"
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
	{
		echo "# fuzz target $TARGET, signature $hash: $sig"
		echo "# expected diagnostics of the release build (exit status $status)"
		expected_for "$dest" "$fmt"
	} > "$dest.expected"
	"$BIN" -runs=1 "$min" > "$tmp/out" 2>&1 || true
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
