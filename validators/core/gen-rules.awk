# Generates rules.inc from the rule catalogs specs/*.md.
# A catalog row is a Markdown table row whose first cell is a rule ID:
#   | TFILE-HEADER-MAGIC | error | one-line statement | seed section |
# The ID's first word names the format. Duplicate IDs, unknown severities and
# unknown prefixes stop the build, so the catalog stays the single source.
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
function cstr(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return "\"" s "\"" }
function fail(msg) { print FILENAME ":" FNR ": " msg > "/dev/stderr"; failed = 1; exit 1 }
BEGIN {
	fmt["TL"] = "core"; fmt["TFILE"] = "tfile"; fmt["XRAY"] = "xray"
	fmt["DCFG"] = "dcfg"; fmt["DTRACE"] = "dcfg-trace"; fmt["PAIR"] = "dcfg-trace"
	fmt["JSON"] = "json"; fmt["UMT"] = "umtrace"
	sev["error"] = "TL_ERROR"; sev["warning"] = "TL_WARNING"; sev["note"] = "TL_NOTE"
}
FNR == 1 { fence = 0 }
/^[ \t]*```/ { fence = !fence; next }
!fence && /^\|[ \t]*[A-Z][A-Z0-9]*(-[A-Z0-9]+)+[ \t]*\|/ {
	line = $0
	gsub(/\\\|/, "\001", line)          # an escaped pipe inside a cell
	n = split(line, cell, "|")
	if (n < 6) fail("a rule row needs 4 cells: ID | severity | statement | source")
	id = trim(cell[2]); s = trim(cell[3]); text = trim(cell[4]); src = trim(cell[5])
	gsub(/\001/, "|", text); gsub(/\001/, "|", src)
	gsub(/`/, "", text)
	if (!(s in sev)) fail("rule " id ": severity must be error, warning or note, not '" s "'")
	prefix = id; sub(/-.*/, "", prefix)
	if (!(prefix in fmt)) fail("rule " id ": unknown prefix " prefix)
	if (id in seen) fail("rule " id " is defined twice (first at " seen[id] ")")
	if (text == "") fail("rule " id " has no statement")
	seen[id] = FILENAME ":" FNR
	sym = "RULE_" id; gsub(/-/, "_", sym)
	printf "TL_RULE(%s, %s, %s, %s, %s, %s)\n", sym, cstr(id), sev[s], cstr(fmt[prefix]), cstr(text), cstr(src)
}
