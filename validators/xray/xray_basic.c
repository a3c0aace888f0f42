/* Basic ("naive") mode, header type 0: fixed 32-byte records, function
 * records with absolute TSCs and argument payloads that belong to the
 * record before them (compiler-rt xray_basic_logging, llvm-xray loadNaiveFormatLog). */
#include "xray.h"
#include "invariant.h"

#include <inttypes.h>

enum basic_record_type { BASIC_FUNCTION = 0, BASIC_ARGUMENT = 1 };

/* What an argument payload must match: the function record it follows. */
struct basic_owner {
	bool valid;
	uint32_t function_id;
	uint32_t tid;
	uint32_t pid;
};

struct basic_record {
	uint16_t type;
	uint8_t entry_type;
	uint32_t function_id;
	uint32_t tid;
	uint32_t pid;
};

static void decode(struct tl_cursor c, bool big, struct basic_record *r)
{
	uint8_t cpu = 0;
	uint32_t tsc_lo = 0, tsc_hi = 0;
	/* The caller hands over a whole 32-byte record: these reads cannot fail. */
	(void)tl_cursor_u16(&c, big, &r->type);
	if (r->type == BASIC_ARGUMENT) {
		(void)tl_cursor_skip(&c, 2);
		(void)tl_cursor_u32(&c, big, &r->function_id);
		(void)tl_cursor_u32(&c, big, &r->tid);
		(void)tl_cursor_u32(&c, big, &r->pid);
		return;
	}
	/* cpu at 2, entry type at 3, id at 4, TSC at 8, tid at 16, pid at 20. */
	(void)tl_cursor_u8(&c, &cpu);
	(void)tl_cursor_u8(&c, &r->entry_type);
	(void)tl_cursor_u32(&c, big, &r->function_id);
	(void)tl_cursor_u32(&c, big, &tsc_lo);
	(void)tl_cursor_u32(&c, big, &tsc_hi);
	(void)tl_cursor_u32(&c, big, &r->tid);
	(void)tl_cursor_u32(&c, big, &r->pid);
}

static void check_argument(struct tl_ctx *ctx, const struct xray_header *hdr,
			   const struct basic_owner *owner, const struct basic_record *r,
			   uint64_t off, int64_t index)
{
	struct tl_location at = tl_at_record(off, index);
	if (hdr->version < 2) {
		tl_report(ctx, RULE_XRAY_BASIC_ARGUMENT_VERSION, &at,
			  MSG_XRAY_BASIC_ARGUMENT_VERSION, r->function_id);
		return;
	}
	if (!owner->valid) {
		tl_report(ctx, RULE_XRAY_BASIC_ARGUMENT_ORPHAN, &at,
			  MSG_XRAY_BASIC_ARGUMENT_ORPHAN, index == 0 ? "first in the file" : "after a record it cannot belong to");
		return;
	}
	bool pid_counts = hdr->version >= 3;
	if (owner->function_id != r->function_id || owner->tid != r->tid ||
	    (pid_counts && owner->pid != r->pid))
		tl_report(ctx, RULE_XRAY_BASIC_ARGUMENT_ORPHAN, &at,
			  MSG_XRAY_BASIC_ARGUMENT_ORPHAN_2,
			  owner->function_id, owner->tid, pid_counts ? ", pid " : "",
			  pid_counts ? owner->pid : 0, r->function_id, r->tid,
			  pid_counts ? ", pid " : "", pid_counts ? r->pid : 0);
}

static void check_function(struct tl_ctx *ctx, const struct xray_instr_map *map,
			   const struct basic_record *r, uint64_t off, int64_t index)
{
	struct tl_location at = tl_at_record(off + 3, index);
	if (r->entry_type > 3)
		tl_report(ctx, RULE_XRAY_BASIC_ENTRY_TYPE, &at,
			  MSG_XRAY_BASIC_ENTRY_TYPE, (unsigned)r->entry_type);
	if (r->function_id == 0) {
		at = tl_at_record(off + 4, index);
		tl_report(ctx, RULE_XRAY_FUNCTION_ID_ZERO, &at,
			  MSG_XRAY_FUNCTION_ID_ZERO);
	}
	tl_xray_check_function_id(ctx, map, r->function_id, off, index);
}

void tl_xray_basic_validate(struct tl_ctx *ctx, const struct tl_input *in, const struct xray_header *hdr,
			 const struct xray_instr_map *map)
{
	uint64_t data = in->size - XRAY_HEADER_SIZE;
	uint64_t count = data / XRAY_BASIC_RECORD_SIZE, rest = data % XRAY_BASIC_RECORD_SIZE;
	if (rest) {
		struct tl_location at = tl_at_record(in->size - rest, (int64_t)count);
		tl_report(ctx, RULE_XRAY_BASIC_SIZE, &at,
			  MSG_XRAY_BASIC_SIZE, rest);
	}
	struct basic_owner owner = { false, 0, 0, 0 };
	struct tl_window win;
	tl_window_open(&win, in, 0);
	uint64_t off = XRAY_HEADER_SIZE;
	/* No bail-out at --max-errors: the core stops printing but keeps
	 * counting, so the verdict counts the whole file at the same cost. */
	for (uint64_t i = 0; i < count; i++, off += XRAY_BASIC_RECORD_SIZE) {
		size_t avail;
		const uint8_t *p = tl_window_at(&win, off, XRAY_BASIC_RECORD_SIZE, &avail);
		/* the window yields whole records inside the input's size; a file
		 * that shrank under us sets read_failed: unreadable, no verdict (validate.c) */
		if (win.read_failed || TL_NEVER(avail < XRAY_BASIC_RECORD_SIZE))
			break;
		struct tl_cursor rec;
		struct basic_record r = { 0 };
		tl_cursor_init(&rec, p, XRAY_BASIC_RECORD_SIZE, off);
		decode(rec, hdr->big, &r);
		if (r.type == BASIC_FUNCTION) {
			check_function(ctx, map, &r, off, (int64_t)i);
			owner = (struct basic_owner){ true, r.function_id, r.tid, r.pid };
		} else if (r.type == BASIC_ARGUMENT) {
			check_argument(ctx, hdr, &owner, &r, off, (int64_t)i);
		} else {
			struct tl_location at = tl_at_record(off, (int64_t)i);
			tl_report(ctx, RULE_XRAY_BASIC_RECORD_TYPE, &at,
				  MSG_XRAY_BASIC_RECORD_TYPE,
				  (unsigned)r.type);
			owner.valid = false;
		}
	}
	tl_window_close(&win);
}
