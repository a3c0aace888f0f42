# Reads tracelint --context output; for each binary diagnostic checks one
# field marker ('^') and, when the diagnostic names a record, a decoded line.
# Rules whose offset is past the bytes (an end of file, a missing member) may
# have no marker; rules whose offset starts no whole record (a record cut by
# its buffer's end, a buffer without its extents, a short basic-mode file,
# the limit note) may have no decoded line: their IDs are in -v nomark="..."
# and -v nodecode="..." (space-separated).
function finish() {
	if (!diag) return
	if (carets != 1 && !(carets == 0 && (" " nomark " ") ~ (" " rule " "))) {
		printf "%s: %d markers\n", diag, carets; bad++
	}
	if (want && !decoded && (" " nodecode " ") !~ (" " rule " ")) {
		printf "%s: no decoded line\n", diag; bad++
	}
	n++
	diag = ""
}
/^  [0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]: / { next }
/^ +[\^~]/ { if (diag) carets += gsub(/\^/, "^"); next }
/^  [a-zA-Z ]+[0-9]*: / { if (diag) decoded = 1; next }
{
	finish()
	if ($0 ~ /:offset [0-9]+( \(record [0-9]+\))?: (error|warning|note):/) {
		diag = $0; carets = 0; decoded = 0
		rule = $0; sub(/.*\[/, "", rule); sub(/\].*/, "", rule)
		want = ($0 ~ /\(record [0-9]+\)/)
	}
}
END { finish(); printf "%d diagnostics checked, %d problems\n", n, bad; exit bad > 0 }
