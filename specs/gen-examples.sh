#!/bin/sh
# Prints one TL_EXAMPLE("RULE", "file", "location", "excerpt") line per rule
# that a corpus case triggers: the first case (in name order, uncompressed
# ones first, a compressed one read decompressed only when none shows it;
# invalid cases first, then the valid ones that warn) whose .expected names
# the rule (the member file, in a UMTracer trace), the location it gives, and the bytes there
# (the 16-byte row holding the offset, the byte marked) or the line (a caret
# at the column). Usage: gen-examples.sh CORPUS-DIR
set -eu
corpus=$1
# Compressed cases are examples only for rules no uncompressed case shows;
# their bytes are read from a decompressed copy.
plain=$(mktemp -d)
trap 'rm -rf "$plain"' EXIT
cases() {
	find "$corpus" -path '*/invalid/*' -name '*.expected' ! -name '*.content.expected' | LC_ALL=C sort
	find "$corpus" \( -path '*/valid/*' -o -path '*/regressions/*' \) -name '*.expected' ! -name '*.content.expected' | LC_ALL=C sort
}
{ cases; cases | sed 's/^/compressed /'; } |
while IFS= read -r expected; do
	pass=plain
	case $expected in "compressed "*) pass=compressed expected=${expected#compressed } ;; esac
	case=${expected%.expected}
	bytes=$case
	case $pass:$case in
	plain:*.gz|plain:*.bz2|plain:*.zst|plain:*.xz) continue ;;
	compressed:*.gz) bytes=$plain/$(basename "$case"); gzip -dc "$case" > "$bytes" 2>/dev/null || : ;;
	compressed:*.bz2) bytes=$plain/$(basename "$case"); bzip2 -dc "$case" > "$bytes" 2>/dev/null || : ;;
	compressed:*.zst) bytes=$plain/$(basename "$case"); zstd -qdc "$case" > "$bytes" 2>/dev/null || : ;;
	compressed:*) continue ;;
	esac
	while read -r loc severity rule _; do
		case $loc in ''|'#'*) continue ;; esac
		file=$bytes shown=$case
		if [ -d "$case" ]; then
			file=$case/${loc%%:*} shown=$file
			loc=${loc#*:}
		fi
		printf '%s\t%s\t%s\t%s\n' "$rule" "$shown" "$loc" "$file"
	done < "$expected"
done | awk -F '\t' '!seen[$1]++' | while IFS="$(printf '\t')" read -r rule case loc file; do
	if [ ! -f "$file" ]; then
		:
	else case $loc in
	*:*)
		line=${loc%%:*} column=${loc#*:}
		sed -n "${line}p" "$file" | awk -v line="$line" -v col="$column" '
		{
			n = length($0); from = 1; to = n; pre = ""; post = ""
			if (n > 100) {
				from = col > 40 ? col - 40 : 1; to = col + 40 < n ? col + 40 : n
				if (from > 1) pre = "..."; if (to < n) post = "..."
			}
			text = substr($0, from, to - from + 1); gsub(/[\001-\037\177]/, " ", text)
			pad = sprintf("%*s", length(line), "")
			printf "  %s | %s%s%s\n  %s | %*s^\n", line, pre, text, post, pad, length(pre) + col - from, ""
		}' ;;
	*)
		start=$((loc - loc % 16))
		od -An -v -t u1 -j "$start" -N 16 "$file" | tr -s ' \n' '  ' | awk -v start="$start" -v at="$loc" '
		{
			hex = ""; ascii = ""
			for (i = 1; i <= NF; i++) {
				hex = hex sprintf("%02x ", $i) (i == 8 ? " " : "")
				ascii = ascii ($i >= 32 && $i < 127 ? sprintf("%c", $i) : ".")
			}
			for (; i <= 16; i++) hex = hex "   " (i == 8 ? " " : "")
			printf "  %08x: %s |%s|\n", start, hex, ascii
			i = at - start
			printf "%*s^~\n", 12 + 3 * i + (i >= 8), ""
		}' ;;
	esac; fi | awk -v rule="$rule" -v case="$case" -v loc="$loc" '
	function cstr(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return s }
	function quoted(s) { return "\"" cstr(s) "\"" }
	{ text = text cstr($0) "\\n" }
	END { printf "TL_EXAMPLE(%s, %s, %s, \"%s\")\n", quoted(rule), quoted(case), quoted(loc), text }'
done
