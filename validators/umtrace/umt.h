/* UMTracer trace validator: the trace's members, what the decode steps hand to the
 * checks after them (struct umt_tables, read only), and the steps' entry points.
 * Layouts follow the seed's sections 4-11 and the Kaitai grammars in grammars/umtrace/. Every read of file
 * bytes goes through the core cursor (umt_rd, or a row read whole with umt_row /
 * umt_table_row and its fields in one call with umt_get_fields against a static
 * layout, an array of such elements with umt_get_array, or one field with umt_get)
 * and reports failure; every offset sum goes
 * through the core's checked arithmetic. */
#ifndef UMT_H
#define UMT_H

#include "cursor.h"
#include "format.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum umt_member {
	M_EXEC_VTABLE,
	M_EXEC_OFFSETS,
	M_EXEC_PREVNEXT,
	M_INS,
	M_SYSCALL_VTABLE,
	M_SYSCALL_OFFSETS,
	M_MODULE,
	M_THREAD,
	M_CONTEXT_MAP,
	M_ADDRESS,
	M_XML,
	M_COUNT
};

extern const char *const tl_umt_member_name[M_COUNT];

#define UMT_SLOT_IMM0 0xfd
#define UMT_SLOT_IMM1 0xfe
#define UMT_SLOT_NA 0xff
#define UMT_CMAP_SIZE 17424u
#define UMT_NONE (-1)
/* Streaming passes hand every mapped page back after this many bytes (tl_umt_drop_pages). */
#define UMT_WINDOW (4u << 20)

/* A fixed-size table whose header passed (ok) or not. */
struct umt_table {
	bool ok;
	uint32_t record_ver;
	uint64_t rows;
	uint64_t row_size;
	uint64_t table_fp;
	uint64_t extra_fp;   /* ins.itable and module.itable */
	uint64_t extra_size;
};

/* What the record pass learns about one thread (bounded by thread rows). */
struct umt_thread_state {
	int64_t first;
	int64_t last;
	int64_t pending_next; /* the Next value stored for `last` */
	uint64_t count;
	uint64_t last_at;     /* exec.vtable offset of `last` */
	uint8_t last_type;
	uint8_t last_flags;
};

/* The trace's members as mapped: what every checker reads and reports against.
 * Nothing decoded lives here (struct umt_tables). */
struct umt_trace {
	struct tl_ctx *ctx;
	bool single;                 /* one table validated alone */
	struct tl_input f[M_COUNT];
	bool have[M_COUNT];
};

/* context_map.itable as decoded by umt_context_map.c. */
struct umt_cmap {
	bool ok;
	uint16_t dump_size;
	uint16_t count;              /* ElemCount */
	uint16_t common[512];        /* CommonName of the registers below count, as read */
};

/* The exec index as decoded by umt_exec_index.c: ok when records can be located. */
struct umt_exec_index {
	bool ok;
	bool prevnext_ok;
	uint32_t version;
	uint64_t count;
	uint64_t first, last;        /* Offset[0] and Offset[RecordCount] */
};

/* syscall.vtable as decoded by umt_syscall.c. */
struct umt_syscalls {
	bool ok;
	uint64_t count;
	uint8_t *bad;                /* bitmap: block unusable */
};

/* What the decode steps learned of the tables, for the checks after them. Each
 * field has one writer, the step named beside it, which receives only that field;
 * every later step reads the whole as const. umt_format.c owns it and runs the
 * steps in order. */
struct umt_tables {
	struct umt_table ins, module, thread, address; /* umt_table.c */
	struct umt_cmap cmap;        /* umt_context_map.c */
	unsigned bitness;            /* umt_xml.c: App/Bitness 32 or 64; 0 when absent or bad */
	struct umt_exec_index exec;  /* umt_exec_index.c */
	uint8_t *ins_bad;            /* umt_ins.c, bitmap: insRec or its decodedIns is broken */
	struct umt_syscalls syscall; /* umt_syscall.c */
	bool ranges_ok;              /* umt_address.c: ranges sorted, disjoint, merged (UMT-RANGE-*, UMT-RANGES-* clean) */
};

/* What the record pass learns of the threads' chains, for the thread rows
 * (umt_thread.c): owned by the caller of both, freed with tl_umt_chains_end. */
struct umt_chains {
	struct umt_thread_state *threads; /* thread.rows entries; NULL when not followed */
};
void tl_umt_chains_end(struct umt_chains *c);

/* What the record pass saw of each syscall's links (bitmaps): its BeginEID record
 * named it, its EndEID record named it, and the pair is out of order or crosses
 * threads. The syscall links' check reports from these after the pass (UMT-SYSCALL-BEGIN-EID, -END-EID, -END-ORDER).
 * Owned by the caller of both, freed with tl_umt_links_end. */
struct umt_links {
	uint8_t *begin_seen, *end_seen, *pair_bad;
	bool complete;               /* the pass ran to the end with those bitmaps */
};
void tl_umt_links_end(struct umt_links *l);

/* Reading. Every read reports success: a read outside the member fails instead of
 * yielding a value, so a forgotten bounds check cannot turn into a wrong one.
 * A field of width 1..8, little-endian, at its offset in the member. Inline because
 * the record pass makes a dozen reads per record. */
TL_HOT bool umt_rd(const struct tl_input *in, uint64_t off, unsigned width, uint64_t *v)
{
	return tl_read_uint_at(in->data, in->size, off, width, false, v);
}

TL_HOT bool umt_rd_s(const struct tl_input *in, uint64_t off, unsigned width, int64_t *v)
{
	return tl_read_int_at(in->data, in->size, off, width, false, v);
}

/* A structure (row, block, record) of len bytes at off, checked once as a whole:
 * its fields are then read relative to its start, together with umt_get_fields
 * (or one with umt_get). row->offset is its file offset. */
TL_HOT bool umt_row(const struct tl_input *in, uint64_t off, uint64_t len, struct tl_cursor *row)
{
	return tl_cursor_at(row, in->data, in->size, off, len);
}

/* A field at off inside a row: false when the layout asks for bytes past its end. */
TL_HOT bool umt_get(const struct tl_cursor *row, uint64_t off, unsigned width, uint64_t *v)
{
	return tl_read_uint_at(row->p, row->left, off, width, false, v);
}

TL_HOT bool umt_get_s(const struct tl_cursor *row, uint64_t off, unsigned width, int64_t *v)
{
	return tl_read_int_at(row->p, row->left, off, width, false, v);
}

/* One field of a row layout: its offset and width (1..8) in the row, and whether
 * it is signed (then sign-extended into its uint64_t). */
struct umt_field {
	uint16_t off;
	uint8_t width;
	bool sign;
};

/* The loads behind the checked reads below, once they have checked the extent. */
TL_HOT void umt_load_fields(const uint8_t *p, const struct umt_field *layout, size_t n,
			    uint64_t *out)
{
#pragma GCC unroll 16
	for (size_t i = 0; i < n; i++) {
		unsigned w = layout[i].width;
		uint64_t v = tl_load_uint(p + layout[i].off, w, false);
		out[i] = layout[i].sign ? (uint64_t)tl_sign_extend(v, 8 * w) : v;
	}
}

/* A layout's extent (the end of its last byte) in *end, and whether every width is
 * within 1..8. */
TL_HOT bool umt_layout_end(const struct umt_field *layout, size_t n, uint64_t *end)
{
	uint64_t last = 0;
	bool widths = true;
#pragma GCC unroll 16
	for (size_t i = 0; i < n; i++) {
		uint64_t e = (uint64_t)layout[i].off + layout[i].width;
		last = e > last ? e : last;
		widths &= layout[i].width - 1u < 8u;
	}
	*end = last;
	return widths;
}

/* The n fields of layout at base inside a row, read in one checked call: the
 * layout's extent is checked against the row once, so a row read whole costs one
 * failure branch, not one per field. False (out untouched) when the layout reaches
 * past the row or has a width outside 1..8. Inline and unrolled: layouts are
 * static const tables, folded by the compiler. */
TL_HOT bool umt_get_fields_at(const struct tl_cursor *row, uint64_t base,
			      const struct umt_field *layout, size_t n, uint64_t *out)
{
	uint64_t end;
	bool widths = umt_layout_end(layout, n, &end);
	if (!widths || base > row->left || end > row->left - base)
		return false;
	umt_load_fields(row->p + base, layout, n, out);
	return true;
}

TL_HOT bool umt_get_fields(const struct tl_cursor *row, const struct umt_field *layout, size_t n,
			   uint64_t *out)
{
	return umt_get_fields_at(row, 0, layout, n, out);
}

/* An array inside a row: count elements of `stride` bytes from base, each read with
 * the nf fields of layout into out[k * nf ...], in one checked call (the extent of
 * the last element is checked once), as count umt_get_fields_at calls would: false,
 * out untouched, when one of them would fail. The helpers that take an element from
 * the array then cannot fail. Inline and unrolled as umt_get_fields_at. */
TL_HOT bool umt_get_array(const struct tl_cursor *row, uint64_t base, uint64_t stride,
			  uint64_t count, const struct umt_field *layout, size_t nf, uint64_t *out)
{
	uint64_t end, last;
	bool widths = umt_layout_end(layout, nf, &end);
	if (count == 0)
		return true;
	if (!widths || !tl_mul_u64(count - 1, stride, &last) || !tl_add_u64(last, base, &last) ||
	    last > row->left || end > row->left - last)
		return false;
	for (uint64_t k = 0; k < count; k++)
		umt_load_fields(row->p + base + k * stride, layout, nf, out + k * nf);
	return true;
}

/* Row k of a fixed-size table: its offset computed with checked arithmetic, its
 * bytes checked as a whole. */
TL_HOT bool umt_table_row(const struct tl_input *in, const struct umt_table *tab, uint64_t k,
			  struct tl_cursor *row)
{
	uint64_t off;
	return k < tab->rows && tl_mul_u64(k, tab->row_size, &off) &&
	       tl_add_u64(off, tab->table_fp, &off) && umt_row(in, off, tab->row_size, row);
}

/* A field of a layout read signed (sign-extended by umt_get_fields_at). */
static inline int64_t umt_signed(uint64_t v) { return tl_sign_extend(v, 64); }

/* Row k of a fixed-size table and its fields, in one call that fails as a whole. */
TL_HOT bool umt_table_fields(const struct tl_input *in, const struct umt_table *tab, uint64_t k,
			     struct tl_cursor *row, const struct umt_field *layout, size_t n,
			     uint64_t *out)
{
	return umt_table_row(in, tab, k, row) && umt_get_fields(row, layout, n, out);
}

/* The same for a structure of len bytes at off in a member. */
TL_HOT bool umt_row_fields(const struct tl_input *in, uint64_t off, uint64_t len,
			   struct tl_cursor *row, const struct umt_field *layout, size_t n,
			   uint64_t *out)
{
	return umt_row(in, off, len, row) && umt_get_fields(row, layout, n, out);
}

/* Two 8-byte fields at off (an index entry, a pair of links), read as a whole;
 * signed ones are taken with umt_signed. */
TL_HOT bool umt_pair(const struct tl_input *in, uint64_t off, uint64_t v[2])
{
	static const struct umt_field pair[2] = { { 0, 8, false }, { 8, 8, false } };
	struct tl_cursor row;
	return umt_row_fields(in, off, 16, &row, pair, 2, v);
}

/* The head of an exec record, read as a whole: Thread, Type, Flags, and with
 * n = 4 the 8-byte ID of types 0 and 4..6 (InsID, SyscallID) at 6. */
enum { UMT_R_THREAD, UMT_R_TYPE, UMT_R_FLAGS, UMT_R_ID };
TL_HOT bool umt_record_head(const struct tl_cursor *rec, size_t n, uint64_t v[4])
{
	static const struct umt_field head[4] = {
		{ 0, 4, true }, { 4, 1, false }, { 5, 1, false }, { 6, 8, true },
	};
	return umt_get_fields(rec, head, n, v);
}

/* The header of a fixed-size table (HeaderVer, RecordVer, RowCount, RowSize, TableFP,
 * then ExtraFP and ExtraSize in a 48-byte header) read as a whole; a 32-byte header
 * leaves the extra fields 0. */
enum { UMT_H_VER, UMT_H_RECORD_VER, UMT_H_ROWS, UMT_H_ROW_SIZE, UMT_H_FP, UMT_H_EXTRA_FP,
       UMT_H_EXTRA_SIZE, UMT_H_N };
static inline bool umt_table_header_fields(const struct tl_input *in, uint64_t header,
					   uint64_t v[UMT_H_N])
{
	static const struct umt_field layout[UMT_H_N] = {
		{ 0, 4, false }, { 4, 4, false }, { 8, 8, true },  { 16, 8, true },
		{ 24, 8, true }, { 32, 8, true }, { 40, 8, true },
	};
	struct tl_cursor h;
	v[UMT_H_EXTRA_FP] = v[UMT_H_EXTRA_SIZE] = 0;
	return umt_row_fields(in, 0, header, &h, layout, header == 48 ? UMT_H_N : UMT_H_EXTRA_FP, v);
}

/* address_space.itable row k as a whole: fl[0] First, fl[1] Last. */
TL_HOT bool umt_range_row(const struct tl_input *in, const struct umt_table *address, uint64_t k,
			  struct tl_cursor *row, uint64_t fl[2])
{
	static const struct umt_field range[2] = { { 0, 8, false }, { 8, 8, false } };
	return umt_table_fields(in, address, k, row, range, 2, fl);
}

/* [start, start+len) inside [lo, hi), without overflow. */
bool tl_umt_inside(uint64_t start, uint64_t len, uint64_t lo, uint64_t hi);
/* The same for a signed file pointer relative to base. */
bool tl_umt_fp_inside(uint64_t base, int64_t fp, int64_t len, uint64_t lo, uint64_t hi,
		   uint64_t *abs);
void tl_umt_report(struct umt_trace *t, enum umt_member m, enum tl_rule_id rule, uint64_t off,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void tl_umt_report_text(struct umt_trace *t, enum umt_member m, enum tl_rule_id rule,
		     uint64_t off, uint32_t line, uint32_t col, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
uint8_t *tl_umt_bitmap_new(uint64_t bits);
/* Hands back every mapped page of a member read at random (ins.itable, the syscall
 * files): pages fault back in from the page cache when read again. */
void tl_umt_drop_pages(struct umt_trace *t, enum umt_member m);
static inline bool umt_bit(const uint8_t *map, uint64_t i)
{
	return map && (map[i >> 3] >> (i & 7)) & 1;
}
static inline void umt_set_bit(uint8_t *map, uint64_t i)
{
	if (map)
		map[i >> 3] |= (uint8_t)(1u << (i & 7));
}

/* A moduleRec (umt_module_row.c); false when row i cannot be read. */
struct umt_module_row {
	uint64_t at;                 /* file offset of the row */
	int64_t load, unload;        /* LoadEID, UnloadEID */
	uint64_t start, end;         /* StartAddr, EndAddr (inclusive) */
	int64_t win_name, device_name; /* WinNameFP, DeviceNameFP */
};
bool tl_umt_module_row(const struct umt_trace *t, const struct umt_table *module, uint64_t i,
		       struct umt_module_row *m);

/* Strings (umt_string.c): a cStr (unit 1) or uStr (unit 2) at abs inside [lo, hi). */
bool tl_umt_check_string(struct umt_trace *t, enum umt_member m, uint64_t abs, unsigned unit,
		      uint64_t lo, uint64_t hi);

/* The steps, in the order umt_format.c runs them. A decode step checks its table
 * and writes what it decoded to its out parameter, a field of struct umt_tables; a
 * check reads the tables decoded before it (const) and keeps its own state. */
void tl_umt_check_table_header(struct umt_trace *t, enum umt_member m, struct umt_table *tab);
void tl_umt_check_context_map(struct umt_trace *t, struct umt_cmap *out);
void tl_umt_check_xml(struct umt_trace *t, unsigned *bitness);
void tl_umt_check_modules(struct umt_trace *t, const struct umt_tables *tabs);
void tl_umt_check_module_overlap(struct umt_trace *t, const struct umt_table *module);
void tl_umt_check_instructions(struct umt_trace *t, const struct umt_tables *tabs,
			       uint8_t **ins_bad);
void tl_umt_check_exec_index(struct umt_trace *t, struct umt_exec_index *out);
void tl_umt_check_syscall_table(struct umt_trace *t, struct umt_syscalls *out);
/* Syscall block s's [start, end) in syscall.vtable, if it passes UMT-SYSCALL-BLOCK-IN-FILE's bounds. */
bool tl_umt_syscall_block(const struct umt_trace *t, uint64_t s, uint64_t *start, uint64_t *end);
/* The fixed 64 bytes of syscall block s (syscallRec), read as a whole; UMT-SYSCALL-BLOCK-IN-FILE's
 * bounds of the block are tl_umt_syscall_block's. */
struct umt_syscall_rec {
	uint64_t at, size;           /* the block in syscall.vtable */
	int64_t convention;
	uint64_t completed;
	int64_t args, extras;        /* ArgCount, ExtraCount */
	int64_t begin, end;          /* BeginEID, EndEID */
	uint64_t before_sp, result;
	int64_t args_fp, extras_fp;  /* relative to the block */
};
bool tl_umt_syscall_rec(const struct umt_trace *t, uint64_t s, struct umt_syscall_rec *r);
/* UMT-SYSCALL-BLOCK-OVERLAP (umt_syscall_overlap.c), after the blocks passed the table check (syscall_ok). */
void tl_umt_check_syscall_overlap(struct umt_trace *t, const struct umt_syscalls *sys);
/* The record pass; false when records could not all be located (UMT-EXEC-OFFSETS-ORDER). */
bool tl_umt_check_exec_records(struct umt_trace *t, const struct umt_tables *tabs,
			       struct umt_chains *chains, struct umt_links *links);
void tl_umt_check_threads(struct umt_trace *t, const struct umt_table *thread,
			  const struct umt_chains *chains);
void tl_umt_check_syscall_links(struct umt_trace *t, const struct umt_tables *tabs,
				const struct umt_links *links);
void tl_umt_check_addresses(struct umt_trace *t, const struct umt_table *address, bool *ranges_ok);

struct umt_ins_info;
/* Memory references (umt_exec_memory.c): UMT-SLOT-ADDRESS-VALUE and UMT-RANGES-COVER-MEMORY for one instruction record
 * whose size matches its decodedIns. Its state, zeroed to begin, ended with
 * tl_umt_memory_end. */
struct umt_mem_plan;
struct umt_memory {
	const struct umt_table *ranges; /* address_space.itable when ranges_ok, else NULL */
	struct umt_mem_plan *plans;  /* cache of decodedIns memory layouts */
	uint64_t range_hit;          /* the address range of the last reference */
};
void tl_umt_check_memory_operands(struct umt_trace *t, struct umt_memory *m, uint64_t eid,
			       uint64_t start, const struct umt_ins_info *info);
void tl_umt_memory_end(struct umt_memory *m);
/* [lo, hi] inside one address range; *hit: the caller's cache of the range found
 * last. Only when ranges_ok. The search is umt_address_lookup.c's; the cached range
 * is tried inline, as references cluster and most are found there. */
bool tl_umt_address_search(const struct umt_trace *t, const struct umt_table *address,
			   uint64_t *hit, uint64_t lo, uint64_t hi);
static inline bool umt_address_listed(const struct umt_trace *t, const struct umt_table *address,
				      uint64_t *hit, uint64_t lo, uint64_t hi)
{
	struct tl_cursor r;
	uint64_t fl[2];
	if (umt_range_row(&t->f[M_ADDRESS], address, *hit, &r, fl) && fl[0] <= lo && hi <= fl[1])
		return true;
	return tl_umt_address_search(t, address, hit, lo, hi);
}

/* A decodedIns at `at` in ins.itable with its LCCount lcSlots, read as one structure
 * (its fixed 88 bytes and 12 per slot) into fields: the fixed part's (f), its first
 * ExpCount expOpers, at most 4 (RegName, Size, Flags, BeforeSlot, AfterSlot, their
 * offsets) and the LCCount lcSlots' (RegName, CommonRegName,
 * ValueSize, Offset, AddrWidth). umt_decoded.c checks them, umt_exec_memory.c takes
 * the memory operands' layout from them; neither reads the structure again. */
enum { UMT_D_FLAGS, UMT_D_EXP_COUNT, UMT_D_EFF_OPER, UMT_D_EFF_ADDR, UMT_D_LC_SIZE,
       UMT_D_FIRST_OUT, UMT_D_FIRST_AFTER, UMT_D_LC_COUNT, UMT_D_SEG, UMT_D_BASE, UMT_D_SCALE,
       UMT_D_INDEX, UMT_D_MEM1, UMT_D_IMM0, UMT_D_IMM1, UMT_D_N };
enum { UMT_O_REG, UMT_O_SIZE, UMT_O_FLAGS, UMT_O_BEFORE, UMT_O_AFTER, UMT_O_BEFORE_OFF,
       UMT_O_AFTER_OFF, UMT_O_N };
enum { UMT_S_REG, UMT_S_COMMON, UMT_S_VALUE_SIZE, UMT_S_OFFSET, UMT_S_ADDR_WIDTH, UMT_S_N };
#define UMT_LC_MAX 255u              /* LCCount is one byte */
struct umt_decoded {
	struct tl_cursor c;          /* the decodedIns with its lcSlots, checked as a whole */
	uint64_t f[UMT_D_N];
	uint64_t op[4][UMT_O_N];     /* the first min(ExpCount, 4); Size signed */
	uint64_t slot[UMT_LC_MAX][UMT_S_N]; /* the first f[UMT_D_LC_COUNT]; ValueSize, Offset signed */
};
static inline bool umt_decoded_read(const struct tl_input *in, uint64_t at, struct umt_decoded *d)
{
	static const struct umt_field layout[UMT_D_N] = {
		[UMT_D_FLAGS] = { 6, 1, false },       [UMT_D_EXP_COUNT] = { 7, 1, false },
		[UMT_D_EFF_OPER] = { 56, 1, false },   [UMT_D_EFF_ADDR] = { 57, 1, false },
		[UMT_D_LC_SIZE] = { 58, 2, true },     [UMT_D_FIRST_OUT] = { 60, 1, false },
		[UMT_D_FIRST_AFTER] = { 61, 1, false }, [UMT_D_LC_COUNT] = { 62, 1, false },
		[UMT_D_SEG] = { 63, 1, false },        [UMT_D_BASE] = { 64, 1, false },
		[UMT_D_SCALE] = { 65, 1, false },      [UMT_D_INDEX] = { 66, 1, false },
		[UMT_D_MEM1] = { 67, 1, false },       [UMT_D_IMM0] = { 72, 8, false },
		[UMT_D_IMM1] = { 80, 8, false },
	};
	static const struct umt_field exp_oper[UMT_O_N] = {
		{ 0, 2, false }, { 2, 2, true },  { 4, 1, false }, { 5, 1, false },
		{ 6, 1, false }, { 7, 1, false }, { 8, 1, false },
	};
	static const struct umt_field slot[UMT_S_N] = {
		{ 0, 2, false }, { 2, 2, false }, { 4, 2, true }, { 6, 2, true }, { 8, 1, false },
	};
	uint64_t count;
	return umt_rd(in, at + 62, 1, &count) && umt_row(in, at, 88 + 12 * count, &d->c) &&
	       umt_get_fields(&d->c, layout, UMT_D_N, d->f) &&
	       umt_get_array(&d->c, 8, 12, d->f[UMT_D_EXP_COUNT] < 4 ? d->f[UMT_D_EXP_COUNT] : 4,
			     exp_oper, UMT_O_N, d->op[0]) &&
	       umt_get_array(&d->c, 88, 12, count, slot, UMT_S_N, d->slot[0]);
}

/* Random access helpers used across tables (umt_exec_index.c). */
bool tl_umt_exec_record(struct umt_trace *t, const struct umt_exec_index *exec, uint64_t eid,
			uint64_t *start, uint64_t *end);
/* ins.itable row k: LCSize and code width, when the row is usable. */
bool tl_umt_check_decoded(struct umt_trace *t, const struct umt_cmap *cmap, uint64_t at, bool cs64);
/* What an instruction record needs of its insRec and decodedIns. */
struct umt_ins_info {
	uint64_t decoded;            /* file offset of the decodedIns in ins.itable */
	int64_t lc_size;
	bool cs64;
	uint8_t flags;               /* decodedIns Flags */
};

/* Inline: the record pass calls it for every instruction record. */
static inline bool umt_ins_lookup(struct umt_trace *t, const struct umt_tables *tabs, uint64_t k,
				  struct umt_ins_info *info)
{
	if (!tabs->ins.ok || !tabs->ins_bad || k >= tabs->ins.rows || umt_bit(tabs->ins_bad, k))
		return false;
	const struct tl_input *in = &t->f[M_INS];
	/* insRec DecodedFP, CSis64Bits; decodedIns LCSize, Flags */
	static const struct umt_field ins_row[2] = { { 48, 8, false }, { 9, 1, false } };
	static const struct umt_field dec_head[2] = { { 58, 2, true }, { 6, 1, false } };
	struct tl_cursor row, dec;
	uint64_t r[2], d[2], decoded;
	/* the row and its decodedIns passed their checks (ins_bad clear): these reads
	 * fail only on a layout error, and then the instruction is not used */
	if (!umt_table_fields(in, &tabs->ins, k, &row, ins_row, 2, r) ||
	    !tl_add_u64(tabs->ins.extra_fp, r[0], &decoded) ||
	    !umt_row_fields(in, decoded, 88, &dec, dec_head, 2, d))
		return false;
	info->decoded = decoded;
	info->cs64 = r[1] != 0;
	info->lc_size = umt_signed(d[0]);
	info->flags = (uint8_t)d[1];
	return true;
}

/* The text context of a diagnostic in a fixed-size table (umt_describe.c). */
void tl_umt_describe(const struct tl_diagnostic *d, tl_read_back_fn read, void *file,
		     struct tl_field_view *view);

#endif
