#!/bin/sh
# OSS-Fuzz / ClusterFuzzLite build script. Honours $CC $CXX $CFLAGS
# $LIB_FUZZING_ENGINE $OUT (and $WORK for objects) as the OSS-Fuzz base
# images set them, for libFuzzer and for AFL++ alike, and writes per target
# into $OUT: <target> (the fuzzer), <target>_seed_corpus.zip (corpus/ cases
# of its formats), <target>.dict and <target>.options. Targets: every
# fuzzers/<name>_fuzzer.c, plus <format>_mut_fuzzer with the structure-aware
# mutator for the binary formats. Needs the format libraries (libjson-c-dev, libexpat1-dev,
# zlib1g-dev, libbz2-dev, libzstd-dev) in the builder image, and links their
# static archives: the runner image that starts the targets has none of them.
set -eu
# OSS-Fuzz copies this script to $SRC and runs it from WORKDIR (the checkout).
[ -f fuzzers/build.sh ] || cd "$(dirname "$0")/.."
: "${OUT:?set OUT}"
CC=${CC:-clang}
CXX=${CXX:-clang++}
CFLAGS=${CFLAGS:-}
LIB_FUZZING_ENGINE=${LIB_FUZZING_ENGINE:--fsanitize=fuzzer}
WORK=${WORK:-$(mktemp -d)}
. fuzzers/campaign/common.sh

std="-std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE"
inc="-I. -Ivalidators/include -Ivalidators/core -Ivalidators/json -Ifuzzers -I$WORK/lib/gen"
# The library with the engine's instrumentation (CFLAGS carries it).
make -s O="$WORK/lib" CC="$CC" SANITIZE=0 CFLAGS="$CFLAGS" lib
lib=$WORK/lib/libtracelint.a
# The libraries the format modules add (json-c, expat, ...), as their static
# archives, so that a target needs only what every runner image has (libc,
# libm, libpthread, libdl, librt, libstdc++, libgcc_s).
libs=
for l in $(make -s --no-print-directory fuzz-ldlibs); do
	case $l in
	-l*)
		a=$($CC -print-file-name="lib${l#-l}.a")
		[ -f "$a" ] || { echo "fuzzers/build.sh: lib${l#-l}.a not found (its Debian -dev package ships it)" >&2; exit 1; }
		libs="$libs $a" ;;
	*) libs="$libs $l" ;;
	esac
done
helpers=$(ls fuzzers/*.c | grep -v -e '_fuzzer\.c$' -e 'regression_driver\.c$' || true)
mkdir -p "$WORK/obj"
hobjs=
for h in $helpers; do
	$CC $CFLAGS $std $inc -c "$h" -o "$WORK/obj/$(basename "$h" .c).o"
	hobjs="$hobjs $WORK/obj/$(basename "$h" .c).o"
done
# The mutators are compiled without the engine's coverage flags.
mutflags=$(echo "$CFLAGS" | sed -E 's/-fsanitize=fuzzer-no-link//g; s/-fsanitize-coverage=[^ ]*//g')
mobjs=
for m in mutator_util xray_mutator tfile_mutator umtrace_mutator; do
	$CC $mutflags $std -c "validators/mutate/$m.c" -o "$WORK/obj/$m.o"
	mobjs="$mobjs $WORK/obj/$m.o"
done

package() { # package TARGET-BINARY-NAME TARGET
	bin=$1 target=$2
	seeds=$WORK/seeds-$bin
	rm -rf "$seeds"
	collect_seeds "$target" "$seeds"
	rm -f "$OUT/${bin}_seed_corpus.zip"
	(cd "$seeds" && zip -q -r "$OUT/${bin}_seed_corpus.zip" .)
	: > "$OUT/$bin.dict"
	for fmt in $(target_formats "$target"); do
		if [ -f "fuzzers/dict/$fmt.dict" ]; then cat "fuzzers/dict/$fmt.dict" >> "$OUT/$bin.dict"; fi
	done
	[ -s "$OUT/$bin.dict" ] || rm -f "$OUT/$bin.dict"
	{
		echo "[libfuzzer]"
		echo "max_len = 65536"
		echo "timeout = 25"
		if [ -f "$OUT/$bin.dict" ]; then echo "dict = $bin.dict"; fi
	} > "$OUT/$bin.options"
}

for src in fuzzers/*_fuzzer.c; do
	name=$(basename "$src" _fuzzer.c)
	target=$(echo "$name" | tr _ -)
	$CC $CFLAGS $std $inc -c "$src" -o "$WORK/obj/${name}_fuzzer.o"
	# shellcheck disable=SC2086
	$CXX $CFLAGS "$WORK/obj/${name}_fuzzer.o" $hobjs $LIB_FUZZING_ENGINE "$lib" $libs \
		-o "$OUT/${name}_fuzzer"
	package "${name}_fuzzer" "$target"
	case $name in
	xray|tfile|umtrace)
		$CC $mutflags $std -Ivalidators/mutate -DTLM_MUTATE="tlm_${name}_mutate" \
			-c fuzzers/mutators/libfuzzer_glue.c -o "$WORK/obj/glue_$name.o"
		# shellcheck disable=SC2086
		$CXX $CFLAGS "$WORK/obj/${name}_fuzzer.o" $hobjs "$WORK/obj/glue_$name.o" $mobjs \
			$LIB_FUZZING_ENGINE "$lib" $libs -o "$OUT/${name}_mut_fuzzer"
		package "${name}_mut_fuzzer" "$target"
		;;
	esac
	echo "built $OUT/${name}_fuzzer"
done
