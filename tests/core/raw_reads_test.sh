#! /usr/bin/env atf-sh
# Validators read input bytes only through the core cursor (core/cursor.h):
# raw_reads.py lists every direct use of a tl_input's bytes (indexing, pointer
# arithmetic, dereference, memcpy) outside the cursor and the files it allows.

SRCDIR='@SRCDIR@'

atf_test_case none_in_validators
none_in_validators_head() { atf_set "descr" "no validator source reads input bytes outside the cursor"; }
none_in_validators_body() {
	python3 "$SRCDIR/tests/core/raw_reads.py" "$SRCDIR" > raw || true
	if [ -s raw ]; then
		cat raw
		atf_fail "input bytes read outside core/cursor.h (file:line above)"
	fi
}

atf_test_case finds_raw_reads
finds_raw_reads_head() { atf_set "descr" "the check reports indexing, arithmetic, aliases and memcpy, and nothing else"; }
finds_raw_reads_body() {
	mkdir -p tree/validators/fmt tree/validators/core
	cat > tree/validators/fmt/bad.c <<'C'
static int a(const struct tl_input *in) { return in->data[3]; }
static void b(const struct tl_input *in, char *buf) { memcpy(buf, in->data + 4, 2); }
static int c(const struct tl_input *in)
{
	const uint8_t *p = in->data;
	return p[1];
}
static int d(const struct tl_input *in) { return *(in->data + 2); }
C
	cat > tree/validators/fmt/good.c <<'C'
/* in->data[0] in a comment is not a read */
static bool e(const struct tl_input *in, uint64_t *v)
{
	const char *s = "in->data[1]";
	if (!in->data)
		return false;
	return tl_read_uint_at(in->data, in->size, 0, 4, false, v);
}
static int f(const uint8_t *p) { return p[1]; }
C
	printf 'static int g(const struct tl_input *in) { return in->data[0]; }\n' > tree/validators/core/cursor.h
	atf_check -s exit:1 -o save:out python3 "$SRCDIR/tests/core/raw_reads.py" tree
	atf_check -o inline:"validators/fmt/bad.c:1\nvalidators/fmt/bad.c:2\nvalidators/fmt/bad.c:6\nvalidators/fmt/bad.c:8\n" \
		cut -d: -f1,2 out
}

atf_init_test_cases() {
	atf_add_test_case none_in_validators
	atf_add_test_case finds_raw_reads
}
