#!/bin/sh
# Writes real XRay traces with compiler-rt (clang 14 here) into corpus/xray/valid/:
#   real-fdr-v5.xray         FDR mode, two worker threads, arguments logged, small buffers
#   real-fdr-v5-ring.xray    FDR mode with too few buffers: the ring overwrote old ones
#   real-basic-v3.xray       basic (naive) mode, the same program
#   real-fdr-v5-events.xray  FDR mode with custom events (built at -O0: clang 14 crashes
#                            compiling event sleds at -O2)
#   real-fdr-v5-tail.xray    FDR mode, a sibling call built at -O2 (a Tail_Exit record)
#   ../invalid/real-fdr-v5-typed-extents.xray
#                            the same with a typed event: compiler-rt 14 counts only the
#                            payload in the extents, so the buffer is 16 bytes short and
#                            its last record is cut (specs/xray.md, decision D9)
#   real-fdr-v5-mapped.xray  FDR mode, three functions, with the instrumented binary kept
#                            (stripped, zstd-compressed) as binaries/mapped.elf.zst and a
#                            .args sidecar --instr-map=../binaries/mapped.elf.zst
#   ../invalid/instr-map-undefined.xray
#                            that trace with one call's Entry and Exit renamed to id 4,
#                            which the binary does not define (XRAY-FUNCTION-ID-UNDEFINED)
# Run from the repository root: sh corpus/xray/make-real-traces.sh
# (sh corpus/xray/make-real-traces.sh mapped: only the last two, leaving the others as they are)
set -eu
only=${1:-all}
root=$(pwd)
out=$root/corpus/xray/valid
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# A trace together with the binary that wrote it, for --instr-map (specs/xray.md D14).
# Only the FDR runtime is linked, which keeps the binary near 110 KB stripped, 40 KB compressed.
make_mapped() {
	cat > mapped.cc <<'SRC'
#include <stdio.h>
#include "xray/xray_interface.h"
#include "xray/xray_log_interface.h"

__attribute__((xray_always_instrument, noinline)) static int leaf(int x) { return x * 3 + 1; }
__attribute__((xray_always_instrument, noinline)) static int middle(int x) { return leaf(x) + leaf(x + 1); }
__attribute__((xray_always_instrument, noinline)) static int top(int x) { return middle(x) - 1; }

__attribute__((xray_never_instrument)) int main(void)
{
	if (__xray_log_select_mode("xray-fdr") != XRAY_REGISTRATION_OK ||
	    __xray_log_init_mode("xray-fdr", "buffer_size=1024:buffer_max=8:"
				 "func_duration_threshold_us=0") != XRAY_LOG_INITIALIZED)
		return 1;
	__xray_patch();
	volatile int r = 0;
	for (int i = 0; i < 3; i++)
		r += top(i);
	printf("%d\n", r);
	__xray_log_finalize();
	__xray_log_flushLog();
	return 0;
}
SRC
	clang++ -O1 -fxray-instrument -fxray-instruction-threshold=1 -fxray-modes=xray-fdr \
		-Wl,--gc-sections -o mapped mapped.cc
	rm -f fdr-*
	XRAY_OPTIONS="verbosity=1 xray_logfile_base=fdr-" ./mapped
	cp fdr-* "$out/real-fdr-v5-mapped.xray"
	strip -o mapped.stripped mapped
	mkdir -p "$root/corpus/xray/binaries"
	zstd -19 -q -f -o "$root/corpus/xray/binaries/mapped.elf.zst" mapped.stripped
	echo '--instr-map=../binaries/mapped.elf.zst' > "$out/real-fdr-v5-mapped.xray.args"
	# llvm-xray resolves every id of the trace to an address in the map ("#N" would be an
	# id the map does not define).
	llvm-xray convert --symbolize --instr_map=mapped.stripped --output-format=yaml \
		"$out/real-fdr-v5-mapped.xray" > mapped.yaml
	if grep -q "function: '#" mapped.yaml; then
		echo "llvm-xray finds ids the map does not define in the valid trace" >&2
		exit 1
	fi
	# The first leaf call: Entry of id 3 at 128, its Exit at 136 (preamble of 5 records,
	# then top and middle entered). Both become id 4.
	bad=$out/../invalid/instr-map-undefined.xray
	cp "$out/real-fdr-v5-mapped.xray" "$bad"
	if [ "$(od -An -tx1 -j128 -N2 "$bad")$(od -An -tx1 -j136 -N2 "$bad")" != " 30 00 32 00" ]; then
		echo "the trace does not have the expected leaf call at offset 128" >&2
		exit 1
	fi
	printf '\100' | dd of="$bad" bs=1 seek=128 conv=notrunc 2> /dev/null
	printf '\102' | dd of="$bad" bs=1 seek=136 conv=notrunc 2> /dev/null
	llvm-xray convert --symbolize --instr_map=mapped.stripped --output-format=yaml "$bad" |
		grep -c "function: '#4'" | grep -qx 2
	echo '--instr-map=../binaries/mapped.elf.zst' > "$bad.args"
	msg='expected a function id 1..3 from corpus/xray/invalid/../binaries/mapped.elf.zst, found 4'
	printf '# intent: must-reject\n128 error XRAY-FUNCTION-ID-UNDEFINED %s\n136 error XRAY-FUNCTION-ID-UNDEFINED %s\n' "$msg" "$msg" > "$bad.expected"
	chmod 644 "$out/real-fdr-v5-mapped.xray" "$bad" "$root/corpus/xray/binaries/mapped.elf.zst"
}
if [ "$only" = mapped ]; then
	make_mapped
	exit 0
fi

cat > prog.cc <<'SRC'
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xray/xray_interface.h"
#include "xray/xray_log_interface.h"

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__attribute__((xray_always_instrument, xray_log_args(1), noinline))
static int logged(int x) { return fib(x % 5); }

/* A sibling call at -O1: the runtime writes a Tail_Exit for tail_caller. */
__attribute__((xray_always_instrument, noinline))
static int tail_callee(int x) { return fib(x) + 1; }
__attribute__((xray_always_instrument, noinline))
static int tail_caller(int x) { return tail_callee(x + 1); }

static void *worker(void *arg)
{
	volatile int r = 0;
	for (int i = 0; i < 6; i++)
		r += logged((int)(intptr_t)arg + i) + tail_caller(i);
	return NULL;
}

__attribute__((xray_never_instrument)) int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	bool fdr = strncmp(mode, "fdr", 3) == 0;
	if (fdr) {
		const char *opts = strcmp(mode, "fdr-ring") == 0
			? "buffer_size=512:buffer_max=2:func_duration_threshold_us=0"
			: "buffer_size=1024:buffer_max=64:func_duration_threshold_us=0";
		if (__xray_log_select_mode("xray-fdr") != XRAY_REGISTRATION_OK ||
		    __xray_log_init_mode("xray-fdr", opts) != XRAY_LOG_INITIALIZED)
			return 1;
		__xray_patch();
	}
	pthread_t t[2];
	for (intptr_t i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)(i + 3));
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%d\n", logged(4));
	if (fdr) {
		__xray_log_finalize();
		__xray_log_flushLog();
	}
	return 0;
}
SRC
clang++ -O1 -fxray-instrument -fxray-instruction-threshold=1 -pthread -o prog prog.cc

XRAY_OPTIONS="verbosity=1 xray_logfile_base=fdr-" ./prog fdr
cp fdr-* "$out/real-fdr-v5.xray"
rm -f fdr-*
XRAY_OPTIONS="verbosity=1 xray_logfile_base=fdr-" ./prog fdr-ring
cp fdr-* "$out/real-fdr-v5-ring.xray"
rm -f fdr-*
XRAY_OPTIONS="patch_premain=true xray_mode=xray-basic verbosity=1 xray_logfile_base=basic-" ./prog basic
cp basic-* "$out/real-basic-v3.xray"

cat > events.cc <<'SRC'
#include <stdio.h>
#include <string.h>
#include "xray/xray_interface.h"
#include "xray/xray_log_interface.h"

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__attribute__((xray_always_instrument, noinline))
static void custom(const char *s) { __xray_customevent(s, strlen(s)); }

__attribute__((xray_always_instrument, noinline))
static void typed(const char *s) { __xray_typedevent(7, s, strlen(s)); }

__attribute__((xray_never_instrument)) int main(int argc, char **argv)
{
	if (__xray_log_select_mode("xray-fdr") != XRAY_REGISTRATION_OK ||
	    __xray_log_init_mode("xray-fdr", "buffer_size=2048:buffer_max=16:"
				 "func_duration_threshold_us=0") != XRAY_LOG_INITIALIZED)
		return 1;
	__xray_patch();
	custom("hello");
	printf("%d\n", fib(4));
	if (argc > 1)
		typed("typed!");
	custom("bye");
	__xray_log_finalize();
	__xray_log_flushLog();
	return 0;
}
SRC
clang++ -O0 -fxray-instrument -fxray-instruction-threshold=1 -fxray-always-emit-customevents \
	-fxray-always-emit-typedevents -o events events.cc
rm -f fdr-*
XRAY_OPTIONS="verbosity=1 xray_logfile_base=fdr-" ./events
cp fdr-* "$out/real-fdr-v5-events.xray"
rm -f fdr-*
XRAY_OPTIONS="verbosity=1 xray_logfile_base=fdr-" ./events typed
cp fdr-* "$out/../invalid/real-fdr-v5-typed-extents.xray"
cat > tail.cc <<'SRC'
#include <stdio.h>
#include "xray/xray_interface.h"
#include "xray/xray_log_interface.h"

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__attribute__((xray_always_instrument, noinline)) int tail_callee(int x) { return fib(x) + 1; }

/* At -O2 the call becomes a jump: XRay logs Tail_Exit of tail_caller. */
__attribute__((xray_always_instrument, noinline)) int tail_caller(int x) { return tail_callee(x + 1); }

__attribute__((xray_never_instrument)) int main(void)
{
	if (__xray_log_select_mode("xray-fdr") != XRAY_REGISTRATION_OK ||
	    __xray_log_init_mode("xray-fdr", "buffer_size=1024:buffer_max=8:"
				 "func_duration_threshold_us=0") != XRAY_LOG_INITIALIZED)
		return 1;
	__xray_patch();
	printf("%d\n", tail_caller(3));
	__xray_log_finalize();
	__xray_log_flushLog();
	return 0;
}
SRC
clang++ -O2 -fxray-instrument -fxray-instruction-threshold=1 -o tail tail.cc
rm -f fdr-*
XRAY_OPTIONS="verbosity=1 xray_logfile_base=fdr-" ./tail
cp fdr-* "$out/real-fdr-v5-tail.xray"
make_mapped
chmod 644 "$out"/real-*.xray "$out"/../invalid/real-*.xray
ls -l "$out"/real-*.xray "$out"/../invalid/real-*.xray
