#!/bin/sh
# Writes the rule reference from what `tracelint --explain -o json` prints
# (the catalogs' text and the corpus examples compiled into it): one Markdown
# page per rule, OUT/rules/RULE-ID.md, and the manual page OUT/tracelint-rules.7.
# Usage: gen-rule-docs.sh TRACELINT OUT VERSION
set -eu
tracelint=$1 out=$2 version=$3
mkdir -p "$out/rules"
json=$out/rules.json
"$tracelint" --explain -o json '*' > "$json"

jq -r '.rules[] |
	"\u0001\(.id)",
	"# \(.id)", "",
	"Severity **\(.severity)**, format `\(.format)`.", "",
	"## What it checks", "", .summary, "",
	(if (.messages | length) > 0 then
		("## Message template" + (if (.messages | length) > 1 then "s" else "" end), "",
		 "```", .messages[], "```", "")
	 else empty end),
	"## Why it matters", "", (.why // "Not written yet."), "",
	(if .example then
		("## Example", "",
		 "The test corpus case `\(.example.path)` breaks it at " +
			(if (.example.location | test(":")) then "line:column " else "offset " end) +
			"\(.example.location):", "",
		 "```", (.example.excerpt | rtrimstr("\n")), "```", "")
	 else empty end),
	"## How to fix it", "", (.fix // "Not written yet."), "",
	"## Source", "", .source' "$json" |
awk -v dir="$out/rules" '
	/^\001/ { if (page) close(page); page = dir "/" substr($0, 2) ".md"; next }
	{ print > page }'

{
	printf '.TH TRACELINT-RULES 7 "" "tracelint %s" "Miscellaneous Information Manual"\n' "$version"
	printf '.SH NAME\ntracelint-rules \\- the rules tracelint checks, explained\n'
	printf '.SH DESCRIPTION\nEach rule has a stable ID, a default severity and a format. '
	printf '\\fBtracelint \\-\\-explain\\fR \\fIRULE\\fR prints the same text.\n.SH RULES\n'
	jq -r '
	def roff: gsub("\\\\"; "\\e") | gsub("-"; "\\-") | gsub("\n(?<c>[.\u0027])"; "\n\\&\(.c)") |
		if test("^[.\u0027]") then "\\&" + . else . end;
	.rules[] |
		".SS \(.id | roff)",
		"\\fI\(.severity)\\fR, format \\fB\(.format | roff)\\fR.",
		".PP", "\\fBWhat it checks.\\fR \(.summary | roff)",
		(if (.messages | length) > 0 then
			(".PP", "\\fBMessage template" + (if (.messages | length) > 1 then "s" else "" end) + ".\\fR",
			 ".RS", ".nf", (.messages[] | roff), ".fi", ".RE")
		 else empty end),
		".PP", "\\fBWhy it matters.\\fR \((.why // "Not written yet.") | roff)",
		(if .example then
			(".PP", "\\fBExample.\\fR The test corpus case \\fI\(.example.path | roff)\\fR breaks it at " + (if (.example.location | test(":")) then "line:column " else "offset " end) + "\(.example.location):",
			 ".PP", ".RS", ".nf", (.example.excerpt | rtrimstr("\n") | roff), ".fi", ".RE")
		 else empty end),
		".PP", "\\fBHow to fix it.\\fR \((.fix // "Not written yet.") | roff)",
		".PP", "\\fBSource.\\fR \(.source | roff)"' "$json"
	printf '.SH SEE ALSO\n.BR tracelint (1)\n'
} > "$out/tracelint-rules.7"
rm -f "$json"
