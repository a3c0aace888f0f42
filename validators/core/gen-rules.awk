# Generates rules.inc from the rule catalogs specs/*.md.
# A catalog row is a Markdown table row whose first cell is a rule ID:
#   | TFILE-HEADER-MAGIC | error | one-line statement | seed section |
# The ID's first word names the format. Duplicate IDs, unknown severities and
# unknown prefixes stop the build, so the catalog stays the single source.
#
# With -v emit=explain it prints the rules' explanations instead, for
# --explain and the rule pages: a block under a heading that is a rule ID,
#   ### TFILE-HEADER-MAGIC
#   Why: what goes wrong in which reader when the rule is broken.
#   Fix: what a producer should change.
# (each paragraph may continue on the next lines), as
#   TL_EXPLAIN("ID", "why", "fix")
# An explanation of a rule the catalogs do not define stops the build.
#
# A fifth cell, when present, is the rule's former ID, still accepted as an
# alias; with -v emit=aliases they are printed as TL_ALIAS("OLD", "ID").
#
# The rows of a "## Messages" table are the diagnostics' message templates:
#   | XRAY-BASIC-SIZE | XRAY-BASIC-SIZE | `expected ..., found %<PRIu64> bytes` |
# (name, the rules reported with it, the printf format; <PRIu64> stands for
# that macro). With -v emit=messages they are printed as a C header,
#   #define MSG_XRAY_BASIC_SIZE "expected ..., found %" PRIu64 " bytes"
# and with emit=explain also as TL_MESSAGE("RULE-ID", "template") per rule.
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
function cstr(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return "\"" s "\"" }
function fail(msg) { print FILENAME ":" FNR ": " msg > "/dev/stderr"; failed = 1; exit 1 }
BEGIN {
	fmt["TL"] = "core"; fmt["TFILE"] = "tfile"; fmt["XRAY"] = "xray"
	fmt["DCFG"] = "dcfg"; fmt["DTRACE"] = "dcfg-trace"; fmt["PAIR"] = "dcfg-trace"
	fmt["JSON"] = "json"; fmt["UMT"] = "umtrace"
	sev["error"] = "TL_ERROR"; sev["warning"] = "TL_WARNING"; sev["note"] = "TL_NOTE"
}
function ctemplate(t,    out) {
	t = cstr(t); out = ""
	while (match(t, /<PRI[A-Za-z0-9]+>/)) {
		out = out substr(t, 1, RSTART - 1) "\" " substr(t, RSTART + 1, RLENGTH - 2) " \""
		t = substr(t, RSTART + RLENGTH)
	}
	return out t
}
FNR == 1 { fence = 0; explaining = ""; messages = 0 }
/^[ \t]*```/ { fence = !fence; next }
!fence && /^#/ {
	explaining = ""
	if ($0 ~ /^## /) messages = $0 ~ /^## Messages[ \t]*$/
	if ($0 ~ /^### [A-Z][A-Z0-9]*(-[A-Z0-9]+)+[ \t]*$/) {
		explaining = trim(substr($0, 5))
		if (explaining in explained) fail("rule " explaining " is explained twice")
		explained[explaining] = FILENAME ":" FNR
		order[++explanations] = explaining
		part = ""
	}
	next
}
!fence && explaining != "" {
	line = trim($0)
	if (line == "") { part = ""; next }
	if (line ~ /^Why:/) { part = "why"; line = trim(substr(line, 5)) }
	else if (line ~ /^Fix:/) { part = "fix"; line = trim(substr(line, 5)) }
	else if (part == "") fail("rule " explaining ": an explanation paragraph starts with Why: or Fix:")
	key = explaining SUBSEP part
	had = key in text_of
	text_of[key] = had ? text_of[key] " " line : line
	next
}
!fence && messages && /^\|[ \t]*[A-Z][A-Z0-9]*(-[A-Z0-9]+)+[ \t]*\|/ {
	line = $0
	gsub(/\\\|/, "\001", line)
	n = split(line, cell, "|")
	if (n != 5) fail("a message row needs 3 cells: name | rules | `template`")
	name = trim(cell[2]); template = trim(cell[4])
	if (name in message) fail("message " name " is defined twice")
	if (template !~ /^`.*`$/) fail("message " name ": the template is written in backquotes")
	sub(/^``? ?/, "", template); sub(/ ?``?$/, "", template); gsub(/\001/, "|", template)
	if (template == "") fail("message " name " has no template")
	message[name] = template; message_at[name] = FILENAME ":" FNR
	message_rules[name] = trim(cell[3])
	if (message_rules[name] == "") fail("message " name " names no rule")
	message_order[++message_count] = name
	next
}
!fence && /^\|[ \t]*[A-Z][A-Z0-9]*(-[A-Z0-9]+)+[ \t]*\|/ {
	line = $0
	gsub(/\\\|/, "\001", line)          # an escaped pipe inside a cell
	n = split(line, cell, "|")
	if (n < 6) fail("a rule row needs 4 cells: ID | severity | statement | source")
	id = trim(cell[2]); s = trim(cell[3]); text = trim(cell[4]); src = trim(cell[5])
	alias = n >= 7 ? trim(cell[6]) : ""
	gsub(/\001/, "|", text); gsub(/\001/, "|", src)
	gsub(/`/, "", text)
	if (!(s in sev)) fail("rule " id ": severity must be error, warning or note, not '" s "'")
	prefix = id; sub(/-.*/, "", prefix)
	if (!(prefix in fmt)) fail("rule " id ": unknown prefix " prefix)
	if (id in seen) fail("rule " id " is defined twice (first at " seen[id] ")")
	if (text == "") fail("rule " id " has no statement")
	seen[id] = FILENAME ":" FNR
	sym = "RULE_" id; gsub(/-/, "_", sym)
	if (alias != "") {
		if (alias !~ /^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$/) fail("rule " id ": former ID '" alias "' is not an ID")
		if (alias in seen || alias in former) fail("former ID " alias " is used twice")
		former[alias] = id
		if (emit == "aliases") printf "TL_ALIAS(%s, %s)\n", cstr(alias), cstr(id)
	}
	if (emit != "") next
	printf "TL_RULE(%s, %s, %s, %s, %s, %s)\n", sym, cstr(id), sev[s], cstr(fmt[prefix]), cstr(text), cstr(src)
}
END {
	if (failed) exit failed
	for (a in former) if (a in seen) { print "former ID " a " is also a rule ID" > "/dev/stderr"; exit 1 }
	if (emit == "messages") {
		print "/* The diagnostics' message templates, generated by gen-rules.awk from"
		print " * the \"## Messages\" tables of the rule catalogs in specs/. */"
		print "#ifndef TL_MESSAGES_H\n#define TL_MESSAGES_H\n\n#include <inttypes.h>\n"
	}
	for (i = 1; i <= message_count; i++) {
		name = message_order[i]
		k = split(message_rules[name], owner, /[ \t]+/)
		named_rule = 0
		for (j = 1; j <= k; j++) {
			if (!(owner[j] in seen)) { print message_at[name] ": message " name " names " owner[j] ", which no catalog defines" > "/dev/stderr"; exit 1 }
			if (owner[j] == name) named_rule = 1
		}
		if (name in seen && !named_rule) { print message_at[name] ": message " name " is another rule's ID" > "/dev/stderr"; exit 1 }
		sym = "MSG_" name; gsub(/-/, "_", sym)
		if (emit == "messages") printf "#define %s %s\n", sym, ctemplate(message[name])
		if (emit == "explain")
			for (j = 1; j <= k; j++) printf "TL_MESSAGE(%s, %s)\n", cstr(owner[j]), cstr(message[name])
	}
	if (emit == "messages") print "\n#endif"
	if (emit != "explain") exit 0
	for (i = 1; i <= explanations; i++) {
		id = order[i]
		if (!(id in seen)) { print explained[id] ": an explanation of " id ", which no catalog defines" > "/dev/stderr"; exit 1 }
		why = text_of[id SUBSEP "why"]; fix = text_of[id SUBSEP "fix"]
		gsub(/`/, "", why); gsub(/`/, "", fix)
		printf "TL_EXPLAIN(%s, %s, %s)\n", cstr(id), cstr(why), cstr(fix)
	}
}
