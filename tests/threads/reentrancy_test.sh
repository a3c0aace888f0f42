#! /usr/bin/env atf-sh
# The library is reentrant: two threads validating files of every format at
# once get exactly what one thread gets (tests/threads/reentrancy.c), with
# the suite's sanitizers and under ThreadSanitizer.

SRCDIR='@SRCDIR@'
BUILDDIR='@BUILDDIR@'

atf_test_case two_threads
two_threads_head() { atf_set "descr" "two threads, every format, 20 rounds: results equal one thread's"; }
two_threads_body() {
	atf_check -o match:'^440 validations in two threads, 0 differed' "$BUILDDIR/threads/reentrancy" "$SRCDIR" 20
}

atf_test_case thread_sanitizer
thread_sanitizer_head() { atf_set "descr" "the same under ThreadSanitizer: no data race, same results"; }
thread_sanitizer_body() {
	# TSan exits 66 on a race; halt_on_error makes the first one decisive
	TSAN_OPTIONS="halt_on_error=1 exitcode=66" atf_check -o match:', 0 differed' \
		"$BUILDDIR/threads/reentrancy-tsan" "$SRCDIR" 5
}

atf_init_test_cases() {
	atf_add_test_case two_threads
	atf_add_test_case thread_sanitizer
}
