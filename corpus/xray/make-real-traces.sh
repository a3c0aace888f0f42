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
# Run from the repository root: sh corpus/xray/make-real-traces.sh
set -eu
out=$(pwd)/corpus/xray/valid
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

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
chmod 644 "$out"/real-*.xray "$out"/../invalid/real-*.xray
ls -l "$out"/real-*.xray "$out"/../invalid/real-*.xray
