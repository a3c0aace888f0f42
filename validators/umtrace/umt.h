/* UMTracer trace validator: the trace's members, what the decode steps hand to the
 * checks after them (struct umt_tables, read only), and the steps' entry points.
 * Layouts follow the seed's sections 4-11 and the Kaitai grammars in grammars/umtrace/. Every read of file
 * bytes goes through the core cursor (umt_rd, or a row read whole with umt_row /
 * umt_table_row and its fields with umt_get) and reports failure; every offset sum
 * goes through the core's checked arithmetic. */
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
	bool ranges_ok;              /* umt_address.c: ranges sorted, disjoint, merged (U700..U705 clean) */
};

/* What the record pass learns of the threads' chains, for the thread rows
 * (umt_thread.c): owned by the caller of both, freed with tl_umt_chains_end. */
struct umt_chains {
	struct umt_thread_state *threads; /* thread.rows entries; NULL when not followed */
};
void tl_umt_chains_end(struct umt_chains *c);

/* What the record pass saw of each syscall's links (bitmaps): its BeginEID record
 * named it, its EndEID record named it, and the pair is out of order or crosses
 * threads. The syscall links' check reports from these after the pass (U408..U410).
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
 * its fields are then read with umt_get() relative to its start, and a chain of
 * them joined with && fails as a whole. row->offset is its file offset. */
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

/* Row k of a fixed-size table: its offset computed with checked arithmetic, its
 * bytes checked as a whole. */
TL_HOT bool umt_table_row(const struct tl_input *in, const struct umt_table *tab, uint64_t k,
			  struct tl_cursor *row)
{
	uint64_t off;
	return k < tab->rows && tl_mul_u64(k, tab->row_size, &off) &&
	       tl_add_u64(off, tab->table_fp, &off) && umt_row(in, off, tab->row_size, row);
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
/* Syscall block s's [start, end) in syscall.vtable, if it passes U403's bounds. */
bool tl_umt_syscall_block(const struct umt_trace *t, uint64_t s, uint64_t *start, uint64_t *end);
/* The fixed 64 bytes of syscall block s (syscallRec), read as a whole; U403's
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
/* U404 (umt_syscall_overlap.c), after the blocks passed the table check (syscall_ok). */
void tl_umt_check_syscall_overlap(struct umt_trace *t, const struct umt_syscalls *sys);
/* The record pass; false when records could not all be located (U208). */
bool tl_umt_check_exec_records(struct umt_trace *t, const struct umt_tables *tabs,
			       struct umt_chains *chains, struct umt_links *links);
void tl_umt_check_threads(struct umt_trace *t, const struct umt_table *thread,
			  const struct umt_chains *chains);
void tl_umt_check_syscall_links(struct umt_trace *t, const struct umt_tables *tabs,
				const struct umt_links *links);
void tl_umt_check_addresses(struct umt_trace *t, const struct umt_table *address, bool *ranges_ok);

struct umt_ins_info;
/* Memory references (umt_exec_memory.c): U346 and U706 for one instruction record
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
	uint64_t first, last;
	if (umt_table_row(&t->f[M_ADDRESS], address, *hit, &r) && umt_get(&r, 0, 8, &first) &&
	    umt_get(&r, 8, 8, &last) && first <= lo && hi <= last)
		return true;
	return tl_umt_address_search(t, address, hit, lo, hi);
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
	struct tl_cursor row, dec;
	uint64_t decoded, cs64, flags;
	int64_t lc_size;
	/* the row and its decodedIns passed their checks (ins_bad clear): these reads
	 * fail only on a layout error, and then the instruction is not used */
	if (!umt_table_row(in, &tabs->ins, k, &row) || !umt_get(&row, 48, 8, &decoded) ||
	    !umt_get(&row, 9, 1, &cs64) || !tl_add_u64(tabs->ins.extra_fp, decoded, &decoded) ||
	    !umt_row(in, decoded, 88, &dec) || !umt_get_s(&dec, 58, 2, &lc_size) ||
	    !umt_get(&dec, 6, 1, &flags))
		return false;
	info->decoded = decoded;
	info->cs64 = cs64 != 0;
	info->lc_size = lc_size;
	info->flags = (uint8_t)flags;
	return true;
}

/* The text context of a diagnostic in a fixed-size table (umt_describe.c). */
void tl_umt_describe(const struct tl_diagnostic *d, tl_read_back_fn read, void *file,
		     struct tl_field_view *view);

#endif
