/* umtgen: writes valid UMTracer trace directories from a random but coherent model
 * (threads with begin/end, instructions with decoded operand layouts and matching
 * operand values, system calls with entry/exit/skipped exits, context changes,
 * modules with UTF-16 names, context map, address ranges, trace.xml), at any size.
 *
 *   umtgen gen DIR [-n records] [-t threads] [-s seed] [-b 32|64] [-v 0|1] [-a] [-x] [-o] [-m MAP]
 *     -a: the trace ends abruptly (no Application end, open threads and calls);
 *     -x: two more instruction shapes, "lea" (AGEN through base + index x 4 + 16) and
 *         "rep movsb" (MEM0 and MEM1, flag 0x08 on first iterations), and with -a -v 1
 *         a last record carrying the aborted flag 0x80; without -x the output is the
 *         same as before the option existed (the corpus offsets depend on it);
 *     -o: syscall blocks written even IDs first, then odd ones (not in offset order);
 *     -m: write a layout map (one line per structure with its file offset) to MAP,
 *         used by make-corpus.sh to place its mutations.
 *   umtgen poke FILE OFFSET WIDTH VALUE   overwrite WIDTH (1..8) bytes, little-endian
 *
 * Used for the corpus (make-corpus.sh), the benchmarks and the fuzz seeds.
 * Layouts follow grammars/umtrace.yaml. Streaming: memory is one byte per record
 * (its thread) plus the system call list. */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_THREADS 200
#define DUMP_SIZE 64
#define REGS 8

static uint64_t rng_state;
static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void die(const char *what)
{
	fprintf(stderr, "umtgen: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void put(uint8_t *p, uint64_t v, int width)
{
	for (int i = 0; i < width; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static FILE *open_out(const char *dir, const char *name)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w+b");
	if (!f)
		die(path);
	return f;
}

static void emit(FILE *f, const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, f) != n)
		die("write");
}

static FILE *map_out;
static void mapf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#include <stdarg.h>
static void mapf(const char *fmt, ...)
{
	if (!map_out)
		return;
	va_list ap;
	va_start(ap, fmt);
	vfprintf(map_out, fmt, ap);
	va_end(ap);
}

/* ---- model ----------------------------------------------------------------- */
static int bits64 = 1, exec_version = 1, abrupt, extended, scrambled;
static unsigned next_flags; /* extra execRec flags for the next record */
static uint64_t tib_of(int t) { return 0x7ff00000u + 0x2000u * (uint64_t)t; }
#define DATA_PAGE 0x10000u
#define MOD0_START 0x400000u
#define MOD0_END 0x40ffffu
#define MOD1_START 0x77000000u
#define MOD1_END 0x770fffffu

/* register IDs of the context map */
enum { R_INVALID, R_RAX, R_RBX, R_RCX, R_RDX, R_RSI, R_RDI, R_RSP };
#define R_MEM0 0xffff
#define R_MEM1 0xfffe
#define R_AGEN 0xfffd
#define LEA_DISP 0x10

/* ---- context map -------------------------------------------------------------- */
static void write_context_map(const char *dir)
{
	static uint8_t m[17424];
	static const char *const names[REGS] = { "invalid", "rax", "rbx", "rcx",
						 "rdx",     "rsi", "rdi", "rsp" };
	memset(m, 0, sizeof m);
	put(m, DUMP_SIZE, 2);
	put(m + 2, REGS, 2);
	for (int i = 0; i < 512; i++) {
		uint8_t *r32 = m + 9232 + 8 * i, *r64 = m + 13328 + 8 * i;
		if (i < REGS)
			put(m + 16 + 2 * i, (uint64_t)i, 2);
		if (i >= 1 && i < REGS) {
			memcpy(m + 1040 + 16 * i, names[i], strlen(names[i]));
			put(r32, (uint64_t)(8 * i), 2), put(r32 + 2, 4, 1), put(r32 + 4, (uint64_t)i, 2);
			put(r64, (uint64_t)(8 * i), 2), put(r64 + 2, 8, 1), put(r64 + 4, (uint64_t)i, 2);
		} else {
			if (i == 0)
				memcpy(m + 1040, names[0], strlen(names[0]));
			put(r32, 0xffff, 2), put(r64, 0xffff, 2);
		}
	}
	FILE *f = open_out(dir, "context_map.itable");
	emit(f, m, sizeof m);
	fclose(f);
}

/* ---- instructions ------------------------------------------------------------- */
/* Three instruction shapes: inc reg (read-write register), mov reg <- [base] (memory
 * operand through a base register), and syscall (no operands); with -x also lea (an
 * AGEN operand with base, index, scale and displacement) and rep movsb (MEM0 written
 * through rdi, MEM1 read through rsi). */
#define N_INS 5
#define N_INS_BASIC 3
static int n_ins(void) { return extended ? N_INS : N_INS_BASIC; }
struct ins_shape {
	const char *disasm;
	int lc_count, first_out, first_after, exp_count;
	int lc_size;
};
static const struct ins_shape shapes[N_INS] = {
	{ "inc rax", 2, 1, 1, 1, 16 },
	{ "mov rax, qword ptr [rbx]", 4, 2, 3, 2, 40 },
	{ "syscall", 0, 0, 0, 0, 0 },
	{ "lea rax, [rbx+rcx*4+0x10]", 5, 3, 4, 2, 40 },
	{ "rep movsb", 5, 3, 4, 2, 43 },
};

static void lc_slot(uint8_t *s, int reg, int value_size, int offset, int addr_width)
{
	put(s, (uint64_t)reg, 2);
	put(s + 2, (uint64_t)reg, 2);
	put(s + 4, (uint64_t)value_size, 2);
	put(s + 6, (uint64_t)offset, 2);
	put(s + 8, (uint64_t)addr_width, 1);
}

static void exp_oper(uint8_t *o, int reg, int size, int flags, int before, int after, int boff,
		     int aoff)
{
	put(o, (uint64_t)reg, 2);
	put(o + 2, (uint64_t)size, 2);
	put(o + 4, (uint64_t)flags, 1);
	put(o + 5, (uint64_t)before, 1);
	put(o + 6, (uint64_t)after, 1);
	put(o + 7, (uint64_t)boff, 1);
	put(o + 8, (uint64_t)aoff, 1);
}

static size_t decoded_ins(uint8_t *d, int k)
{
	const struct ins_shape *s = &shapes[k];
	size_t size = 88 + 12 * (size_t)s->lc_count;
	memset(d, 0, size);
	put(d + 6, k == 1 ? 0x10 : k == 4 ? 0x31 : 0, 1); /* 0x31: rep, reads, writes memory */
	put(d + 7, (uint64_t)s->exp_count, 1);
	put(d + 56, bits64 ? 8 : 4, 1);
	put(d + 57, bits64 ? 8 : 4, 1);
	put(d + 58, (uint64_t)s->lc_size, 2);
	put(d + 60, (uint64_t)s->first_out, 1);
	put(d + 61, (uint64_t)s->first_after, 1);
	put(d + 62, (uint64_t)s->lc_count, 1);
	put(d + 63, 0xff, 1), put(d + 64, 0xff, 1), put(d + 65, 0, 1), put(d + 66, 0xff, 1);
	put(d + 67, 0xff, 1);
	int vs = bits64 ? 8 : 4;
	if (k == 0) {
		exp_oper(d + 8, R_RAX, vs, 3, 0, 1, 0, 0);
		lc_slot(d + 88, R_RAX, 8, 0, 0);
		lc_slot(d + 100, R_RAX, 8, 8, 0);
	} else if (k == 1) {
		put(d + 64, 0, 1); /* Mem0BaseSlot: rbx */
		exp_oper(d + 8, R_RAX, vs, 2, 2, 3, 0, 0);
		exp_oper(d + 20, 0xffff, vs, 1, 1, 0xff, 8, 8);
		lc_slot(d + 88, R_RBX, 8, 0, 0);
		lc_slot(d + 100, 0xffff, 8, 8, bits64 ? 8 : 4);
		lc_slot(d + 112, R_RAX, 8, 24, 0);
		lc_slot(d + 124, R_RAX, 8, 32, 0);
	} else if (k == 3) {
		put(d + 64, 0, 1), put(d + 65, 4, 1), put(d + 66, 1, 1); /* rbx + rcx * 4 */
		put(d + 72, LEA_DISP, 8);
		exp_oper(d + 8, R_RAX, vs, 2, 3, 4, 0, 0);
		exp_oper(d + 20, R_AGEN, vs, 1, 2, 0xff, 0, 0);
		lc_slot(d + 88, R_RBX, 8, 0, 0);
		lc_slot(d + 100, R_RCX, 8, 8, 0);
		lc_slot(d + 112, R_AGEN, 8, 16, 0);
		lc_slot(d + 124, R_RAX, 8, 24, 0);
		lc_slot(d + 136, R_RAX, 8, 32, 0);
	} else if (k == 4) {
		int aw = bits64 ? 8 : 4;
		put(d + 64, 0, 1), put(d + 67, 1, 1); /* MEM0 through rdi, MEM1 through rsi */
		exp_oper(d + 8, R_MEM0, 1, 2, 3, 4, 8, 8);
		exp_oper(d + 20, R_MEM1, 1, 1, 2, 0xff, 8, 8);
		lc_slot(d + 88, R_RDI, 8, 0, 0);
		lc_slot(d + 100, R_RSI, 8, 8, 0);
		lc_slot(d + 112, R_MEM1, 1, 16, aw);
		lc_slot(d + 124, R_MEM0, 1, 25, aw);
		lc_slot(d + 136, R_MEM0, 1, 34, aw);
	}
	return size;
}

static void write_ins(const char *dir)
{
	uint8_t extra[1024], rows[N_INS][64];
	size_t xlen = 0;
	memset(rows, 0, sizeof rows);
	uint64_t header = 48, table = header + 64 * (uint64_t)n_ins();
	for (int k = 0; k < n_ins(); k++) {
		uint8_t *r = rows[k];
		put(r, (uint64_t)k, 8);
		put(r + 8, k == 2 ? (bits64 ? 3 : 2) : 0, 1);
		put(r + 9, (uint64_t)bits64, 1);
		put(r + 10, k == 2 ? 2 : 3, 1);
		put(r + 12, 0, 4);
		put(r + 16, MOD0_START + 0x1000 + 16 * (uint64_t)k, 8);
		memset(r + 24, 0x90, 3);
		put(r + 40, xlen, 8);
		size_t n = strlen(shapes[k].disasm);
		put(extra + xlen, n, 2);
		memcpy(extra + xlen + 2, shapes[k].disasm, n + 1);
		mapf("ins %d row %llu disasm %llu\n", k, (unsigned long long)(header + 64 * (uint64_t)k),
		     (unsigned long long)(table + xlen));
		xlen += n + 3;
		put(r + 48, xlen, 8);
		mapf("decoded %d %llu\n", k, (unsigned long long)(table + xlen));
		xlen += decoded_ins(extra + xlen, k);
	}
	uint8_t h[48] = { 0 };
	put(h + 4, (uint64_t)exec_version, 4); /* RecordVer follows the tool version */
	put(h + 8, (uint64_t)n_ins(), 8), put(h + 16, 64, 8), put(h + 24, header, 8);
	put(h + 32, table, 8), put(h + 40, xlen, 8);
	FILE *f = open_out(dir, "ins.itable");
	emit(f, h, sizeof h);
	emit(f, rows, 64 * (size_t)n_ins());
	emit(f, extra, xlen);
	fclose(f);
}

/* ---- modules, threads, address space, trace.xml -------------------------------- */
static size_t ustr(uint8_t *p, const char *s)
{
	size_t n = strlen(s);
	put(p, n, 2);
	for (size_t i = 0; i <= n; i++)
		put(p + 2 + 2 * i, (uint8_t)s[i], 2);
	return 2 * n + 4;
}

static void write_modules(const char *dir)
{
	static const char *const names[2][2] = {
		{ "app.exe", "\\Device\\HarddiskVolume1\\app.exe" },
		{ "ntdll.dll", "\\Device\\HarddiskVolume1\\Windows\\System32\\ntdll.dll" },
	};
	uint8_t rows[2][48], extra[512];
	size_t xlen = 0;
	uint64_t extra_fp = 48 + sizeof rows;
	memset(rows, 0, sizeof rows);
	for (int k = 0; k < 2; k++) {
		uint8_t *r = rows[k];
		put(r, 0, 8);
		put(r + 8, (uint64_t)-1, 8);
		put(r + 16, k ? MOD1_START : MOD0_START, 8);
		put(r + 24, k ? MOD1_END : MOD0_END, 8);
		mapf("module %d row %llu winname %llu\n", k, (unsigned long long)(48 + 48 * k),
		     (unsigned long long)(extra_fp + xlen));
		put(r + 32, extra_fp + xlen, 8);
		xlen += ustr(extra + xlen, names[k][0]);
		put(r + 40, extra_fp + xlen, 8);
		xlen += ustr(extra + xlen, names[k][1]);
	}
	uint8_t h[48] = { 0 };
	put(h + 8, 2, 8), put(h + 16, 48, 8), put(h + 24, 48, 8);
	put(h + 32, extra_fp, 8), put(h + 40, xlen, 8);
	FILE *f = open_out(dir, "module.itable");
	emit(f, h, sizeof h);
	emit(f, rows, sizeof rows);
	emit(f, extra, xlen);
	fclose(f);
}

static void write_address_space(const char *dir, int threads)
{
	FILE *f = open_out(dir, "address_space.itable");
	uint8_t h[32] = { 0 }, r[16];
	put(h + 8, 1 + (uint64_t)threads, 8), put(h + 16, 16, 8), put(h + 24, 32, 8);
	emit(f, h, sizeof h);
	put(r, DATA_PAGE, 8), put(r + 8, DATA_PAGE + 0xfff, 8);
	emit(f, r, sizeof r);
	for (int t = 0; t < threads; t++) {
		put(r, tib_of(t), 8), put(r + 8, tib_of(t) + 0xfff, 8);
		emit(f, r, sizeof r);
	}
	mapf("ranges 32\n");
	fclose(f);
}

static void write_xml(const char *dir)
{
	FILE *f = open_out(dir, "trace.xml");
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Data>\n  <TraceMetaData>\n"
		   "    <Xed>\n      <Version>20150121</Version>\n    </Xed>\n"
		   "    <App>\n      <ProcessID>4242</ProcessID>\n      <Bitness>%d</Bitness>\n"
		   "    </App>\n  </TraceMetaData>\n</Data>\n",
		bits64 ? 64 : 32);
	fclose(f);
}

/* ---- execution records ----------------------------------------------------- */
struct thread_state {
	int started, ended;
	int64_t first, last, count, open_call;
};
struct syscall_model {
	int64_t begin, end;
	int completed, thread;
};

static struct thread_state th[MAX_THREADS];
static struct syscall_model *calls;
static size_t ncalls, capcalls;
static FILE *vt, *offs, *pn;
static uint8_t *thread_of;
static uint64_t pos = 16, eid;

/* rmContext at c: MemCount refs, registers, then the memory data. */
static size_t rm_context(uint8_t *c, int mem_count, const uint64_t *addr, const uint64_t *size)
{
	size_t fixed = 16 + 24 * (size_t)mem_count, data = fixed + DUMP_SIZE;
	put(c, (uint64_t)mem_count, 4);
	put(c + 4, 0, 4);
	put(c + 8, fixed, 8);
	for (int k = 0; k < mem_count; k++) {
		uint8_t *m = c + 16 + 24 * k;
		put(m, addr[k], 8), put(m + 8, size[k], 8), put(m + 16, data, 8);
		memset(c + data, 0x5a, size[k]);
		data += size[k];
	}
	for (int r = 0; r < DUMP_SIZE; r++)
		c[fixed + (size_t)r] = (uint8_t)rnd();
	return data;
}

static void record(int t, int type, const uint8_t *payload, size_t n)
{
	uint8_t hdr[6], pair[16];
	put(hdr, (uint64_t)t, 4);
	put(hdr + 4, (uint64_t)type, 1);
	put(hdr + 5, (uint64_t)bits64 | next_flags, 1);
	next_flags = 0;
	uint8_t o[8];
	put(o, pos, 8);
	emit(offs, o, 8);
	emit(vt, hdr, 6);
	emit(vt, payload, n);
	mapf("rec %llu type %d thread %d at %llu size %llu\n", (unsigned long long)eid, type, t,
	     (unsigned long long)pos, (unsigned long long)(6 + n));
	pos += 6 + n;
	put(pair, (uint64_t)th[t].last, 8);
	put(pair + 8, (uint64_t)-1, 8);
	emit(pn, pair, 16);
	thread_of[eid] = (uint8_t)t;
	if (!th[t].count)
		th[t].first = (int64_t)eid;
	th[t].last = (int64_t)eid;
	th[t].count++;
	eid++;
}

static void thread_begin(int t)
{
	uint8_t p[256];
	uint64_t addr = tib_of(t), size = 16;
	th[t].started = 1;
	record(t, 1, p, rm_context(p, 1, &addr, &size));
}

static void instruction(int t, int k)
{
	uint8_t p[64];
	put(p, (uint64_t)k, 8);
	uint8_t *lc = p + 8;
	uint64_t v = rnd() & (bits64 ? UINT64_MAX : UINT32_MAX);
	if (k == 0) {
		put(lc, v, 8), put(lc + 8, v + 1, 8);
	} else if (k == 1) {
		uint64_t base = DATA_PAGE + 8 * (rnd() % 64);
		put(lc, base, 8);
		put(lc + 8, base, 8), put(lc + 16, v, 8);
		put(lc + 24, rnd(), 8), put(lc + 32, v, 8);
	} else if (k == 3) {
		uint64_t base = DATA_PAGE + 8 * (rnd() % 64), index = rnd() % 256;
		uint64_t ea = base + 4 * index + LEA_DISP;
		put(lc, base, 8), put(lc + 8, index, 8);
		put(lc + 16, bits64 ? ea : ea & UINT32_MAX, 8);
		put(lc + 24, rnd(), 8), put(lc + 32, ea, 8);
	} else if (k == 4) {
		uint64_t rdi = DATA_PAGE + rnd() % 0x800, rsi = DATA_PAGE + 0x800 + rnd() % 0x800;
		put(lc, rdi, 8), put(lc + 8, rsi, 8);
		put(lc + 16, rsi, 8), lc[24] = (uint8_t)rnd();
		put(lc + 25, rdi, 8), lc[33] = (uint8_t)rnd();
		put(lc + 34, rdi, 8), lc[42] = lc[24];
		if (rnd() % 2)
			next_flags = 0x08; /* first iteration */
	}
	record(t, 0, p, 8 + (size_t)shapes[k].lc_size);
}

static void syscall_entry(int t)
{
	if (ncalls == capcalls) {
		capcalls = capcalls ? 2 * capcalls : 64;
		calls = realloc(calls, capcalls * sizeof *calls);
		if (!calls)
			die("memory");
	}
	calls[ncalls] = (struct syscall_model){ (int64_t)eid, -1, 0, t };
	th[t].open_call = (int64_t)ncalls;
	uint8_t p[128];
	put(p, ncalls, 8);
	ncalls++;
	record(t, 4, p, 8 + rm_context(p + 8, 0, NULL, NULL));
}

static void syscall_exit(int t, int skipped)
{
	struct syscall_model *s = &calls[th[t].open_call];
	uint8_t p[128];
	s->end = (int64_t)eid;
	s->completed = !skipped;
	put(p, (uint64_t)th[t].open_call, 8);
	th[t].open_call = -1;
	if (skipped)
		record(t, 6, p, 8);
	else
		record(t, 5, p, 8 + rm_context(p + 8, 0, NULL, NULL));
}

static void context_change(int t)
{
	uint8_t p[256];
	uint64_t addr = DATA_PAGE + 0x100, size = 8;
	record(t, 8 + (int)(rnd() % 4), p, rm_context(p, 1, &addr, &size));
}

static void thread_end(int t, int type)
{
	uint8_t p[4];
	put(p, 0, 4);
	th[t].ended = 1;
	record(t, type, p, 4);
}

static int pick_alive(int threads)
{
	int alive[MAX_THREADS], n = 0;
	for (int t = 0; t < threads; t++)
		if (th[t].started && !th[t].ended)
			alive[n++] = t;
	return n ? alive[rnd() % (uint64_t)n] : -1;
}

static void run_model(uint64_t target, int threads)
{
	int started = 0;
	thread_begin(0), started++;
	uint64_t budget = target > 4 ? target - 2 : 2;
	while (eid < budget) {
		if (started < threads && (rnd() % 6 == 0 || budget - eid <= (uint64_t)(threads - started) + 1)) {
			thread_begin(started++);
			continue;
		}
		int t = pick_alive(threads);
		if (t < 0)
			break;
		if (th[t].open_call >= 0) {
			syscall_exit(t, rnd() % 5 == 0);
			continue;
		}
		uint64_t r = rnd() % 100;
		if (r < 80 && extended)
			instruction(t, (int[]){ 0, 1, 3, 4 }[rnd() % 4]);
		else if (r < 80)
			instruction(t, (int)(rnd() % 2));
		else if (r < 88) {
			instruction(t, 2);
			syscall_entry(t);
		} else if (r < 95)
			context_change(t);
		else if (t != 0 && started == threads)
			thread_end(t, 2);
		else
			instruction(t, 0);
	}
	if (abrupt) {
		/* the process aborted around a last instruction of one thread */
		int t = pick_alive(threads);
		if (extended && exec_version == 1 && t >= 0 && th[t].open_call < 0) {
			next_flags = 0x80;
			instruction(t, 0);
		}
		return;
	}
	for (int t = 0; t < threads; t++)
		if (th[t].started && !th[t].ended && th[t].open_call >= 0)
			syscall_exit(t, 0);
	thread_end(0, 3);
}

/* Next pointers need the future: patch them backwards, a block at a time. */
static void patch_next(void)
{
	int64_t next[MAX_THREADS];
	for (int t = 0; t < MAX_THREADS; t++)
		next[t] = -1;
	enum { BLOCK = 4096 };
	static uint8_t buf[BLOCK * 16];
	uint64_t hi = eid;
	fflush(pn);
	int fd = fileno(pn);
	while (hi > 0) {
		uint64_t lo = hi > BLOCK ? hi - BLOCK : 0;
		size_t n = (size_t)(hi - lo) * 16;
		if (pread(fd, buf, n, (off_t)(lo * 16)) != (ssize_t)n)
			die("pread");
		for (uint64_t i = hi; i-- > lo;) {
			int t = thread_of[i];
			put(buf + (i - lo) * 16 + 8, (uint64_t)next[t], 8);
			next[t] = (int64_t)i;
		}
		if (pwrite(fd, buf, n, (off_t)(lo * 16)) != (ssize_t)n)
			die("pwrite");
		hi = lo;
	}
}

static void write_threads(const char *dir, int threads)
{
	FILE *f = open_out(dir, "thread.itable");
	uint8_t h[32] = { 0 };
	put(h + 8, (uint64_t)threads, 8), put(h + 16, 48, 8), put(h + 24, 32, 8);
	emit(f, h, sizeof h);
	for (int t = 0; t < threads; t++) {
		uint8_t r[48] = { 0 };
		int finished = th[t].ended;
		put(r, (uint64_t)t, 4);
		put(r + 4, 1000 + 4 * (uint64_t)t, 4);
		put(r + 8, tib_of(t), 8);
		put(r + 16, (uint64_t)th[t].first, 8);
		put(r + 24, finished || !abrupt ? (uint64_t)th[t].last : (uint64_t)-1, 8);
		put(r + 32, (uint64_t)th[t].count, 8);
		mapf("thread %d row %d\n", t, 32 + 48 * t);
		emit(f, r, sizeof r);
	}
	fclose(f);
}

/* The k-th syscall block written: reverse ID order by default (the format does not sort
 * them); with -o even IDs then odd ones, so offsets are not monotone in ID order. */
static size_t written_kth(size_t k)
{
	if (!scrambled)
		return ncalls - 1 - k;
	size_t evens = (ncalls + 1) / 2;
	return k < evens ? 2 * k : 2 * (k - evens) + 1;
}


static void write_syscalls(const char *dir)
{
	FILE *sv = open_out(dir, "syscall.vtable"), *so = open_out(dir, "syscall.offsets");
	uint8_t h[16] = { 0 };
	put(h + 4, 1, 4);
	put(h + 8, ncalls, 8);
	emit(sv, h, 16);
	uint64_t at = 16;
	uint64_t *where = calloc(ncalls ? ncalls : 1, sizeof *where);
	if (!where)
		die("memory");
	for (size_t n = 0; n < ncalls; n++) {
		size_t k = written_kth(n);
		const struct syscall_model *s = &calls[k];
		uint8_t r[80] = { 0 };
		put(r, 0x55 + k % 7, 2);
		put(r + 2, 0x10 + k % 5, 2);
		put(r + 4, bits64 ? 2 : 1, 1);
		put(r + 5, (uint64_t)s->completed, 1);
		put(r + 6, 2, 1);
		put(r + 8, (uint64_t)s->begin, 8);
		put(r + 16, (uint64_t)s->end, 8);
		put(r + 24, tib_of(s->thread) - 0x100, 8);
		put(r + 32, s->completed ? 0 : 0, 8);
		put(r + 40, 64, 8);
		put(r + 64, 1, 8), put(r + 72, 2, 8);
		where[k] = at;
		mapf("syscall %zu at %llu\n", k, (unsigned long long)at);
		emit(sv, r, sizeof r);
		at += sizeof r;
	}
	for (size_t k = 0; k < ncalls; k++) {
		uint8_t o[16];
		put(o, where[k], 8), put(o + 8, 80, 8);
		emit(so, o, 16);
	}
	free(where);
	fclose(sv);
	fclose(so);
}

static int generate(const char *dir, uint64_t target, int threads)
{
	if (mkdir(dir, 0755) != 0 && errno != EEXIST)
		die(dir);
	thread_of = malloc(target + 8);
	if (!thread_of)
		die("memory");
	for (int t = 0; t < MAX_THREADS; t++)
		th[t] = (struct thread_state){ 0, 0, -1, -1, 0, -1 };
	write_context_map(dir);
	write_ins(dir);
	write_modules(dir);
	write_address_space(dir, threads);
	write_xml(dir);
	vt = open_out(dir, "exec.vtable");
	offs = open_out(dir, "exec.offsets");
	pn = open_out(dir, "exec.prev_next.column");
	uint8_t h[16] = { 0 };
	put(h, (uint64_t)exec_version, 4);
	emit(vt, h, 16); /* RecordCount is patched at the end */
	run_model(target, threads);
	uint8_t o[8];
	put(o, pos, 8);
	emit(offs, o, 8);
	put(h + 8, eid, 8);
	if (fseeko(vt, 0, SEEK_SET) != 0)
		die("seek");
	emit(vt, h, 16);
	patch_next();
	write_threads(dir, threads);
	write_syscalls(dir);
	if (fclose(vt) || fclose(offs) || fclose(pn))
		die("close");
	free(thread_of);
	free(calls);
	return 0;
}

static int poke(const char *path, const char *off, const char *width, const char *value)
{
	int fd = open(path, O_RDWR);
	if (fd < 0)
		die(path);
	int w = atoi(width);
	uint8_t b[8];
	put(b, (uint64_t)strtoull(value, NULL, 0), w);
	if (value[0] == '-')
		put(b, (uint64_t)strtoll(value, NULL, 0), w);
	if (w < 1 || w > 8 || pwrite(fd, b, (size_t)w, (off_t)strtoull(off, NULL, 0)) != w)
		die("poke");
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "poke"))
		return poke(argv[2], argv[3], argv[4], argv[5]);
	if (argc < 3 || strcmp(argv[1], "gen") != 0) {
		fprintf(stderr, "usage: umtgen gen DIR [-n records] [-t threads] [-s seed] [-b 32|64] "
				"[-v 0|1] [-a] [-x] [-o] [-m MAP]\n       umtgen poke FILE OFFSET WIDTH VALUE\n");
		return 2;
	}
	uint64_t target = 40;
	int threads = 3;
	rng_state = 0x9e3779b97f4a7c15u;
	for (int i = 3; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "0";
		if (!strcmp(a, "-a")) {
			abrupt = 1;
			continue;
		}
		if (!strcmp(a, "-x")) {
			extended = 1;
			continue;
		}
		if (!strcmp(a, "-o")) {
			scrambled = 1;
			continue;
		}
		i++;
		if (!strcmp(a, "-n"))
			target = strtoull(v, NULL, 0);
		else if (!strcmp(a, "-t"))
			threads = atoi(v);
		else if (!strcmp(a, "-s"))
			rng_state ^= strtoull(v, NULL, 0) * 0x2545f4914f6cdd1du;
		else if (!strcmp(a, "-b"))
			bits64 = atoi(v) == 64;
		else if (!strcmp(a, "-v"))
			exec_version = atoi(v) ? 1 : 0;
		else if (!strcmp(a, "-m") && !(map_out = fopen(v, "w")))
			die(v);
	}
	if (threads < 1 || threads > MAX_THREADS || target < 8) {
		fprintf(stderr, "umtgen: need 1..%d threads and at least 8 records\n", MAX_THREADS);
		return 2;
	}
	if (!rng_state)
		rng_state = 1;
	int rc = generate(argv[2], target, threads);
	if (map_out)
		fclose(map_out);
	return rc;
}
