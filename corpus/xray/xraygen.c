/* xraygen: writes synthetic LLVM XRay traces for the tracelint corpus.
 *
 *   xraygen DIR             every valid and invalid case into DIR/valid, DIR/invalid
 *   xraygen --big BYTES F   one valid FDR v5 trace of about BYTES bytes (1 MiB buffers);
 *                           prints how many records it wrote
 *
 * Build: cc -std=c11 -O2 -o /tmp/xraygen corpus/xray/xraygen.c
 * No producer writes versions 1-4 or big-endian traces any more, so this
 * writer covers them. Spare bytes of metadata records are filled with 0xa5
 * on purpose: real writers leave garbage there and validators must accept it. */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NEW_BUFFER, END_OF_BUFFER, NEW_CPU, TSC_WRAP, WALLCLOCK, CUSTOM, CALL_ARG, EXTENTS,
       TYPED, PID };
enum { ENTRY, EXIT, TAIL_EXIT, ENTRY_ARGS };

struct buf {
	uint8_t *p;
	size_t n, cap;
	bool big;
	unsigned version;
};

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static void bytes(struct buf *b, const void *src, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			die("realloc");
	}
	memcpy(b->p + b->n, src, n);
	b->n += n;
}

static void store(uint8_t *at, uint64_t v, int width, bool big)
{
	for (int i = 0; i < width; i++)
		at[big ? width - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

static void put_uint(struct buf *b, uint64_t v, int width)
{
	uint8_t tmp[8];
	store(tmp, v, width, b->big);
	bytes(b, tmp, (size_t)width);
}

static struct buf new_buf(bool big, unsigned version)
{
	struct buf b = { NULL, 0, 0, big, version };
	return b;
}

/* A 16-byte metadata record: fields are (offset, value, width) triples. */
static void meta(struct buf *b, unsigned kind, int nfields, const uint64_t *f)
{
	uint8_t r[16];
	memset(r, 0xa5, sizeof r);
	r[0] = b->big ? (uint8_t)(0x80u | kind) : (uint8_t)(kind << 1 | 1u);
	for (int i = 0; i < nfields; i++)
		store(r + f[3 * i], f[3 * i + 1], (int)f[3 * i + 2], b->big);
	bytes(b, r, sizeof r);
}

static void m_new_buffer(struct buf *b, int32_t tid)
{
	uint64_t f[] = { 1, (uint32_t)tid, 4 };
	meta(b, NEW_BUFFER, 1, f);
}

static void m_wallclock(struct buf *b, uint64_t sec, uint32_t us)
{
	uint64_t f[] = { 1, sec, 8, 9, us, 4 };
	meta(b, WALLCLOCK, 2, f);
}

static void m_pid(struct buf *b, int32_t pid)
{
	uint64_t f[] = { 1, (uint32_t)pid, 4 };
	meta(b, PID, 1, f);
}

static void m_cpu(struct buf *b, uint16_t cpu, uint64_t tsc)
{
	uint64_t f[] = { 1, cpu, 2, 3, tsc, 8 };
	meta(b, NEW_CPU, 2, f);
}

static void m_wrap(struct buf *b, uint64_t tsc)
{
	uint64_t f[] = { 1, tsc, 8 };
	meta(b, TSC_WRAP, 1, f);
}

static void m_arg(struct buf *b, uint64_t v)
{
	uint64_t f[] = { 1, v, 8 };
	meta(b, CALL_ARG, 1, f);
}

static void m_eob(struct buf *b)
{
	meta(b, END_OF_BUFFER, 0, NULL);
}

static void m_kind(struct buf *b, unsigned kind)
{
	meta(b, kind, 0, NULL);
}

/* Custom event in the layout of the buffer's version, then its payload. */
static void m_custom(struct buf *b, int32_t size, const char *payload)
{
	if (b->version >= 5) {
		uint64_t f[] = { 1, (uint32_t)size, 4, 5, 3, 4 };
		meta(b, CUSTOM, 2, f);
	} else if (b->version == 4) {
		uint64_t f[] = { 1, (uint32_t)size, 4, 5, 0x5000, 8, 13, 0, 2 };
		meta(b, CUSTOM, 3, f);
	} else {
		uint64_t f[] = { 1, (uint32_t)size, 4, 5, 0x5000, 8 };
		meta(b, CUSTOM, 2, f);
	}
	if (size > 0)
		bytes(b, payload, (size_t)size);
}

static void m_typed(struct buf *b, int32_t size, const char *payload)
{
	uint64_t f[] = { 1, (uint32_t)size, 4, 5, 2, 4, 9, 7, 2 };
	meta(b, TYPED, 3, f);
	if (size > 0)
		bytes(b, payload, (size_t)size);
}

static void fn(struct buf *b, unsigned action, uint32_t id, uint32_t delta)
{
	uint32_t word = b->big ? (action << 28 | (id & 0x0fffffffu)) : (id << 4 | action << 1);
	put_uint(b, word, 4);
	put_uint(b, delta, 4);
}

static void preamble(struct buf *b, int32_t tid, uint16_t cpu, uint64_t tsc)
{
	m_new_buffer(b, tid);
	m_wallclock(b, 1700000000, 123456);
	if (b->version >= 3)
		m_pid(b, 4242);
	m_cpu(b, cpu, tsc);
}

/* A body with every record kind the version knows. */
static void body(struct buf *b)
{
	fn(b, ENTRY, 1, 10);
	fn(b, ENTRY, 2, 20);
	fn(b, EXIT, 2, 30);
	fn(b, TAIL_EXIT, 1, 5);
	fn(b, ENTRY, 3, 5);
	m_cpu(b, 1, 0x200000);
	fn(b, EXIT, 3, 40);
	fn(b, b->version >= 5 ? ENTRY_ARGS : ENTRY, 4, 7);
	m_arg(b, 42);
	fn(b, EXIT, 4, 3);
	m_custom(b, 5, "hello");
	if (b->version >= 5)
		m_typed(b, 4, "abcd");
	m_wrap(b, UINT64_C(0x300000000));
	fn(b, ENTRY, 5, 1);
	fn(b, EXIT, 5, 1);
}

struct out {
	FILE *f;
	bool big;
	unsigned version;
	uint64_t buffer_size;
};

static void raw(struct out *o, const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, o->f) != n)
		die("fwrite");
}

static void header_ex(struct out *o, unsigned version, unsigned type, uint32_t flags,
		      uint64_t freq, uint64_t buffer_size)
{
	struct buf h = new_buf(o->big, version);
	put_uint(&h, version, 2);
	put_uint(&h, type, 2);
	put_uint(&h, flags, 4);
	put_uint(&h, freq, 8);
	put_uint(&h, buffer_size, 8);
	put_uint(&h, 0, 8);
	raw(o, h.p, h.n);
	free(h.p);
	o->version = version;
	o->buffer_size = buffer_size;
}

static void header(struct out *o, unsigned version, uint64_t buffer_size)
{
	header_ex(o, version, 1, 3, 1000000000, buffer_size);
}

/* v1: the buffer and garbage up to buffer_size; v2+: BufferExtents, then it. */
static void emit_extents(struct out *o, struct buf *b, uint64_t extents)
{
	struct buf e = new_buf(o->big, o->version);
	uint64_t f[] = { 1, extents, 8 };
	meta(&e, EXTENTS, 1, f);
	raw(o, e.p, e.n);
	free(e.p);
	raw(o, b->p, b->n);
}

static void emit(struct out *o, struct buf *b)
{
	if (o->version >= 2) {
		emit_extents(o, b, b->n);
	} else {
		raw(o, b->p, b->n);
		for (size_t i = b->n; i < o->buffer_size; i++)
			fputc(i % 3 ? 0x00 : 0xee, o->f);
	}
	free(b->p);
	b->p = NULL;
	b->n = b->cap = 0;
}

/* The standard buffer of a thread: preamble, body, EndOfBuffer in v1. */
static struct buf standard(struct out *o, int32_t tid)
{
	struct buf b = new_buf(o->big, o->version);
	preamble(&b, tid, 0, 0x100000);
	body(&b);
	if (o->version == 1)
		m_eob(&b);
	return b;
}

static void two_threads(struct out *o, unsigned version)
{
	header(o, version, 512);
	struct buf b = standard(o, 101);
	emit(o, &b);
	b = standard(o, 102);
	emit(o, &b);
}

/* ---- valid cases ---------------------------------------------------------- */

#define VERSION_CASES(v)                                                             \
	static void fdr_v##v##_le(struct out *o) { two_threads(o, v); }                \
	static void fdr_v##v##_be(struct out *o) { o->big = true; two_threads(o, v); }
VERSION_CASES(1)
VERSION_CASES(2)
VERSION_CASES(3)
VERSION_CASES(4)
VERSION_CASES(5)

static void fdr_v5_header_only(struct out *o) { header(o, 5, 4096); }

/* A surviving ring buffer starts mid-stack: exits whose entries were overwritten. */
static void fdr_v5_ring_midstack(struct out *o)
{
	header(o, 5, 512);
	struct buf b = new_buf(o->big, 5);
	preamble(&b, 7, 2, 0x900000);
	fn(&b, EXIT, 9, 4);
	fn(&b, ENTRY, 10, 4);
	fn(&b, EXIT, 10, 4);
	fn(&b, TAIL_EXIT, 8, 4);
	emit(o, &b);
	b = standard(o, 7);
	emit(o, &b);
}

static void basic(struct out *o, unsigned version)
{
	header_ex(o, version, 0, 0xffffff03u, 2400000000u, UINT64_C(0x7fff12345678));
	for (uint32_t i = 0; i < 4; i++) {
		struct buf r = new_buf(o->big, version);
		unsigned type = i == 0 ? 0 : i == 1 && version >= 2 ? 3 : i % 2;
		put_uint(&r, 0, 2);          /* function record */
		put_uint(&r, 1, 1);          /* cpu */
		put_uint(&r, i == 3 ? 1 : type, 1);
		put_uint(&r, i < 2 ? 1 + i : 2 - (i - 2), 4);
		put_uint(&r, 1000 + i * 10, 8);
		put_uint(&r, 55, 4);
		put_uint(&r, version >= 3 ? 66 : 0xdead, 4);
		put_uint(&r, 0, 8);
		raw(o, r.p, r.n);
		if (i == 1 && version >= 2) { /* argument payload of the enter-with-argument */
			r.n = 0;
			put_uint(&r, 1, 2);
			put_uint(&r, 0, 2);
			put_uint(&r, 2, 4);
			put_uint(&r, 55, 4);
			put_uint(&r, version >= 3 ? 66 : 0xbeef, 4);
			put_uint(&r, 777, 8);
			put_uint(&r, 0, 8);
			raw(o, r.p, r.n);
		}
		free(r.p);
	}
}

static void basic_v1_le(struct out *o) { basic(o, 1); }
static void basic_v2_le(struct out *o) { basic(o, 2); }
static void basic_v3_le(struct out *o) { basic(o, 3); }
static void basic_v3_be(struct out *o) { o->big = true; basic(o, 3); }
static void basic_v3_header_only(struct out *o) { header_ex(o, 3, 0, 3, 2400000000u, 0); }

/* ---- warnings only (valid, with a sidecar) ---------------------------------- */

static void w_header_flags(struct out *o)
{
	header_ex(o, 5, 1, 0x43, 1000000000, 512);
	struct buf b = standard(o, 1);
	emit(o, &b);
}

static void w_cycle_range(struct out *o)
{
	header_ex(o, 5, 1, 3, 500, 512);
	struct buf b = standard(o, 1);
	emit(o, &b);
}

static void w_extents_empty(struct out *o)
{
	header(o, 5, 512);
	struct buf e = new_buf(o->big, 5);
	emit(o, &e);
	struct buf b = standard(o, 1);
	emit(o, &b);
}

static struct buf preamble_only(struct out *o, int32_t tid)
{
	struct buf b = new_buf(o->big, o->version);
	preamble(&b, tid, 0, 0x100000);
	return b;
}

static void w_function_id_zero(struct out *o)
{
	header(o, 5, 512);
	struct buf b = preamble_only(o, 1);
	fn(&b, ENTRY, 0, 1);
	fn(&b, EXIT, 0, 1);
	emit(o, &b);
}

static void w_plain_entry_args(struct out *o)
{
	header(o, 5, 512);
	struct buf b = preamble_only(o, 1);
	fn(&b, ENTRY, 4, 1);
	m_arg(&b, 1);
	fn(&b, EXIT, 4, 1);
	emit(o, &b);
}

static void w_entry_args_without_argument(struct out *o)
{
	header(o, 5, 512);
	struct buf b = preamble_only(o, 1);
	fn(&b, ENTRY_ARGS, 4, 1);
	fn(&b, EXIT, 4, 1);
	emit(o, &b);
}

static void w_event_empty(struct out *o)
{
	header(o, 5, 512);
	struct buf b = preamble_only(o, 1);
	m_custom(&b, 0, "");
	emit(o, &b);
}

static void w_thread_id(struct out *o)
{
	header(o, 5, 512);
	struct buf b = standard(o, 0);
	emit(o, &b);
}

static void w_exit_mismatch(struct out *o)
{
	header(o, 5, 512);
	struct buf b = preamble_only(o, 1);
	fn(&b, ENTRY, 1, 1);
	fn(&b, ENTRY, 2, 1);
	fn(&b, ENTRY, 3, 1);
	fn(&b, EXIT, 2, 1);  /* 3 never exited: unwinds to 2 */
	fn(&b, EXIT, 9, 1);  /* 9 is not open; 1 is */
	fn(&b, EXIT, 1, 1);
	fn(&b, EXIT, 0x0fffffff, 1); /* empty stack: normal */
	emit(o, &b);
}

static void w_tsc_backwards(struct out *o)
{
	header(o, 5, 512);
	struct buf b = preamble_only(o, 1);
	fn(&b, ENTRY, 1, 100);
	m_cpu(&b, 1, 0x5000);
	fn(&b, EXIT, 1, 1);
	m_cpu(&b, 0, 0x50);   /* CPU 0 had reached 0x100000 + 100 */
	m_wrap(&b, 0x10);     /* and goes back once more */
	emit(o, &b);
}

static void w_tsc_delta_range(struct out *o)
{
	header(o, 5, 512);
	struct buf b = preamble_only(o, 1);
	fn(&b, ENTRY, 1, 0x80000000u);
	fn(&b, EXIT, 1, 1);
	emit(o, &b);
}

/* ---- invalid cases -------------------------------------------------------- */

static void e_header_size(struct out *o)
{
	raw(o, "\x05\x00\x01\x00\x03\x00\x00\x00\x00\xca\x9a\x3b\x00\x00\x00\x00\x00\x02", 18);
}

static void e_header_type(struct out *o) { header_ex(o, 5, 2, 3, 1000000000, 512); }
static void e_header_version(struct out *o) { header_ex(o, 6, 1, 3, 1000000000, 512); }

static void e_cycle_frequency(struct out *o)
{
	header_ex(o, 5, 1, 3, 0, 512);
	struct buf b = standard(o, 1);
	emit(o, &b);
}

static void e_buffer_size(struct out *o)
{
	header(o, 5, 48);
	struct buf b = preamble_only(o, 1);
	emit(o, &b);
}

static void e_v1_stride(struct out *o)
{
	two_threads(o, 1);
	raw(o, "\x01\xa5\xa5\xa5\x01\x00\x00\x00\xa5\xa5\xa5\xa5\xa5\xa5\xa5\xa5", 16);
}

static void e_v1_end_of_buffer(struct out *o)
{
	/* The 48-byte preamble and ten function records fill all 128 bytes:
	 * no room is left for the EndOfBuffer. */
	header(o, 1, 128);
	struct buf b = preamble_only(o, 1);
	for (uint32_t i = 0; i < 10; i++)
		fn(&b, i % 2 ? EXIT : ENTRY, 1, 1);
	emit(o, &b);
}

static void e_extents_missing(struct out *o)
{
	header(o, 5, 512);
	struct buf b = standard(o, 1);
	emit(o, &b);
	raw(o, "\0\0\0\0\0\0\0\0", 8); /* junk between buffers */
	b = standard(o, 2);
	emit(o, &b);
}

static void e_extents_capacity(struct out *o)
{
	header(o, 5, 128);
	struct buf b = standard(o, 1);
	emit(o, &b);
}

static void e_extents_eof(struct out *o)
{
	header(o, 5, 512);
	struct buf b = standard(o, 1);
	emit_extents(o, &b, b.n + 64);
	free(b.p);
}

static void e_record_crosses_buffer(struct out *o)
{
	header(o, 5, 512);
	struct buf b = standard(o, 1);
	emit_extents(o, &b, b.n - 4); /* the last function record sticks out */
	free(b.p);
	b = standard(o, 2);
	b.n -= 4;                      /* the next buffer starts where the count says */
	emit(o, &b);
}

static void e_event_crosses_buffer(struct out *o)
{
	header(o, 5, 512);
	struct buf b = preamble_only(o, 1);
	m_custom(&b, 40, "0123456789012345678901234567890123456789");
	emit_extents(o, &b, b.n - 20);
	free(b.p);
}

static void e_metadata_kind(struct out *o)
{
	header(o, 5, 512);
	struct buf b = preamble_only(o, 1);
	m_kind(&b, 12);
	fn(&b, ENTRY, 1, 1);
	emit(o, &b);
}

static void e_kind_version(struct out *o)
{
	header(o, 2, 512);
	struct buf b = preamble_only(o, 1);
	m_pid(&b, 5);
	fn(&b, ENTRY, 1, 1);
	m_eob(&b);
	emit(o, &b);
}

static void e_kind_version_v1(struct out *o)
{
	header(o, 1, 256);
	struct buf b = preamble_only(o, 1);
	m_kind(&b, EXTENTS);
	m_typed(&b, 2, "xy");
	m_eob(&b);
	emit(o, &b);
}

static void e_function_action(struct out *o)
{
	header(o, 5, 512);
	struct buf b = preamble_only(o, 1);
	fn(&b, 5, 1, 1);
	emit(o, &b);
}

static void e_preamble(struct out *o)
{
	header(o, 3, 512);
	struct buf b = new_buf(o->big, 3);
	m_new_buffer(&b, 1);
	m_wallclock(&b, 1, 2);
	m_cpu(&b, 0, 10);      /* Pid missing */
	fn(&b, ENTRY, 1, 1);
	emit(o, &b);
	b = new_buf(o->big, 3);
	m_new_buffer(&b, 2);   /* ends inside the preamble */
	emit(o, &b);
}

static void e_preamble_in_body(struct out *o)
{
	header(o, 5, 512);
	struct buf b = preamble_only(o, 1);
	fn(&b, ENTRY, 1, 1);
	m_wallclock(&b, 1, 2);
	m_new_buffer(&b, 1);
	fn(&b, EXIT, 1, 1);
	emit(o, &b);
}

static void e_call_argument_order(struct out *o)
{
	header(o, 5, 512);
	struct buf b = preamble_only(o, 1);
	m_arg(&b, 1);
	fn(&b, ENTRY_ARGS, 1, 1);
	m_arg(&b, 2);
	m_arg(&b, 3);
	fn(&b, EXIT, 1, 1);
	m_arg(&b, 4);
	emit(o, &b);
}

static void e_event_size(struct out *o)
{
	header(o, 5, 512);
	struct buf b = preamble_only(o, 1);
	m_custom(&b, -8, "");
	fn(&b, ENTRY, 1, 1);
	emit(o, &b);
	b = standard(o, 2);
	emit(o, &b);
}

static void e_wallclock_micros(struct out *o)
{
	header(o, 4, 512);
	struct buf b = new_buf(o->big, 4);
	m_new_buffer(&b, 1);
	m_wallclock(&b, 1700000000, 1000000);
	m_pid(&b, 3);
	m_cpu(&b, 0, 1);
	emit(o, &b);
}

static void e_be_function_action(struct out *o)
{
	o->big = true;
	e_function_action(o);
}

static void basic_record(struct out *o, unsigned type, unsigned entry, uint32_t id, uint32_t tid,
			 uint32_t pid)
{
	struct buf r = new_buf(o->big, o->version);
	put_uint(&r, type, 2);
	if (type == 1) {
		put_uint(&r, 0, 2);
		put_uint(&r, id, 4);
		put_uint(&r, tid, 4);
		put_uint(&r, pid, 4);
		put_uint(&r, 99, 8);
		put_uint(&r, 0, 8);
	} else {
		put_uint(&r, 0, 1);
		put_uint(&r, entry, 1);
		put_uint(&r, id, 4);
		put_uint(&r, 5000, 8);
		put_uint(&r, tid, 4);
		put_uint(&r, pid, 4);
		put_uint(&r, 0, 8);
	}
	raw(o, r.p, r.n);
	free(r.p);
}

static void e_basic_size(struct out *o)
{
	header_ex(o, 3, 0, 3, 2400000000u, 0);
	basic_record(o, 0, 0, 1, 5, 6);
	raw(o, "\0\0\0\0\0\0\0\0\0\0", 10);
}

static void e_basic_record_type(struct out *o)
{
	header_ex(o, 3, 0, 3, 2400000000u, 0);
	basic_record(o, 0, 0, 1, 5, 6);
	basic_record(o, 4, 0, 1, 5, 6);
	basic_record(o, 0, 1, 1, 5, 6);
}

static void e_basic_entry_type(struct out *o)
{
	header_ex(o, 3, 0, 3, 2400000000u, 0);
	basic_record(o, 0, 9, 1, 5, 6);
	basic_record(o, 0, 0, 0, 5, 6);
}

static void e_basic_argument_orphan(struct out *o)
{
	header_ex(o, 3, 0, 3, 2400000000u, 0);
	basic_record(o, 1, 0, 1, 5, 6);   /* first in the file: crashed llvm-xray convert */
	basic_record(o, 0, 3, 1, 5, 6);
	basic_record(o, 1, 0, 1, 5, 7);   /* other pid */
	basic_record(o, 0, 3, 2, 5, 6);
	basic_record(o, 1, 0, 2, 5, 6);
	basic_record(o, 1, 0, 2, 5, 6);   /* a second payload of the same record is fine */
}

static void e_basic_argument_version(struct out *o)
{
	header_ex(o, 1, 0, 3, 2400000000u, 0);
	basic_record(o, 0, 0, 1, 5, 0);
	basic_record(o, 1, 0, 1, 5, 0);
}

/* Run with --instr-map of corpus/xray/binaries/mapped.elf.zst (3 functions): ids 4 and
 * 0xffffffff (a 32-bit id, which only basic mode can hold) are not defined there. */
static void e_basic_instr_map(struct out *o)
{
	header_ex(o, 3, 0, 3, 2400000000u, 0);
	basic_record(o, 0, 0, 1, 5, 6);
	basic_record(o, 0, 0, 4, 5, 6);
	basic_record(o, 0, 1, 4, 5, 6);
	basic_record(o, 0, 1, 1, 5, 6);
	basic_record(o, 0, 0, 0xffffffffu, 5, 6);
	basic_record(o, 0, 1, 0xffffffffu, 5, 6);
}

struct gen_case {
	const char *dir, *name;
	void (*make)(struct out *o);
};

static const struct gen_case cases[] = {
	{ "valid", "gen-fdr-v1-le.xray", fdr_v1_le },
	{ "valid", "gen-fdr-v1-be.xray", fdr_v1_be },
	{ "valid", "gen-fdr-v2-le.xray", fdr_v2_le },
	{ "valid", "gen-fdr-v2-be.xray", fdr_v2_be },
	{ "valid", "gen-fdr-v3-le.xray", fdr_v3_le },
	{ "valid", "gen-fdr-v3-be.xray", fdr_v3_be },
	{ "valid", "gen-fdr-v4-le.xray", fdr_v4_le },
	{ "valid", "gen-fdr-v4-be.xray", fdr_v4_be },
	{ "valid", "gen-fdr-v5-le.xray", fdr_v5_le },
	{ "valid", "gen-fdr-v5-be.xray", fdr_v5_be },
	{ "valid", "gen-fdr-v5-header-only.xray", fdr_v5_header_only },
	{ "valid", "gen-fdr-v5-ring-midstack.xray", fdr_v5_ring_midstack },
	{ "valid", "gen-basic-v1-le.xray", basic_v1_le },
	{ "valid", "gen-basic-v2-le.xray", basic_v2_le },
	{ "valid", "gen-basic-v3-le.xray", basic_v3_le },
	{ "valid", "gen-basic-v3-be.xray", basic_v3_be },
	{ "valid", "gen-basic-v3-header-only.xray", basic_v3_header_only },
	{ "valid", "warn-header-flags.xray", w_header_flags },
	{ "valid", "warn-cycle-range.xray", w_cycle_range },
	{ "valid", "warn-extents-empty.xray", w_extents_empty },
	{ "valid", "warn-function-id-zero.xray", w_function_id_zero },
	{ "valid", "warn-plain-entry-args.xray", w_plain_entry_args },
	{ "valid", "warn-entry-args-without-argument.xray", w_entry_args_without_argument },
	{ "valid", "warn-event-empty.xray", w_event_empty },
	{ "valid", "warn-thread-id.xray", w_thread_id },
	{ "valid", "warn-exit-mismatch.xray", w_exit_mismatch },
	{ "valid", "warn-tsc-backwards.xray", w_tsc_backwards },
	{ "valid", "warn-tsc-delta-range.xray", w_tsc_delta_range },
	{ "invalid", "header-size.xray", e_header_size },
	{ "invalid", "header-type.xray", e_header_type },
	{ "invalid", "header-version.xray", e_header_version },
	{ "invalid", "header-cycle-frequency.xray", e_cycle_frequency },
	{ "invalid", "header-buffer-size.xray", e_buffer_size },
	{ "invalid", "v1-stride.xray", e_v1_stride },
	{ "invalid", "v1-end-of-buffer.xray", e_v1_end_of_buffer },
	{ "invalid", "extents-missing.xray", e_extents_missing },
	{ "invalid", "extents-capacity.xray", e_extents_capacity },
	{ "invalid", "extents-eof.xray", e_extents_eof },
	{ "invalid", "record-crosses-buffer.xray", e_record_crosses_buffer },
	{ "invalid", "event-crosses-buffer.xray", e_event_crosses_buffer },
	{ "invalid", "metadata-kind.xray", e_metadata_kind },
	{ "invalid", "kind-version-v2.xray", e_kind_version },
	{ "invalid", "kind-version-v1.xray", e_kind_version_v1 },
	{ "invalid", "function-action.xray", e_function_action },
	{ "invalid", "function-action-be.xray", e_be_function_action },
	{ "invalid", "preamble.xray", e_preamble },
	{ "invalid", "preamble-in-body.xray", e_preamble_in_body },
	{ "invalid", "call-argument-order.xray", e_call_argument_order },
	/* the same bytes, run with --max-errors=1 (max-errors.xray.args): the core rule TL-MAX-ERRORS */
	{ "invalid", "max-errors.xray", e_call_argument_order },
	{ "invalid", "event-size.xray", e_event_size },
	{ "invalid", "wallclock-micros.xray", e_wallclock_micros },
	{ "invalid", "basic-size.xray", e_basic_size },
	{ "invalid", "basic-record-type.xray", e_basic_record_type },
	{ "invalid", "basic-entry-type.xray", e_basic_entry_type },
	{ "invalid", "basic-argument-orphan.xray", e_basic_argument_orphan },
	{ "invalid", "basic-argument-version.xray", e_basic_argument_version },
	{ "invalid", "instr-map-basic-undefined.xray", e_basic_instr_map },
};

/* One thread, 1 MiB buffers of call pairs, until about `target` bytes.
 * Returns the number of records written. */
static uint64_t big_trace(FILE *f, uint64_t target)
{
	uint64_t records = 0;
	struct out o = { f, false, 5, 0 };
	const size_t cap = 1u << 20;
	header(&o, 5, cap);
	uint64_t written = 32, tsc = 0x100000;
	while (written < target) {
		struct buf b = new_buf(false, 5);
		preamble(&b, 1234, 0, tsc);
		records += 1 + 4;       /* BufferExtents and the v5 preamble */
		uint32_t id = 1;
		while (b.n + 3 * 16 <= cap - 16) {
			fn(&b, ENTRY, id, 3);
			if (id % 64 == 0) {
				fn(&b, ENTRY_ARGS, id + 1, 2);
				m_arg(&b, id);
				fn(&b, EXIT, id + 1, 2);
				records += 3;
			}
			records += 2;
			fn(&b, EXIT, id, 5);
			id = id % 1000 + 1;
			tsc += 10;
		}
		written += 16 + b.n;
		emit(&o, &b);
	}
	return records;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "--big") == 0) {
		FILE *f = fopen(argv[3], "wb");
		if (!f)
			die(argv[3]);
		uint64_t records = big_trace(f, strtoull(argv[2], NULL, 10));
		printf("%llu records\n", (unsigned long long)records);
		return fclose(f) ? 2 : 0;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: xraygen DIR | xraygen --big BYTES FILE\n");
		return 2;
	}
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%s/%s", argv[1], cases[i].dir, cases[i].name);
		FILE *f = fopen(path, "wb");
		if (!f)
			die(path);
		struct out o = { f, false, 0, 0 };
		cases[i].make(&o);
		if (fclose(f))
			die(path);
	}
	return 0;
}
