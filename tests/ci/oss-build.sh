#!/bin/sh
# Runs the project's build script as the OSS-Fuzz / ClusterFuzzLite base
# builder would, without a container: the checkout copied to $SRC/tracelint,
# .clusterfuzzlite/build.sh copied to $SRC/build.sh and run from the checkout
# with the base builder's compiler variables for one variant, $WORK and $OUT
# beside it; then, as the build check does, every target in $OUT runs over
# its seed corpus zip. Exit status 0 when every target built and ran.
#
# usage: oss-build.sh VARIANT SOURCE-TREE ROOT
#   VARIANT: libfuzzer-address | libfuzzer-undefined | afl-address | coverage
#   ROOT: an empty directory that gets src/ work/ out/
set -eu
variant=$1 tree=$2 root=$3
SRC=$root/src WORK=$root/work OUT=$root/out
mkdir -p "$SRC/tracelint" "$WORK" "$OUT"
# COPY . $SRC/tracelint (the build output and git metadata are not sources).
(cd "$tree" && tar -cf - --exclude=./build --exclude=./.git .) | (cd "$SRC/tracelint" && tar -xf -)
cp "$tree/.clusterfuzzlite/build.sh" "$SRC/build.sh"

# The base images' flags (base-clang, base-builder and its compile scripts).
base="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"
asan="-fsanitize=address -fsanitize-address-use-after-scope"
ubsan_checks=array-bounds,bool,builtin,enum,float-divide-by-zero,integer-divide-by-zero,null,object-size,return,returns-nonnull-attribute,shift,signed-integer-overflow,unreachable,vla-bound
ubsan="-fsanitize=$ubsan_checks,unsigned-integer-overflow -fno-sanitize-recover=$ubsan_checks"
CC=clang CXX=clang++ LIB_FUZZING_ENGINE=-fsanitize=fuzzer FUZZING_ENGINE=libfuzzer
coverage_flags=-fsanitize=fuzzer-no-link
case $variant in
libfuzzer-address) SANITIZER=address flags="$asan" ;;
libfuzzer-undefined) SANITIZER=undefined flags="$ubsan" ;;
afl-address)
	SANITIZER=address flags="$asan" FUZZING_ENGINE=afl coverage_flags=
	CC=afl-clang-fast CXX=afl-clang-fast++ LIB_FUZZING_ENGINE=${AFL_DRIVER:-/usr/lib/afl/libAFLDriver.a}
	export AFL_QUIET=1 ;;
coverage)
	SANITIZER=coverage flags=
	coverage_flags="-fprofile-instr-generate -fcoverage-mapping -pthread -Wl,--no-as-needed -Wl,-ldl -Wl,-lm -Wno-unused-command-line-argument" ;;
*) echo "oss-build.sh: unknown variant $variant" >&2; exit 2 ;;
esac
CFLAGS="$base $flags $coverage_flags"
CXXFLAGS=$CFLAGS
export SRC WORK OUT CC CXX CFLAGS CXXFLAGS LIB_FUZZING_ENGINE SANITIZER FUZZING_ENGINE ARCHITECTURE=x86_64
(cd "$SRC/tracelint" && bash -eu "$SRC/build.sh") > "$root/build.log" 2>&1 || {
	tail -n 40 "$root/build.log" >&2
	echo "oss-build.sh: $variant: build.sh failed" >&2
	exit 1
}

# The targets: executables without a dot in their name, as ClusterFuzz finds them.
n=0
for t in "$OUT"/*; do
	name=$(basename "$t")
	[ -f "$t" ] && [ -x "$t" ] || continue
	case $name in *.*) continue ;; esac
	case $name in *[!A-Za-z0-9_-]*) echo "oss-build.sh: bad target name $name" >&2; exit 1 ;; esac
	for f in "${name}_seed_corpus.zip" "$name.options"; do
		[ -s "$OUT/$f" ] || { echo "oss-build.sh: $name has no $f" >&2; exit 1; }
	done
	seeds=$WORK/run-seeds/$name
	rm -rf "$seeds" && mkdir -p "$seeds"
	(cd "$seeds" && unzip -q "$OUT/${name}_seed_corpus.zip")
	count=$(find "$seeds" -type f | wc -l)
	[ "$count" -gt 0 ] || { echo "oss-build.sh: $name: empty seed corpus" >&2; exit 1; }
	case $variant in
	afl-*)
		# The AFL++ driver runs each file given on its command line once.
		find "$seeds" -type f -exec "$t" {} + > "$WORK/run-$name.log" 2>&1 ;;
	*)
		LLVM_PROFILE_FILE=$WORK/profraw/$name.%p.profraw \
			"$t" -runs=0 -timeout=25 -rss_limit_mb=2560 "$seeds" > "$WORK/run-$name.log" 2>&1 ;;
	esac || { tail -n 30 "$WORK/run-$name.log" >&2; echo "oss-build.sh: $name failed on its seeds" >&2; exit 1; }
	if [ "$variant" = coverage ] && ! ls "$WORK/profraw/$name".*.profraw > /dev/null 2>&1; then
		echo "oss-build.sh: $name wrote no coverage profile" >&2
		exit 1
	fi
	echo "$variant: $name ran $count seeds"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "oss-build.sh: no target in $OUT" >&2; exit 1; }
echo "$variant: $n targets"
