# Shared helpers of the campaign scripts (sourced, not run).

# The corpus formats a target reads.
target_formats() {
	case $1 in
	autodetect) echo "xray tfile dcfg dcfg-trace umtrace" ;;
	repair) echo "xray tfile dcfg dcfg-trace" ;;
	dcfg-pair|dcfg_pair) echo "dcfg dcfg-trace" ;;
	dcfg_trace) echo "dcfg-trace" ;;
	xray_instr_map | xray-instr-map) echo "xray_instr_map" ;;
	*) echo "$1" ;;
	esac
}

# The format a regression case of this target belongs to ("" = detect).
target_format() {
	case $1 in
	autodetect | repair) echo "" ;;
	dcfg-pair|dcfg_pair|dcfg_trace) echo "dcfg-trace" ;;
	*) echo "$1" ;;
	esac
}

# fuzzers/<name>_fuzzer.c spells dashes as underscores.
target_source_name() {
	echo "$1" | tr - _
}

# Copies the case files (not sidecars, not scripts) of the target's formats
# into a flat seed directory. Trace directories are skipped: the packed
# container of a directory target is built by its own fuzzer's owner.
collect_seeds() {
	target=$1 dest=$2
	mkdir -p "$dest"
	for fmt in $(target_formats "$target"); do
		for kind in valid invalid regressions; do
			dir=corpus/$fmt/$kind
			[ -d "$dir" ] || continue
			find "$dir" -type f ! -name '*.expected' ! -name '*.args' ! -name '*.md' \
				! -name '*.sh' ! -name '*.py' ! -name 'README*' | while read -r f; do
				cp "$f" "$dest/$fmt-$kind-$(echo "${f#$dir/}" | tr / _)"
			done
		done
	done
	# The pair target reads "DCFG \n%%TRACE%%\n DCFG-trace": join each trace
	# case with the DCFG its --pair names.
	case $target in dcfg-pair|dcfg_pair)
		find corpus/dcfg-trace -name '*.args' | while read -r a; do
			pair=$(sed -n 's/^--pair=//p' "$a")
			c=${a%.args}
			[ -n "$pair" ] && [ -f "$(dirname "$c")/$pair" ] && [ -f "$c" ] || continue
			{ cat "$(dirname "$c")/$pair"; printf '\n%%%%TRACE%%%%\n'; cat "$c"; } \
				> "$dest/pair-$(basename "$c")"
		done ;;
	# The ELF reader of --instr-map: the instrumented binaries kept beside the
	# XRay corpus (stored zstd-compressed), as the fuzzer must see them.
	xray_instr_map|xray-instr-map)
		for b in corpus/xray/binaries/*; do
			[ -f "$b" ] || continue
			case $b in
			*.zst) ! command -v zstd > /dev/null || zstd -q -d -c "$b" > "$dest/elf-$(basename "$b" .zst)" ;;
			*) cp "$b" "$dest/elf-$(basename "$b")" ;;
			esac
		done ;;
	esac
	d=fuzzers/seeds/$(target_source_name "$target")
	[ -d "$d" ] && cp "$d"/* "$dest"/ 2>/dev/null
	return 0
}

# Files and bytes of a directory, as "N files, B bytes".
dir_size() {
	n=$(find "$1" -type f | wc -l)
	b=$(find "$1" -type f -exec cat {} + 2>/dev/null | wc -c)
	echo "$n files, $b bytes"
}
