#! /bin/sh
# Rewrites the locations and messages of the diagnostics in the .expected
# sidecars of the given cases from what TRACELINT reports now, keeping comment
# and blank lines where they are. Sidecars are written by hand: a case whose
# rules or severities (or their order) changed is refused and left alone.
# Paths in messages are written relative to the repository's top directory.
# Review `git diff corpus/` afterwards.
#
#   sh corpus/update-locations.sh build/tracelint corpus/dcfg/*/*
set -u
[ $# -ge 1 ] || { echo "usage: $0 TRACELINT [CASE...]" >&2; exit 2; }
tracelint=$1
shift
. "$(dirname "$0")/cases.sh"
root=$(cd "$(dirname "$0")/.." && pwd)/
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
status=0
for path in "$@"; do
	is_case "$path" && [ -f "$path.expected" ] || continue
	case_run "$tracelint" "$path" --output=json 2>/dev/null |
		jq -r --arg root "$root" '.files[0].diagnostics[] |
			(if .member then .member + ":" else "" end) +
			(if .line then "\(.line):\(.column)" else "\(.offset)" end) +
			" " + .severity + " " + .rule + " " + (.message | split($root) | join(""))' > "$tmp/actual" || { echo "FAIL $path: no output" >&2; status=1; continue; }
	grep -v -e '^#' -e '^[[:space:]]*$' "$path.expected" > "$tmp/old"
	cmp -s "$tmp/old" "$tmp/actual" && continue
	if [ "$(cut -d' ' -f2-3 "$tmp/old")" != "$(cut -d' ' -f2-3 "$tmp/actual")" ]; then
		echo "REFUSED $path: its rules or severities changed, not only locations or messages" >&2
		status=1
		continue
	fi
	awk -v actual="$tmp/actual" '
		/^#/ || /^[[:space:]]*$/ { print; next }
		{ if ((getline line < actual) > 0) print line; else print }
	' "$path.expected" > "$tmp/new" && cat "$tmp/new" > "$path.expected"
	echo "updated $path"
done
exit $status
