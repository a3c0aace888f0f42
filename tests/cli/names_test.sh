#! /usr/bin/env atf-sh
# Hostile file names in every output style: JSON and SARIF stay parseable and
# valid UTF-8, SARIF URIs are percent-encoded, and text output carries no raw
# control character (a newline or ESC in a name cannot forge a diagnostic
# line or drive the terminal).

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'
TL="$BUILDDIR/tracelint"
BAD="$SRCDIR/corpus/xray/invalid/v1-stride.xray"

# hostile copies of an invalid XRay trace: newline, ESC, bytes 0xFF 0xFE, URI specials
make_names() {
	cp "$BAD" "$(printf 'new\nline: error: forged [X].xray')"
	cp "$BAD" "$(printf 'esc\033[31mred.xray')"
	cp "$BAD" "$(printf 'bytes\377\376.xray')"
	cp "$BAD" 'sp ace#%?.xray'
}

atf_test_case json_parses
json_parses_head() { atf_set "descr" "JSON output of hostile names is valid JSON and UTF-8; non-UTF-8 names keep their bytes in path_hex"; }
json_parses_body() {
	make_names
	"$TL" -o json -- * > out.json
	atf_check -o inline:"4\n" jq '.files | length' out.json
	atf_check -o ignore iconv -f UTF-8 -t UTF-8 out.json
	atf_check -o inline:"6279746573fffe2e78726179\n" jq -r '.files[] | select(.path_hex) | .path_hex' out.json
	atf_check -o match:'^bytesÿþ\.xray$' jq -r '.files[] | select(.path_hex) | .path' out.json
}

atf_test_case sarif_uris_encoded
sarif_uris_encoded_head() { atf_set "descr" "SARIF of hostile names parses and its URIs are percent-encoded"; }
sarif_uris_encoded_body() {
	make_names
	"$TL" -o sarif -- * > out.sarif
	atf_check -o ignore iconv -f UTF-8 -t UTF-8 out.sarif
	jq -r '.runs[0].results[].locations[0].physicalLocation.artifactLocation.uri' out.sarif | sort -u > uris
	atf_check -o match:'^sp%20ace%23%25%3F\.xray$' -o match:'^bytes%FF%FE\.xray$' \
		-o match:'^new%0Aline%3A%20error%3A%20forged%20%5BX%5D\.xray$' -o match:'^esc%1B%5B31mred\.xray$' cat uris
	atf_check -s exit:1 grep -E '[^A-Za-z0-9%._~/-]' uris
}

atf_test_case text_escapes_controls
text_escapes_controls_head() { atf_set "descr" "text output escapes control characters of names"; }
text_escapes_controls_body() {
	make_names
	"$TL" -- * > out.txt
	# every line is a diagnostic or a verdict of one of the four files: none is forged
	atf_check -s exit:1 grep -an "$(printf '\033')" out.txt
	atf_check -o match:'^new\\x0aline: error: forged \[X\]\.xray:offset 1056: error: ' cat out.txt
	atf_check -o match:'^esc\\x1b\[31mred\.xray: invalid' cat out.txt
	atf_check -s exit:1 -o inline:"0\n" grep -ac '^line: error: forged' out.txt
}

atf_init_test_cases() {
	atf_add_test_case json_parses
	atf_add_test_case sarif_uris_encoded
	atf_add_test_case text_escapes_controls
}
